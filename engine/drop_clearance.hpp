#pragma once
// Placing a body about to be dropped into a world clear of the bodies already there: a drop that
// starts inside another body is pushed out of it violently by the contact solver.

#include "collision/obb.hpp"
#include "collision/shape.hpp"
#include "engine/scene.hpp"

namespace hb {

class World;

/// What counts as in the way of a drop.
enum class DropClearance {
  Boxes,   ///< any dynamic body's piece whose bounding box overlaps the drop's (conservative)
  Shapes,  ///< only pieces whose shapes overlap the drop's (or touch it)
};

/// Raises `body` (its description's pose places `shape` and `localBox`, both in the shape's own
/// frame) above the bounding box of every dynamic body's piece in its way, until none is. Static
/// pieces never count: a drop is made above them. Returns how far it was raised, in metres.
double liftClearOfBodies(const World& world, BodyDescription& body, const Shape& shape,
                         const Obb& localBox, DropClearance clearance);

}  // namespace hb
