#pragma once
// Convex hull of a point cloud (built with Qhull): vertices, polygonal faces (coplanar triangles
// merged), the vertex adjacency along hull edges, and support queries with a vertex hint.

#include <Eigen/Core>
#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace hb {

/// Thrown when a point set has no proper 3-D hull (too few points, duplicates only, collinear,
/// coplanar, non-finite coordinates). The message says which.
class HullError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class ConvexHull {
 public:
  /// Builds the hull of `points` (metres, any frame; the hull keeps that frame).
  /// Throws HullError on degenerate input.
  static ConvexHull build(std::span<const Eigen::Vector3d> points);

  const std::vector<Eigen::Vector3d>& vertices() const { return vertices_; }
  int numVertices() const { return static_cast<int>(vertices_.size()); }
  int numFaces() const { return static_cast<int>(faceNormals_.size()); }

  /// Vertex indices of face f, counter-clockwise seen from outside (right-hand rule gives the
  /// outward normal).
  std::span<const int> face(int f) const {
    return {faceVertices_.data() + faceStart_[f], faceVertices_.data() + faceStart_[f + 1]};
  }
  /// Outward unit normal of face f and its plane offset: n . x = offset on the face.
  const Eigen::Vector3d& faceNormal(int f) const { return faceNormals_[f]; }
  double faceOffset(int f) const { return faceOffsets_[f]; }

  /// Vertices joined to v by a hull edge.
  std::span<const int> neighbours(int v) const {
    return {adjacency_.data() + adjacencyStart_[v], adjacency_.data() + adjacencyStart_[v + 1]};
  }

  /// Index of a vertex maximising dir . v. Scans below defaults::kHullScanThreshold vertices,
  /// hill-climbs from `hint` above it (a negative hint: no hint, the climb starts from the best
  /// of 26 precomputed extreme vertices); `hint` is updated to the answer.
  int supportVertex(const Eigen::Vector3d& dir, int& hint) const;
  /// The two strategies, exposed for tests and benchmarks.
  int supportVertexScan(const Eigen::Vector3d& dir) const;
  int supportVertexClimb(const Eigen::Vector3d& dir, int hint) const;

  /// Index of the face whose outward normal is most aligned with dir.
  int mostAlignedFace(const Eigen::Vector3d& dir) const;

  /// Mean of the vertices (a point strictly inside the hull).
  const Eigen::Vector3d& interiorPoint() const { return interiorPoint_; }

 private:
  std::vector<Eigen::Vector3d> vertices_;
  std::vector<int> faceStart_;  // numFaces + 1 offsets into faceVertices_
  std::vector<int> faceVertices_;
  std::vector<Eigen::Vector3d> faceNormals_;
  std::vector<double> faceOffsets_;
  std::vector<int> adjacencyStart_;  // numVertices + 1 offsets into adjacency_
  std::vector<int> adjacency_;
  Eigen::Vector3d interiorPoint_ = Eigen::Vector3d::Zero();
  std::array<int, 26> startVertices_{};
};

}  // namespace hb
