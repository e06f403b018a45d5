#pragma once
// Convex hull of a point cloud (built with Qhull), or of a polytope given by its faces:
// vertices, polygonal faces (coplanar triangles merged), the vertex adjacency along hull edges,
// and support queries with a vertex hint.

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

/// A face of a convex polytope: its outward unit normal and the indices of its vertices.
struct PolytopeFace {
  Eigen::Vector3d normal;
  std::vector<int> vertices;
};

class ConvexHull {
 public:
  /// Builds the hull of `points` (metres, any frame; the hull keeps that frame). With
  /// `tolerance` > 0 (metres) the hull is that of a subset of the points, every point at most
  /// about `tolerance` outside it: a scanned mesh's thousands of hull vertices, most of them
  /// within a fraction of a millimetre of their neighbours' faces, become a few hundred.
  /// Throws HullError on degenerate input or a negative or non-finite tolerance.
  static ConvexHull build(std::span<const Eigen::Vector3d> points, double tolerance = 0.0);
  /// The hull of a convex polytope known by its vertices (all kept, in this order) and faces
  /// (vertex indices in any order; each face is ordered counter-clockwise about its normal),
  /// without running Qhull: for polytopes whose faces are known already (a rounded hull's core,
  /// a recording's). Convexity is the caller's promise. Throws HullError for fewer than 4
  /// vertices or faces, a face with fewer than 3 vertices, an index out of range, a vertex on no
  /// face or a non-finite coordinate or normal.
  static ConvexHull fromFaces(std::vector<Eigen::Vector3d> vertices,
                              std::vector<PolytopeFace> faces);

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

  /// Index of a vertex maximising dir . v. Scans below defaults::kHullScanThreshold vertices;
  /// above it looks dir up in the direction table and hill-climbs from the table's vertex unless
  /// that vertex is the support of dir's whole cell. `hint` (negative: none) is returned when it
  /// ties with the answer, and a zero or NaN dir climbs from it; `hint` is updated to the answer.
  int supportVertex(const Eigen::Vector3d& dir, int& hint) const;
  /// The two strategies, exposed for tests and benchmarks.
  int supportVertexScan(const Eigen::Vector3d& dir) const;
  int supportVertexClimb(const Eigen::Vector3d& dir, int hint) const;
  /// Steepest ascent over the hull's edges from vertex `start` (in range): a vertex maximising
  /// dir . v, cheap when start is near it (e.g. the answer for a nearby direction).
  int supportVertexFrom(const Eigen::Vector3d& dir, int start) const {
    return climbFrom(dir, start, dir.dot(vertices_[start]));
  }
  /// The direction table's vertex for dir: the support of the centre of dir's cell on the cube
  /// of directions; -1 for a zero or NaN dir.
  int tableVertex(const Eigen::Vector3d& dir) const;
  /// Cells per edge of each face of the direction table's cube (grows with the vertex count).
  int directionCells() const { return directionCells_; }

  /// Index of the face whose outward normal is most aligned with dir.
  int mostAlignedFace(const Eigen::Vector3d& dir) const;

  /// Mean of the vertices (a point strictly inside the hull).
  const Eigen::Vector3d& interiorPoint() const { return interiorPoint_; }
  /// Centroid of the hull's volume.
  const Eigen::Vector3d& centroid() const { return centroid_; }
  /// Radius of the largest ball centred at the centroid inside the hull: its distance to the
  /// nearest face plane. At least a quarter of the hull's smallest width (the centroid is at
  /// least width / 4 from either supporting plane of every direction, Minkowski-Radon), so at
  /// least half the radius of the largest ball inside the hull.
  double innerRadius() const { return innerRadius_; }

 private:
  std::vector<Eigen::Vector3d> vertices_;
  std::vector<int> faceStart_;  // numFaces + 1 offsets into faceVertices_
  std::vector<int> faceVertices_;
  std::vector<Eigen::Vector3d> faceNormals_;
  std::vector<double> faceOffsets_;
  std::vector<int> adjacencyStart_;  // numVertices + 1 offsets into adjacency_
  std::vector<int> adjacency_;
  /// Steepest ascent over the hull's edges from vertex `start` (startDot = dir . its position).
  int climbFrom(const Eigen::Vector3d& dir, int start, double startDot) const;
  void buildDirectionTable();
  /// Sets centroid_ and innerRadius_ from the faces.
  void measureInnerBall();
  /// Index of dir's cell in directionTable_, -1 for a zero or NaN dir.
  int directionCell(const Eigen::Vector3d& dir) const;

  Eigen::Vector3d interiorPoint_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d centroid_ = Eigen::Vector3d::Zero();
  double innerRadius_ = 0.0;
  // Start vertices of the climb: the support of each cell centre of the cube of directions,
  // 6 faces (+x, -x, +y, -y, +z, -z) of directionCells_ x directionCells_ cells, stored as
  // 2 * vertex + 1 when the vertex is the support of the whole cell (no climb needed), else
  // 2 * vertex.
  std::vector<int> directionTable_;
  int directionCells_ = 0;
};

}  // namespace hb
