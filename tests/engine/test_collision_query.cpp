// Query lines with a translation: parsed or refused with a clear message, and answered with the
// cast's fields, against the exact answers for two spheres.

#include <gtest/gtest.h>

#include <string>

#include "engine/collision_query.hpp"

namespace hb {
namespace {

using nlohmann::json;

// Two spheres of 0.5 m, B 3 m along x from A: A touches B after 2 m along +x.
json spheres(const json& translation) {
  json problem = {{"a", {{"type", "sphere"}, {"radius", 0.5}}},
                  {"b", {{"type", "sphere"}, {"radius", 0.5}}},
                  {"pose_b", {{"p", {3.0, 0.0, 0.0}}}}};
  if (!translation.is_null()) problem["translation"] = translation;
  return problem;
}

std::string errorOf(const json& problem) {
  MeshHullCache meshes;
  try {
    parseQueryProblem(problem, meshes);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(CollisionQuery, TranslationIsReadAndBadOnesAreRefused) {
  MeshHullCache meshes;
  const QueryProblem p = parseQueryProblem(spheres({0.0, 0.0, 2.0}), meshes);
  ASSERT_TRUE(p.translation.has_value());
  EXPECT_EQ(*p.translation, Eigen::Vector3d(0.0, 0.0, 2.0));
  EXPECT_FALSE(parseQueryProblem(spheres(nullptr), meshes).translation.has_value());

  EXPECT_NE(errorOf(spheres({0.0, 0.0, 0.0})).find("expected a non-zero direction"),
            std::string::npos);
  json castOnly = spheres(nullptr);
  castOnly["cast_method"] = "gjk";
  EXPECT_NE(errorOf(castOnly).find("only with \"translation\""), std::string::npos);
  json cta = spheres({1.0, 0.0, 0.0});
  cta["cast_method"] = "cta";
  EXPECT_NE(errorOf(cta).find("works on polyhedra"), std::string::npos) << errorOf(cta);
  cta["cast_method"] = "lp";
  EXPECT_NE(errorOf(cta).find("expected \"gjk\""), std::string::npos) << errorOf(cta);
}

// Both methods on boxes: B's face 0.6 m ahead, turned about the motion; the same answer.
TEST(CollisionQuery, BothCastMethodsAnswerAlike) {
  CollisionQueries queries;
  json line = {{"a", {{"type", "box"}, {"half_extents", {0.1, 0.2, 0.3}}}},
               {"b", {{"type", "box"}, {"half_extents", {0.2, 0.2, 0.2}}}},
               {"pose_b", {{"p", {0.9, 0.05, 0.0}}, {"q", {0.9800666, 0.1986693, 0.0, 0.0}}}},
               {"translation", {1.0, 0.0, 0.0}}};
  const auto gjk = queries.answer(line);
  line["cast_method"] = "cta";
  const auto cta = queries.answer(line);
  EXPECT_NEAR(gjk["translation_distance"].get<double>(), 0.6, 1e-6) << gjk;
  EXPECT_NEAR(cta["translation_distance"].get<double>(), 0.6, 1e-9) << cta;
  EXPECT_EQ(cta["cast_status"], "hit");
  EXPECT_NEAR(cta["normal"][0].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR(cta["witness_b"][0].get<double>(), 0.7, 1e-9);
}

TEST(CollisionQuery, AnswersCarryTheCastAgainstExactSphereAnswers) {
  CollisionQueries queries;
  // Towards B, at any length of the direction: contact after 2 m, normal +x, at x = 2.5.
  const auto hit = queries.answer(spheres({4.0, 0.0, 0.0}));
  EXPECT_NEAR(hit["translation_distance"].get<double>(), 2.0, 1e-6);
  EXPECT_NEAR(hit["normal"][0].get<double>(), 1.0, 1e-6);
  EXPECT_NEAR(hit["witness_a"][0].get<double>(), 2.5, 1e-6);
  EXPECT_NEAR(hit["witness_b"][0].get<double>(), 2.5, 1e-6);
  EXPECT_EQ(hit["cast_status"], "hit");

  // Away from B: never touches; the plane has A's sweep on its positive side, B on the other
  // (the extreme points of the spheres along x are the nearest ones).
  const auto miss = queries.answer(spheres({-1.0, 0.0, 0.0}));
  EXPECT_TRUE(miss["translation_distance"].is_null());
  const auto& plane = miss["separating_plane"];
  const Eigen::Vector3d n(plane["normal"][0], plane["normal"][1], plane["normal"][2]);
  const double offset = plane["offset"];
  EXPECT_GT(n.dot(Eigen::Vector3d(0.5, 0.0, 0.0)), offset);  // A's nearest point
  EXPECT_LT(n.dot(Eigen::Vector3d(2.5, 0.0, 0.0)), offset);  // B's nearest point
  EXPECT_GE(n.dot(Eigen::Vector3d(-1.0, 0.0, 0.0)), 0.0);    // A moves further to its side

  // Already overlapping: no translation needed.
  json overlapping = spheres({0.0, 1.0, 0.0});
  overlapping["pose_b"] = {{"p", {0.8, 0.0, 0.0}}};
  EXPECT_EQ(queries.answer(overlapping)["translation_distance"].get<double>(), 0.0);

  // Without a translation the answer has no cast fields.
  EXPECT_FALSE(queries.answer(spheres(nullptr)).contains("translation_distance"));
}

}  // namespace
}  // namespace hb

namespace hb {
namespace {

json superquadricAt(double x) {
  return {{"a", {{"type", "superquadric"}, {"radii", {0.1, 0.1, 0.14}}, {"exponents", {1.5, 1.0}}}},
          {"b", {{"type", "ellipsoid"}, {"radii", {0.1, 0.1, 0.1}}}},
          {"pose_b", {{"p", {x, 0.0, 0.0}}}}};
}

// Smooth shapes in the query: the superquadric reaches 0.1 m (plus its 1e-4 m radius) along x,
// the ball 0.1 m, so at 0.25 m they are 0.0499 m apart and at 0.15 m 0.0501 m deep; GJK (auto)
// and RTR agree, and RTR ran for the depth.
TEST(CollisionQuery, SmoothShapesAnswerByGjkAndRtr) {
  CollisionQueries queries;
  for (const double x : {0.25, 0.15}) {
    json line = superquadricAt(x);
    const auto automatic = queries.answer(line);
    line["method"] = "rtr";
    const auto rtr = queries.answer(line);
    const double expected = x - 0.2001;
    EXPECT_NEAR(automatic["distance"].get<double>(), expected, 1e-7) << automatic;
    EXPECT_NEAR(rtr["distance"].get<double>(), expected, 1e-9) << rtr;
    EXPECT_EQ(rtr["rtr_status"], "converged");
    EXPECT_NEAR(rtr["normal"][0].get<double>(), 1.0, 1e-9);
    if (x < 0.2) {
      EXPECT_EQ(automatic["rtr_status"], "converged") << automatic;
    }
  }
  json epa = superquadricAt(0.15);
  epa["method"] = "epa";
  EXPECT_FALSE(queries.answer(epa).contains("rtr_status"));
}

TEST(CollisionQuery, SmoothShapesAndMethodsAreCheckedWhenRead) {
  json line = superquadricAt(0.3);
  line["method"] = "newton";
  EXPECT_NE(errorOf(line).find("method: expected \"auto\""), std::string::npos) << errorOf(line);
  line["method"] = "rtr";
  line["b"] = {{"type", "box"}, {"half_extents", {0.1, 0.1, 0.1}}};
  EXPECT_NE(errorOf(line).find("needs shapes with a twice differentiable support"),
            std::string::npos);
  line = superquadricAt(0.3);  // a boxy superquadric: its support is not twice differentiable
  line["method"] = "rtr";
  line["a"]["exponents"] = {0.5, 1.0};
  EXPECT_NE(errorOf(line).find("superquadric with both exponents at least 1"), std::string::npos)
      << errorOf(line);
  line = superquadricAt(0.3);
  line["a"]["exponents"] = {2.0, 1.0};
  EXPECT_NE(errorOf(line).find("a.exponents: superquadric alpha1 must be in (0, 2)"),
            std::string::npos)
      << errorOf(line);
  line["a"] = {{"type", "support_points"},
               {"points", {{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 2}}},
               {"beta", 10}};
  EXPECT_NE(errorOf(line).find("origin"), std::string::npos) << errorOf(line);
  line["a"] = {{"type", "support_points"}, {"profile", {{0.4, 0.5}, {0.4, -0.5}}}, {"beta", 10}};
  EXPECT_NE(errorOf(line).find("a.gamma"), std::string::npos) << errorOf(line);
  line["a"]["points"] = {{0.4, 0.5, 0.0}};
  EXPECT_NE(errorOf(line).find("either"), std::string::npos) << errorOf(line);
}

}  // namespace
}  // namespace hb
