#pragma once
// Contact reduction for compound bodies: two bodies touching through several pieces (a bowl's
// 80 convex parts on the ground, a mug's parts inside a bowl's) get one manifold per piece pair,
// up to four points each. Those of one body pair whose normals agree are one contact region, and
// four points on its outline span it as well as forty: the point furthest from the region's
// centre, the one furthest from it, the one enclosing the largest triangle with those, and the
// one furthest outside that triangle. Points kept last step are preferred among near ties, so
// that the choice and its warm starts hold at rest; a point clearly deeper than all four
// replaces the nearest. Regions of other normals (a ball between two of a bowl's pieces), and
// the speculative points of pieces still apart, keep their own points. Jolt reduces its compounds'
// manifolds the same way.

#include <cstdint>
#include <span>
#include <vector>

#include "dynamics/contact_constraint.hpp"

namespace hb {

struct ContactReductionOptions {
  /// Contacts whose normals are within this angle of a region's first normal join it (cosine).
  double normalCosine = 0.9962;  // 5 degrees
  /// Most points a region keeps.
  int maxPoints = 4;
  /// m: a point deeper than every outline point by more than this is kept in place of one.
  double depthMargin = 5e-4;
  /// m: points closer than this (or overlapping) touch; the others (speculative contacts of
  /// pieces still apart) form regions of their own, so that a bowl standing on its foot keeps
  /// the foot's outline, not the outline of its wall's pieces hovering over the ground.
  double touchingGap = 1e-3;
};

/// keep[i] = 1 for the contacts to keep, 0 for those a region of the same body pair spans
/// without. Contacts of one body pair need not be adjacent. Deterministic: depends only on the
/// contacts' order and values.
void reduceContactRegions(std::span<const ContactConstraint> contacts,
                          std::vector<std::uint8_t>& keep,
                          const ContactReductionOptions& options = {});

}  // namespace hb
