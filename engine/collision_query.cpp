#include "engine/collision_query.hpp"

#include <sstream>

#include "collision/defaults.hpp"
#include "collision/shape_cast.hpp"

namespace hb {

using namespace hb::json_read;
using nlohmann::ordered_json;

namespace {
/// Adding +0.0 turns -0.0 into 0.0, which reads better in the output.
ordered_json vectorJson(const Eigen::Vector3d& v) {
  return ordered_json::array({v.x() + 0.0, v.y() + 0.0, v.z() + 0.0});
}

/// The answer's first fields, whichever method found them.
ordered_json contactJson(bool collide, double distance, const Eigen::Vector3d& normal,
                         const Eigen::Vector3d& witnessA, const Eigen::Vector3d& witnessB) {
  ordered_json out;
  out["collide"] = collide;
  out["distance"] = distance;
  out["normal"] = vectorJson(normal);
  out["witness_a"] = vectorJson(witnessA);
  out["witness_b"] = vectorJson(witnessB);
  return out;
}
}  // namespace

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

namespace {

/// "method": how the depth of overlapping shapes a and b is found.
DepthMethod parseDepthMethod(const json& value, const Shape& a, const Shape& b) {
  const std::string method = stringValue(value, "method");
  if (method == "auto") return DepthMethod::Auto;
  if (method == "epa") return DepthMethod::Epa;
  if (method == "rtr") {
    if (!hasSmoothSupport(a) || !hasSmoothSupport(b)) {
      fail("method",
           "\"rtr\" needs shapes with a twice differentiable support (sphere, ellipsoid, "
           "superquadric with both exponents at least 1, support_points), not a " +
               std::string(toString(hasSmoothSupport(a) ? b.type() : a.type())));
    }
    return DepthMethod::Rtr;
  }
  fail("method",
       "expected \"auto\" (GJK, then RTR for the depth of smooth pairs and EPA "
       "otherwise), \"epa\" or \"rtr\" (the minimum translational distance by "
       "RTR alone), got \"" +
           method + "\"");
}

/// "cast_method": true for the collision-translation algorithm, which needs polyhedra.
bool parseCastByCta(const json& value, const Shape& a, const Shape& b) {
  const std::string method = stringValue(value, "cast_method");
  if (method != "gjk" && method != "cta") {
    fail("cast_method",
         "expected \"gjk\" (the GJK ray cast) or \"cta\" (the "
         "collision-translation algorithm), got \"" +
             method + "\"");
  }
  if (method == "gjk") return false;
  for (const Shape* s : {&a, &b}) {
    const bool polyhedron = s->type() == ShapeType::Box || s->type() == ShapeType::ConvexHull;
    if (!polyhedron || s->convexRadius() > 0.0) {
      fail("cast_method",
           "\"cta\" works on polyhedra (boxes and meshes without a "
           "convex_radius), not on a " +
               std::string(s->convexRadius() > 0.0 ? "rounded " : "") +
               std::string(toString(s->type())));
    }
  }
  return true;
}

}  // namespace

QueryProblem parseQueryProblem(const json& value, MeshHullCache& meshes) {
  if (!value.is_object()) throw JsonError("expected a JSON object");
  rejectUnknownKeys(
      value, "",
      {"id", "a", "pose_a", "b", "pose_b", "variant", "momentum_schedule", "warm_start",
       "tolerance", "max_iterations", "translation", "cast_method", "method"});
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
  if (const auto it = value.find("momentum_schedule"); it != value.end()) {
    problem.options.gjk.schedule = parseMomentumSchedule(*it, "momentum_schedule");
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
  if (const auto it = value.find("method"); it != value.end()) {
    problem.options.depthMethod = parseDepthMethod(*it, problem.a, problem.b);
  }
  if (const auto it = value.find("translation"); it != value.end()) {
    const Eigen::Vector3d t = finiteVector3(*it, "translation");
    if (unitVector(t).isZero()) fail("translation", "expected a non-zero direction, got [0, 0, 0]");
    problem.translation = t;
  }
  if (const auto it = value.find("cast_method"); it != value.end()) {
    if (!problem.translation) fail("cast_method", "only with \"translation\"");
    problem.castByCta = parseCastByCta(*it, problem.a, problem.b);
  }
  return problem;
}

Obb CollisionQueries::localBox(const Shape& shape) {
  // Fitting a hull's box is costly: once per hull.
  if (shape.type() != ShapeType::ConvexHull) return localObb(shape);
  const std::lock_guard lock(mutex_);
  auto it = boxes_.find(&shape.hull());
  if (it == boxes_.end()) {
    it = boxes_.emplace(&shape.hull(), localObb(shape)).first;
    holders_.push_back(shape.hullPtr());
  }
  return it->second;
}

Eigen::Vector3d CollisionQueries::initialGuess(const Shape& a, const Pose& poseA, const Shape& b,
                                               const Pose& poseB, WarmStart warmStart) {
  if (warmStart != WarmStart::ObbCenters) return Eigen::Vector3d::UnitX();
  return localBox(a).transformed(poseA).center - localBox(b).transformed(poseB).center;
}

std::shared_ptr<const CtaPolyhedron> CollisionQueries::polyhedron(const Shape& shape) {
  if (shape.type() != ShapeType::ConvexHull) return std::make_shared<const CtaPolyhedron>(shape);
  const std::lock_guard lock(mutex_);
  auto& slot = polyhedra_[shape.hullPtr().get()];
  if (!slot) {
    slot = std::make_shared<const CtaPolyhedron>(shape);
    holders_.push_back(shape.hullPtr());
  }
  return slot;
}

CollisionResult CollisionQueries::solve(const QueryProblem& p) {
  const Eigen::Vector3d x0 = initialGuess(p.a, p.poseA, p.b, p.poseB, p.warmStart);
  return collide(p.a, p.poseA, p.b, p.poseB, x0, p.options);
}

QueryProblem CollisionQueries::parse(const json& problem) {
  const std::lock_guard lock(mutex_);
  return parseQueryProblem(problem, meshes_);
}

ordered_json CollisionQueries::answer(const json& problem) {
  return answer(parse(problem));
}

ordered_json CollisionQueries::answer(const QueryProblem& p) {
  CollisionResult collision;
  ordered_json out;
  if (p.options.depthMethod == DepthMethod::Rtr) {
    // RTR alone, apart or overlapping: the minimum translational distance.
    const RtrResult r = minimumTranslationalDistance(p.a, p.poseA, p.b, p.poseB, p.options.rtr);
    collision.collide = r.distance <= 0.0;
    out = contactJson(collision.collide, r.distance, r.normal, r.witnessA, r.witnessB);
    out["rtr_iterations"] = r.iterations;
    out["rtr_status"] = std::string(toString(r.status));
  } else {
    collision = solve(p);
    out = toJson(collision);
  }
  if (!p.translation) return out;
  CastResult r;
  if (p.castByCta) {
    r = castCta(*polyhedron(p.a), p.poseA, *polyhedron(p.b), p.poseB, *p.translation);
  } else {
    CastOptions cast;
    cast.maxIterations = p.options.gjk.maxIterations;
    r = castShape(p.a, p.poseA, p.b, p.poseB, *p.translation, cast);
  }
  // Already colliding (by the distance query's tolerance): no translation needed.
  if (collision.collide || r.status == CastStatus::Overlapping) {
    out["translation_distance"] = 0.0;
  } else if (r.status == CastStatus::InvalidInput) {
    out["translation_distance"] = nullptr;  // never an answer: the status says why
  } else if (r.status == CastStatus::Miss) {
    out["translation_distance"] = nullptr;
    out["separating_plane"] = {{"normal", vectorJson(r.separatingPlane.normal)},
                               {"offset", r.separatingPlane.offset}};
  } else {
    out["translation_distance"] = r.distance;
    out["normal"] = vectorJson(r.normal);
    out["witness_a"] = vectorJson(r.witnessA);
    out["witness_b"] = vectorJson(r.witnessB);
  }
  out["cast_status"] = std::string(toString(r.status));
  out["cast_iterations"] = r.iterations;
  return out;
}

int CollisionQueries::meshCount() const {
  const std::lock_guard lock(mutex_);
  return meshes_.size();
}

ordered_json toJson(const CollisionResult& r) {
  ordered_json out = contactJson(r.collide, r.distance, r.normal, r.witnessA, r.witnessB);
  out["iterations"] = r.gjkIterations;
  out["epa_iterations"] = r.epaIterations;
  out["status"] = std::string(toString(r.gjkStatus));
  if (r.epaStatus) out["epa_status"] = std::string(toString(*r.epaStatus));
  if (r.rtrStatus) {
    out["rtr_iterations"] = r.rtrIterations;
    out["rtr_status"] = std::string(toString(*r.rtrStatus));
  }
  return out;
}

}  // namespace hb
