// Intersection of half-spaces by polar duality (Preparata and Muller, "Finding the intersection
// of n half-spaces in time O(n log n)", 1979; Qhull's 'H' mode does the same): about a point c
// strictly inside every half-space n_f . x <= d_f, the half-space f maps to the dual point
// p_f = n_f / (d_f - n_f . c), and the intersection's vertices are the facets of the dual points'
// hull: a facet {p : m . p = o} with o > 0 is the vertex x = c + m / o, where the planes of the
// facet's dual points meet. Dual points inside the dual hull are planes that bound nothing (faces
// that vanish when moved in by r).

#include "collision/inset_hull.hpp"

#include <cmath>
#include <sstream>
#include <vector>

#include "collision/qhull_facets.hpp"

namespace hb {

ConvexHull insetHull(const ConvexHull& hull, double r) {
  const char* caller = "insetHull";
  if (!(std::isfinite(r) && r >= 0.0 && r < hull.innerRadius())) {
    std::ostringstream what;
    what << caller << ": convex radius " << r << " m is outside [0, " << hull.innerRadius()
         << ") m, the distance from the hull's centroid to its nearest face";
    throw HullError(what.str());
  }
  // The centroid is inside every moved plane by at least innerRadius - r > 0.
  const Eigen::Vector3d& c = hull.centroid();
  std::vector<Eigen::Vector3d> dual(hull.numFaces());
  for (int f = 0; f < hull.numFaces(); ++f) {
    const Eigen::Vector3d& n = hull.faceNormal(f);
    dual[f] = n / (hull.faceOffset(f) - r - n.dot(c));
  }
  const std::vector<PolytopeFace> facets = qhullFacets(dual, Eigen::Vector3d::Zero(), caller);

  // Each dual facet is a core vertex; each plane whose dual point is a vertex of the dual hull is
  // a core face, through the core vertices of the facets around it. The core's face structure
  // comes from the dual hull, so no second hull of the (twice as many) core vertices is needed.
  std::vector<Eigen::Vector3d> vertices;
  vertices.reserve(facets.size());
  std::vector<std::vector<int>> onPlane(hull.numFaces());
  for (const PolytopeFace& facet : facets) {
    // The facet's plane offset, averaged over its dual points (equal up to Qhull's merging).
    double offset = 0.0;
    for (const int i : facet.vertices) offset += facet.normal.dot(dual[i]);
    offset /= static_cast<double>(facet.vertices.size());
    // The origin (c's image) is inside the dual hull, so every facet's offset is positive.
    if (!(offset > 0.0)) {
      throw HullError(std::string(caller) + ": a facet of the dual hull passes by the centroid");
    }
    for (const int i : facet.vertices) onPlane[i].push_back(static_cast<int>(vertices.size()));
    vertices.push_back(c + facet.normal / offset);
  }
  std::vector<PolytopeFace> faces;
  for (int f = 0; f < hull.numFaces(); ++f) {
    if (onPlane[f].size() >= 3) faces.push_back({hull.faceNormal(f), std::move(onPlane[f])});
  }
  std::ostringstream tooThin;
  tooThin << caller << ": the core of a hull rounded by " << r << " m is too thin";
  const ConvexHull core = [&] {
    try {
      return ConvexHull::fromFaces(std::move(vertices), std::move(faces));
    } catch (const HullError& e) {
      throw HullError(tooThin.str() + ": " + e.what());
    }
  }();
  // The core holds the ball of radius innerRadius - r about the centroid; a core thinner than a
  // millionth of the hull's inner radius is a sheet whose faces have no reliable normals.
  if (!(core.innerRadius() > 1e-6 * hull.innerRadius())) {
    tooThin << " (inner radius " << core.innerRadius() << " m)";
    throw HullError(tooThin.str());
  }
  return core;
}

}  // namespace hb
