#pragma once
// Support functions: the point of a shape furthest along a direction, in the shape's local frame.
// "Core" supports ignore the convex radius (sphere -> its centre, capsule -> its segment, a
// rounded box or hull -> its shrunk core); full supports add radius * dir / |dir|.

#include <Eigen/Core>

#include "collision/shape.hpp"

namespace hb {

/// A support function of one shape type: argmax over the core of dir . x. `hint` carries a hull
/// vertex index of the core hull across calls (ignored by primitives). `dir` need not be
/// normalised, may be zero.
using SupportFunction = Eigen::Vector3d (*)(const Shape& shape, const Eigen::Vector3d& dir,
                                            int& hint);

/// The core support function for a shape type, chosen once per pair rather than per call.
SupportFunction coreSupportFunction(ShapeType type);

/// Core support, dispatched on the shape's type.
Eigen::Vector3d supportCore(const Shape& shape, const Eigen::Vector3d& dir, int& hint);
/// Support of the full (inflated) shape.
Eigen::Vector3d support(const Shape& shape, const Eigen::Vector3d& dir, int& hint);

}  // namespace hb
