#pragma once
// Collision problems written as JSON (one object per line in `heavyball query`): shapes, poses,
// GJK options. Errors are hb::JsonError whose message starts with the JSON path of the bad value,
// e.g. "a.half_extents: expected array of 3 numbers".

#include <nlohmann/json_fwd.hpp>

#include "collision/collide.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "collision/warm_start.hpp"
#include "engine/json_read.hpp"

namespace hb::cli {

/// One line of `heavyball query`.
struct QueryProblem {
  Shape a;
  Pose poseA;
  Shape b;
  Pose poseB;
  WarmStart warmStart = WarmStart::ObbCenters;
  CollisionOptions options;
};

/// Keys: a, b (required; boxes and meshes may add convex_radius); pose_a, pose_b, variant,
/// warm_start, tolerance, max_iterations, id (optional; id is not interpreted). Unknown keys are
/// errors.
QueryProblem parseQueryProblem(const nlohmann::json& value, MeshHullCache& meshes);

}  // namespace hb::cli
