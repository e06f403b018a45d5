#include "apps/bench/common/bench_shapes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <utility>

#include "collision/convex_hull.hpp"
#include "engine/obj_mesh.hpp"

namespace hb::bench {

namespace {

double farthestVertex(const std::vector<Eigen::Vector3d>& vertices) {
  double r = 0.0;
  for (const Eigen::Vector3d& v : vertices) r = std::max(r, v.norm());
  return r;
}

BenchShape recentredHull(std::string name, const std::vector<Eigen::Vector3d>& meshVertices) {
  const ConvexHull raw = ConvexHull::build(meshVertices);
  const Eigen::Vector3d centre = fitObb(raw).center;
  std::vector<Eigen::Vector3d> moved = raw.vertices();
  for (Eigen::Vector3d& v : moved) v -= centre;
  // The hull of the moved hull vertices is the moved hull; rebuilding keeps faces and adjacency
  // consistent with the new coordinates.
  auto hull = std::make_shared<const ConvexHull>(ConvexHull::build(moved));
  BenchShape s;
  s.name = std::move(name);
  s.numVertices = hull->numVertices();
  s.boundingRadius = farthestVertex(hull->vertices());
  s.shape = Shape::convexHull(std::move(hull));
  s.localObb = localObb(s.shape);
  return s;
}

}  // namespace

std::vector<BenchShape> loadYcbHulls(const std::filesystem::path& meshDir,
                                     std::span<const std::string> names) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(meshDir)) {
    throw std::runtime_error(meshDir.string() + ": not a directory");
  }
  // The object's name is the folder right below meshDir (e.g. 003_cracker_box).
  std::vector<std::pair<std::string, fs::path>> found;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(meshDir)) {
    if (e.is_regular_file() && e.path().filename() == "textured.obj") {
      found.emplace_back(fs::relative(e.path(), meshDir).begin()->string(), e.path());
    }
  }
  if (found.empty()) {
    throw std::runtime_error(meshDir.string() + ": no */textured.obj mesh below this folder");
  }
  std::sort(found.begin(), found.end());

  std::vector<std::pair<std::string, fs::path>> chosen;
  for (const std::string& name : names) {
    for (const auto& c : chosen) {
      if (c.first == name) throw std::invalid_argument("--meshes lists '" + name + "' twice");
    }
    const auto it =
        std::find_if(found.begin(), found.end(), [&](const auto& f) { return f.first == name; });
    if (it == found.end()) {
      std::string known;
      for (const auto& f : found) known += (known.empty() ? "" : ", ") + f.first;
      throw std::invalid_argument("no mesh '" + name + "' in " + meshDir.string() +
                                  " (known: " + known + ")");
    }
    chosen.push_back(*it);
  }
  if (names.empty()) chosen = std::move(found);

  std::vector<BenchShape> shapes;
  shapes.reserve(chosen.size());
  for (const auto& [name, file] : chosen) {
    const ObjMesh mesh = loadObjMesh(file);
    try {
      shapes.push_back(recentredHull(name, mesh.vertices));
    } catch (const HullError& e) {
      throw std::runtime_error(file.string() + ": " + e.what());
    }
  }
  return shapes;
}

std::vector<BenchShape> makeEllipsoids(int count, double minRadius, double maxRadius,
                                       std::mt19937_64& rng) {
  std::uniform_real_distribution<double> radius(minRadius, maxRadius);
  std::vector<BenchShape> shapes;
  shapes.reserve(count);
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector3d radii(radius(rng), radius(rng), radius(rng));
    BenchShape s;
    char name[32];
    std::snprintf(name, sizeof name, "ellipsoid%04d", i);
    s.name = name;
    s.shape = Shape::ellipsoid(radii);
    s.localObb = localObb(s.shape);
    s.boundingRadius = radii.maxCoeff();
    shapes.push_back(std::move(s));
  }
  return shapes;
}

std::vector<BenchShape> makeCubes(int count, double minHalfEdge, double maxHalfEdge,
                                  std::mt19937_64& rng) {
  std::uniform_real_distribution<double> halfEdge(minHalfEdge, maxHalfEdge);
  std::vector<BenchShape> shapes;
  shapes.reserve(count);
  for (int i = 0; i < count; ++i) {
    const double h = halfEdge(rng);
    BenchShape s;
    char name[32];
    std::snprintf(name, sizeof name, "cube%04d", i);
    s.name = name;
    s.shape = Shape::box(Eigen::Vector3d::Constant(h));
    s.localObb = localObb(s.shape);
    s.boundingRadius = std::sqrt(3.0) * h;
    shapes.push_back(std::move(s));
  }
  return shapes;
}

}  // namespace hb::bench
