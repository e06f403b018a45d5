// Smooth bodies in the world: mass properties of superquadrics and prescribed support functions
// against closed forms (integrated over their tessellation), and superquadrics dropped onto the
// ground coming to rest at their own height (GJK apart, RTR for the depth of the contacts).

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>

#include "collision/collide.hpp"
#include "collision/support_points.hpp"
#include "dynamics/mass_properties.hpp"
#include "engine/run_summary.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

// Volume of a superquadric (Jaklic, Leonardis and Solina): 2 a b c e1 e2 B(e1/2 + 1, e1)
// B(e2/2, e2/2), e1 the z exponent, e2 the x-y one.
double superquadricVolume(const Vector3d& r, double e1, double e2) {
  const auto beta = [](double x, double y) {
    return std::exp(std::lgamma(x) + std::lgamma(y) - std::lgamma(x + y));
  };
  return 2.0 * r.x() * r.y() * r.z() * e1 * e2 * beta(e1 / 2 + 1, e1) * beta(e2 / 2, e2 / 2);
}

TEST(SmoothBodies, MassPropertiesMatchClosedForms) {
  const Vector3d r(0.1, 0.15, 0.2);
  const double density = 1000.0;
  // Exponents 1, 1: the ellipsoid (the 1e-4 m rounding adds about 0.2% of volume here).
  const MassProperties sq = hullMassProperties(Shape::superquadric(r, 1.0, 1.0).hull(), density);
  const MassProperties ellipsoid = ellipsoidMassProperties(r, density);
  EXPECT_NEAR(sq.mass / ellipsoid.mass, 1.0, 3e-3);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(sq.inertia(i, i) / ellipsoid.inertia(i, i), 1.0, 5e-3) << i;
  EXPECT_LT(sq.centerOfMass.norm(), 1e-6);
  for (const auto& [e1, e2] : {std::pair{1.5, 1.0}, {1.2, 1.8}, {0.5, 0.5}, {1.9, 1.9}}) {
    const MassProperties m = hullMassProperties(Shape::superquadric(r, e1, e2).hull(), density);
    EXPECT_NEAR(m.volume / superquadricVolume(r, e1, e2), 1.0, 5e-3) << e1 << " " << e2;
  }
  // A prescribed support function of a cube's corners: between the cube and its scaled copy.
  std::vector<Vector3d> corners;
  for (int k = 0; k < 8; ++k)
    corners.emplace_back(k & 1 ? 0.1 : -0.1, k & 2 ? 0.1 : -0.1, k & 4 ? 0.1 : -0.1);
  const Shape rounded = Shape::supportPoints(std::make_shared<const SupportPoints>(corners, 50.0));
  const double volume = hullMassProperties(rounded.hull(), density).volume;
  EXPECT_GT(volume, 0.008 * 0.97);
  EXPECT_LT(volume, 0.008 * std::pow(4.0, 3.0 / 50.0));
}

TEST(SmoothBodies, SuperquadricsComeToRestOnTheGround) {
  SceneDescription scene;
  scene.name = "smooth";
  StaticDescription ground;
  ground.kind = StaticDescription::Kind::Ground;
  scene.statics.push_back(ground);
  // Upright: they rest on their lowest point, c plus the 1e-4 m rounding above the ground.
  for (const auto& [x, e1, e2] : {std::tuple{0.0, 1.0, 1.0}, {0.5, 1.5, 1.2}, {1.0, 0.6, 0.6}}) {
    BodyDescription b;
    b.shape.shape = Shape::superquadric({0.1, 0.08, 0.06}, e1, e2);
    b.pose.p = {x, 0.0, 0.3};
    b.density = 500.0;
    scene.bodies.push_back(b);
  }
  World world(scene);
  const RunSummary summary = runSteps(world, 360);
  EXPECT_FALSE(summary.nonFinite);
  for (int i = 1; i <= 3; ++i) {
    const RigidBody& body = world.rigidBodies()[i];
    EXPECT_NEAR(body.position.z(), 0.0601, 1e-3) << i;
    EXPECT_LT(body.linearVelocity.norm(), 1e-2) << i;
  }
}

// The shipped smooth funnel: its spawner drops the Table I shapes (no YCB asset), which fall
// into the funnel with RTR resolving their depths, none escaping and none sinking deep.
TEST(SmoothBodies, TheSmoothFunnelDropsItsShapes) {
  SceneDescription scene =
      loadScene(std::filesystem::path(HB_SOURCE_DIR) / "assets/scenes/funnel-smooth.json");
  ASSERT_TRUE(scene.spawner.has_value());
  EXPECT_EQ(scene.spawner->shapes.size(), 8u);
  EXPECT_TRUE(scene.spawner->assets.empty());
  scene.spawner->count = 30;
  scene.spawner->interval = 0.05;
  World world(scene);
  const RunSummary summary = runSteps(world, 480);
  EXPECT_FALSE(summary.blewUp());
  EXPECT_GT(summary.rtrCalls, 0);
  EXPECT_LT(summary.maxPenetration, 0.03);
  int smooth = 0;
  for (const Proxy& p : world.proxies()) smooth += p.shape.isSmooth();
  EXPECT_EQ(smooth, 30);
}

}  // namespace
}  // namespace hb
