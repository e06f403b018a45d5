#pragma once
// The funnel static as convex pieces: one slanted box per wall panel.

#include <utility>
#include <vector>

#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "engine/scene.hpp"

namespace hb {

/// The funnel's wall panels as boxes with the world pose of their centres. Panel i faces the
/// axis at azimuth 2*pi*i/panels; its inner face is the plane tangent to the truncated cone along
/// that azimuth's generator, so at every height the inner surface is the regular polygon
/// circumscribing the cone's circle. Each box is wide enough to reach past the corners it shares
/// with its neighbours (inner and outer faces), so the wall has no gaps; the box spans the slant
/// height exactly, from z = bottomZ to bottomZ + height along its inner face. Box axes: x along
/// the rim (tangential), y up the slant, z the outward wall normal. Expects a valid description
/// (as checked by the scene reader): 0 < bottomRadius < topRadius, height, thickness > 0, panels
/// >= 3.
std::vector<std::pair<Shape, Pose>> funnelPanels(const FunnelDescription& funnel);

}  // namespace hb
