#include "apps/heavyball/problem_json.hpp"

#include <nlohmann/json.hpp>

namespace hb::cli {

using namespace hb::json_read;

QueryProblem parseQueryProblem(const json& value, MeshHullCache& meshes) {
  if (!value.is_object()) throw JsonError("expected a JSON object");
  rejectUnknownKeys(
      value, "",
      {"id", "a", "pose_a", "b", "pose_b", "variant", "warm_start", "tolerance", "max_iterations"});
  QueryProblem problem;
  problem.a = parseShape(required(value, "", "a"), "a", meshes);
  problem.b = parseShape(required(value, "", "b"), "b", meshes);
  if (const auto it = value.find("pose_a"); it != value.end()) {
    problem.poseA = parsePose(*it, "pose_a");
  }
  if (const auto it = value.find("pose_b"); it != value.end()) {
    problem.poseB = parsePose(*it, "pose_b");
  }
  if (const auto it = value.find("variant"); it != value.end()) {
    problem.options.gjk.variant = parseGjkVariant(*it, "variant");
  }
  if (const auto it = value.find("warm_start"); it != value.end()) {
    problem.warmStart = parseWarmStart(*it, "warm_start");
  }
  if (const auto it = value.find("tolerance"); it != value.end()) {
    problem.options.gjk.tolerance = positiveNumber(*it, "tolerance");
  }
  if (const auto it = value.find("max_iterations"); it != value.end()) {
    problem.options.gjk.maxIterations =
        static_cast<int>(integer(*it, "max_iterations", 1, 1'000'000));
  }
  return problem;
}

}  // namespace hb::cli
