#pragma once
// Collision problems written as JSON (one object per line in `heavyball query`): shapes, poses,
// GJK options. Errors are ProblemError whose message starts with the JSON path of the bad value,
// e.g. "a.half_extents: expected array of 3 numbers".

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <variant>

#include "collision/collide.hpp"
#include "collision/convex_hull.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "collision/warm_start.hpp"

namespace hb::cli {

class ProblemError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Convex hulls of OBJ meshes, built once per file (a problem file names the same few meshes on
/// many lines). Failures are remembered too, so a bad file is read once.
class MeshHullCache {
 public:
  /// Hull of the OBJ's vertices in the file's own frame. Relative paths resolve against the
  /// current directory. Throws hb::MeshLoadError or hb::HullError (message starts with the file).
  std::shared_ptr<const ConvexHull> hull(const std::filesystem::path& file);
  int size() const { return static_cast<int>(entries_.size()); }

 private:
  std::unordered_map<std::string, std::variant<std::shared_ptr<const ConvexHull>, std::string>>
      entries_;
};

/// A shape object: {"type": "sphere", "radius": r}, box "half_extents" [x,y,z], capsule /
/// cylinder / cone "radius" and "half_length", ellipsoid "radii" [a,b,c], mesh "path".
/// `where` is the JSON path of `value`, used in error messages.
Shape parseShape(const nlohmann::json& value, const std::string& where, MeshHullCache& meshes);

/// {"p": [x,y,z], "q": [w,x,y,z]}; both optional (zero, identity). q must be finite and of unit
/// norm within 1e-6; it is then normalised exactly.
Pose parsePose(const nlohmann::json& value, const std::string& where);

/// "gjk" or "vanilla", "polyak", "nesterov", "auto".
GjkVariant parseGjkVariant(const nlohmann::json& value, const std::string& where);

/// "none" or "obb".
WarmStart parseWarmStart(const nlohmann::json& value, const std::string& where);

/// One line of `heavyball query`.
struct QueryProblem {
  Shape a;
  Pose poseA;
  Shape b;
  Pose poseB;
  WarmStart warmStart = WarmStart::ObbCenters;
  CollisionOptions options;
};

/// Keys: a, b (required); pose_a, pose_b, variant, warm_start, tolerance, max_iterations, id
/// (optional; id is not interpreted). Unknown keys are errors.
QueryProblem parseQueryProblem(const nlohmann::json& value, MeshHullCache& meshes);

}  // namespace hb::cli
