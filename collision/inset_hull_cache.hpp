#pragma once
// Cores of rounded hulls shared across the process: a core is computed once per (hull, convex
// radius), so the hundred bodies of one asset, and every world of a batch, share it.

#include <memory>

#include "collision/convex_hull.hpp"

namespace hb {

/// insetHull(*hull, r), computed on the first request for this hull object and this r, then
/// shared for as long as the hull lives. Thread-safe. Throws HullError as insetHull does.
std::shared_ptr<const ConvexHull> sharedInsetHull(const std::shared_ptr<const ConvexHull>& hull,
                                                  double r);

}  // namespace hb
