#include "apps/heavyball/problem_json.hpp"
#include "collision/defaults.hpp"

#include <nlohmann/json.hpp>

#include <sstream>

namespace hb::cli {

using namespace hb::json_read;

namespace {

/// A shape as parseShape reads it, rounded by its optional "convex_radius" (metres; boxes and
/// meshes only, within the shape's largest radius).
Shape parseQueryShape(const json& value, const std::string& where, MeshHullCache& meshes) {
  const auto radius = value.is_object() ? value.find("convex_radius") : value.end();
  if (radius == value.end()) return parseShape(value, where, meshes);
  json plain = value;
  plain.erase("convex_radius");
  const Shape shape = parseShape(plain, where, meshes);
  const std::string key = child(where, "convex_radius");
  const double r = nonNegativeNumber(*radius, key);
  if (shape.type() != ShapeType::Box && shape.type() != ShapeType::ConvexHull) {
    fail(key, "only box and mesh shapes take a convex radius, not a " +
                  std::string(toString(shape.type())));
  }
  if (!(r <= shape.maxConvexRadius())) {
    std::ostringstream what;
    what << "expected at most " << shape.maxConvexRadius()
         << " m for this shape (the largest rounding it takes), got " << r;
    fail(key, what.str());
  }
  return shape.withConvexRadius(r);
}

}  // namespace

QueryProblem parseQueryProblem(const json& value, MeshHullCache& meshes) {
  if (!value.is_object()) throw JsonError("expected a JSON object");
  rejectUnknownKeys(
      value, "",
      {"id", "a", "pose_a", "b", "pose_b", "variant", "warm_start", "tolerance", "max_iterations"});
  QueryProblem problem;
  problem.a = parseQueryShape(required(value, "", "a"), "a", meshes);
  problem.b = parseQueryShape(required(value, "", "b"), "b", meshes);
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
    if (problem.options.gjk.tolerance > defaults::kMaxGjkTolerance) {
      fail("tolerance",
           "expected at most 1e-4 m^2 (a collision threshold of 1 cm), got " + it->dump());
    }
  }
  if (const auto it = value.find("max_iterations"); it != value.end()) {
    problem.options.gjk.maxIterations =
        static_cast<int>(integer(*it, "max_iterations", 1, 1'000'000));
  }
  return problem;
}

}  // namespace hb::cli
