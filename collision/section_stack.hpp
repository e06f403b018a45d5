#pragma once
// A convex polyhedron cut into drums: the planes normal to an axis through its vertices slice it
// into slabs, and inside a slab every planar section crosses the same hull edges in the same
// order. A section is then known in O(log n) (a binary search for the slab) and its vertices one
// by one on demand, each the point of one crossing edge at the section's height: what the
// collision-translation algorithm of Mirolo, Carpin and Pagello needs of its polyhedra.

#include <Eigen/Core>
#include <vector>

#include "collision/convex_hull.hpp"

namespace hb {

class SectionStack {
 public:
  /// Slices `hull` normal to the unit `axis` (hull frame). Heights closer than `mergeTolerance`
  /// (metres) count as one.
  SectionStack(const ConvexHull& hull, const Eigen::Vector3d& axis, double mergeTolerance);

  const Eigen::Vector3d& axis() const { return axis_; }
  /// Lowest and highest height (axis . v) of the hull's vertices.
  double minHeight() const { return heights_.front(); }
  double maxHeight() const { return heights_.back(); }
  int numSlabs() const { return static_cast<int>(heights_.size()) - 1; }
  /// The slab holding `height` (clamped into [minHeight, maxHeight]).
  int slabAt(double height) const;
  double slabBottom(int slab) const { return heights_[slab]; }
  double slabTop(int slab) const { return heights_[slab + 1]; }

  /// Number of hull edges crossing the slab: the vertex count of its sections.
  int numCrossings(int slab) const { return crossingStart_[slab + 1] - crossingStart_[slab]; }
  /// The k-th crossing edge of the slab (counter-clockwise about the axis), lower and upper
  /// vertex indices into the hull.
  int crossingLower(int slab, int k) const { return crossings_[crossingStart_[slab] + k].lower; }
  int crossingUpper(int slab, int k) const { return crossings_[crossingStart_[slab] + k].upper; }
  /// Hull face between crossing edges k and k + 1 (mod the count) of the slab.
  int sideFace(int slab, int k) const { return crossings_[crossingStart_[slab] + k].nextFace; }

  /// Point of crossing edge k of `slab` at `height` (hull frame).
  Eigen::Vector3d sectionVertex(int slab, int k, double height) const {
    const Crossing& c = crossings_[crossingStart_[slab] + k];
    const double t = (height - c.lowerHeight) * c.inverseRise;
    return c.lowerPoint + t * c.span;
  }
  /// Direction of crossing edge k of `slab`, scaled to rise by 1 along the axis.
  Eigen::Vector3d crossingSlope(int slab, int k) const {
    const Crossing& c = crossings_[crossingStart_[slab] + k];
    return c.span * c.inverseRise;
  }

  /// Total crossings stored (memory grows with it).
  std::size_t size() const { return crossings_.size(); }

 private:
  struct Crossing {
    int lower = 0, upper = 0;
    int nextFace = -1;
    double lowerHeight = 0.0, inverseRise = 0.0;
    Eigen::Vector3d lowerPoint, span;
  };
  Eigen::Vector3d axis_;
  std::vector<double> heights_;
  std::vector<int> crossingStart_;  // numSlabs + 1 offsets into crossings_
  std::vector<Crossing> crossings_;
};

/// The number of crossings a SectionStack along `axis` would store (its size()), counted without
/// building it: every edge once per slab it spans.
std::size_t countCrossings(const ConvexHull& hull, const Eigen::Vector3d& axis,
                           double mergeTolerance);

}  // namespace hb
