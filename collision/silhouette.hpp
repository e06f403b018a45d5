#pragma once
// The silhouette of a convex hull seen along a direction n: the loop of hull edges between the
// faces that face n (n . normal > 0) and those that do not. Its vertices are the only ones that
// can be corners of the hull's shadow on the plane normal to n, so the OBB fit projects them
// instead of every vertex.

#include <Eigen/Core>
#include <vector>

#include "collision/convex_hull.hpp"

namespace hb {

/// Walks a hull's silhouette. The faces are stored as half-edges, each running from a corner of
/// its face to the next corner counter-clockwise; a half-edge keeps the normal of the face on its
/// other side, so the walk reads one record per step. Keeps a reference to the hull, which must
/// outlive the tracer.
class SilhouetteTracer {
 public:
  /// Builds the half-edges once per hull. When the faces do not form a closed surface (every
  /// edge shared by two faces, once in each direction) the tracer is unusable and trace() fails.
  explicit SilhouetteTracer(const ConvexHull& hull);

  /// Puts the vertices along the silhouette seen along n (unit) in `loop`, in order: each step
  /// follows a hull edge with a face facing n on its left (seen from outside), so the loop runs
  /// counter-clockwise seen from the side n points to. Starts at vertex `near` when it is on the
  /// silhouette. False (and `loop` unusable) when no silhouette is found: the faces do not form
  /// a closed surface, none faces n (a zero or NaN n), `near` is not a vertex index, or the walk
  /// does not close within one pass over the half-edges (its cap).
  bool trace(const Eigen::Vector3d& n, int near, std::vector<int>& loop) const;

 private:
  struct HalfEdge {
    Eigen::Vector3d twinNormal = Eigen::Vector3d::Zero();  // normal of the face on the other side
    int origin = -1;                                       // the vertex it leaves
    int next = -1;                                         // the next half-edge of its face
    int around = -1;  // the next half-edge leaving the same vertex (its twin's next)
    int face = -1;
  };

  /// True when half-edge h's face faces n and the face on its other side does not.
  bool onBoundary(const Eigen::Vector3d& n, int h) const;

  const ConvexHull& hull_;
  std::vector<HalfEdge> halfEdges_;
  std::vector<int> outgoing_;  // one half-edge leaving each vertex
  bool usable_ = false;
};

}  // namespace hb
