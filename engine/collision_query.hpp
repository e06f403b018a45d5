#pragma once
// Collision problems written as JSON, as `heavyball query` reads them one per line and the Python
// module takes them as dicts (docs/query.md): shapes, poses, GJK options; and their answers.
// Errors are hb::JsonError whose message starts with the JSON path of the bad value, e.g.
// "a.half_extents: expected array of 3 numbers", or hb::MeshLoadError naming the file.

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "collision/collide.hpp"
#include "collision/cta.hpp"
#include "collision/obb.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "collision/warm_start.hpp"
#include "engine/json_read.hpp"

namespace hb {

/// One problem.
struct QueryProblem {
  Shape a;
  Pose poseA;
  Shape b;
  Pose poseB;
  WarmStart warmStart = WarmStart::ObbCenters;
  CollisionOptions options;
  /// "translation": cast A along this direction (world, non-zero) against B as well.
  std::optional<Eigen::Vector3d> translation;
  /// "cast_method": "cta" answers the translation with the collision-translation algorithm
  /// (polyhedra only) instead of the GJK ray cast.
  bool castByCta = false;
};

/// Keys: a, b (required; boxes and meshes may add convex_radius); pose_a, pose_b, variant,
/// warm_start, tolerance, max_iterations, method ("auto", "epa" or "rtr"), translation,
/// cast_method ("gjk" or "cta"; "cta" for
/// boxes and meshes without a convex radius), id (optional; id is not interpreted). Unknown keys
/// are errors.
QueryProblem parseQueryProblem(const nlohmann::json& value, MeshHullCache& meshes);

/// A shape as parseShape reads it, rounded by its optional "convex_radius" (metres; boxes and
/// meshes only, within the shape's largest radius). `where` names it in errors.
Shape parseQueryShape(const nlohmann::json& value, const std::string& where, MeshHullCache& meshes);

/// Answers problems, keeping the meshes it loaded and the boxes it fitted for the next ones
/// (loading a scan and fitting its box cost far more than a query). Safe to share between
/// threads.
class CollisionQueries {
 public:
  /// The answer object: collide, distance, normal, witness_a, witness_b, iterations,
  /// epa_iterations, status (and epa_status when EPA ran). Throws as parseQueryProblem.
  nlohmann::ordered_json answer(const nlohmann::json& problem);
  /// The same for a parsed problem; with a translation, the cast's fields too (docs/query.md).
  nlohmann::ordered_json answer(const QueryProblem& problem);
  /// parseQueryProblem with this object's meshes.
  QueryProblem parse(const nlohmann::json& problem);
  /// The problem solved, from the warm start it names.
  CollisionResult solve(const QueryProblem& problem);
  /// GJK's first direction for a pair: the difference of their OBB centres (fitted once per
  /// hull), or the x axis for WarmStart::None.
  Eigen::Vector3d initialGuess(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                               WarmStart warmStart);
  int meshCount() const;

 private:
  Obb localBox(const Shape& shape);
  /// A box's or hull's section stacks, built once per hull.
  std::shared_ptr<const CtaPolyhedron> polyhedron(const Shape& shape);
  mutable std::mutex mutex_;  // guards meshes_, boxes_ and polyhedra_
  MeshHullCache meshes_;
  std::map<const ConvexHull*, Obb> boxes_;
  std::map<const ConvexHull*, std::shared_ptr<const CtaPolyhedron>> polyhedra_;
  std::vector<std::shared_ptr<const ConvexHull>> holders_;  // keep boxes_'s keys alive
};

/// A result as the answer object of CollisionQueries::answer.
nlohmann::ordered_json toJson(const CollisionResult& r);

}  // namespace hb
