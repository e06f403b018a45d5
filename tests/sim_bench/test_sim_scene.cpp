// The bench's scene against heavyball's World: the same bodies, entering at the same steps with
// the same states as the World's own spawner makes them.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apps/bench/sim/penetration_meter.hpp"
#include "apps/bench/sim/sim_scene.hpp"
#include "engine/world.hpp"

namespace {

using hb::sim::buildSimScene;
using hb::sim::SimScene;

hb::SceneDescription funnelScene(int objects, double interval) {
  hb::SceneDescription scene = hb::loadScene(HB_SOURCE_DIR "/assets/scenes/funnel.json");
  scene.spawner->count = objects;
  scene.spawner->interval = interval;
  return scene;
}

TEST(SimScene, DropsEnterAtTheSpawnersStepsWithItsStates) {
  const hb::SceneDescription scene = funnelScene(6, 0.2);
  const SimScene sim = buildSimScene(scene);
  ASSERT_EQ(sim.bodies.size(), 6u);
  // One drop every 0.2 s = 24 steps of 1/120 s.
  for (int k = 0; k < 6; ++k) EXPECT_EQ(sim.bodies[k].dropStep, 24L * k) << k;

  hb::World world(scene);
  for (long s = 0; s <= sim.bodies.back().dropStep; ++s) {
    world.step();
    int expected = 0;
    for (const hb::sim::SimBody& b : sim.bodies) expected += b.dropStep <= s ? 1 : 0;
    ASSERT_EQ(static_cast<int>(world.bodies().size()) - 1, expected) << "after step " << s;
    for (int i = 0; i < expected; ++i) {
      if (sim.bodies[i].dropStep != s) continue;
      // Body i entered at the start of this step, then fell freely for one step of n substeps
      // of h (semi-implicit Euler): v1 = v0 + g dt, p1 = p0 + h sum_k (v0 + k h g)
      // = p0 + v0 dt + g h^2 n (n + 1) / 2, and its angular momentum unchanged.
      const hb::sim::SimBody& b = sim.bodies[i];
      const hb::RigidBody& r = world.rigidBodies()[i + 1];
      EXPECT_EQ(world.bodies()[i + 1].name, b.name);
      EXPECT_NEAR(1.0 / r.inverseMass, b.mass, 1e-12 * b.mass);
      const Eigen::Vector3d v1 = b.linearVelocity + scene.dt * scene.gravity;
      EXPECT_LT((r.linearVelocity - v1).norm(), 1e-12) << i;
      const int n = world.bodySubsteps(i + 1);  // its island's: alone, often 1
      const double h = scene.dt / n;
      const Eigen::Vector3d p1 =
          b.pose.p + scene.dt * b.linearVelocity + 0.5 * h * h * n * (n + 1) * scene.gravity;
      EXPECT_LT((r.position - p1).norm(), 1e-12) << i;
      // Free flight keeps the angular momentum (the gyroscopic term turns w, not L).
      const Eigen::Matrix3d turn = b.pose.q.toRotationMatrix();
      const Eigen::Vector3d momentum = turn * b.inertia * turn.transpose() * b.angularVelocity;
      EXPECT_LT((r.angularMomentum() - momentum).norm(), 1e-12 * (1.0 + momentum.norm())) << i;
    }
  }
}

TEST(SimScene, ListedBodiesComeFirstThenAColumnOfDropsAllAtStepZero) {
  hb::SceneDescription scene = funnelScene(4, 0.0);
  hb::BodyDescription listed;
  listed.shape.shape = hb::Shape::box({0.05, 0.04, 0.03});
  listed.pose.p = {0.5, 0.5, 0.2};
  listed.mass = 0.3;
  scene.bodies.push_back(listed);
  const SimScene sim = buildSimScene(scene);
  const hb::World world(scene);
  ASSERT_EQ(sim.bodies.size(), 5u);
  ASSERT_EQ(world.bodies().size(), 6u);
  EXPECT_EQ(sim.bodies[0].shape.type(), hb::ShapeType::Box);
  EXPECT_DOUBLE_EQ(sim.bodies[0].mass, 0.3);
  for (int i = 0; i < 5; ++i) {
    const hb::sim::SimBody& b = sim.bodies[i];
    EXPECT_EQ(b.dropStep, 0);
    EXPECT_EQ(b.name, world.bodies()[i + 1].name);
    EXPECT_EQ(b.pose.p, world.rigidBodies()[i + 1].position);
    EXPECT_EQ(b.pose.q.coeffs(), world.rigidBodies()[i + 1].orientation.coeffs());
    EXPECT_EQ(b.linearVelocity, world.rigidBodies()[i + 1].linearVelocity);
    // The description World::addBody gets puts the body where the spawner put it.
    hb::SceneDescription alone = scene;
    alone.bodies = {b.description};
    alone.spawner.reset();
    const hb::World rebuilt(alone);
    EXPECT_LT((rebuilt.rigidBodies()[1].position - b.pose.p).norm(), 1e-14) << i;
    EXPECT_LT(rebuilt.rigidBodies()[1].orientation.angularDistance(b.pose.q), 1e-12) << i;
  }
}

// funnel-pile.json: every body in from the first step, none overlapping another or a static
// (heavyball's narrow phase on every pair), all of them above the funnel's rim and inside its
// circle, so that the whole pile falls into it.
TEST(SimScene, ShippedPileStartsApartAboveTheFunnelMouth) {
  const hb::SceneDescription scene = hb::loadScene(HB_SOURCE_DIR "/assets/scenes/funnel-pile.json");
  const SimScene sim = buildSimScene(scene);
  ASSERT_EQ(sim.bodies.size(), 100u);
  std::vector<hb::Pose> poses;
  for (const hb::sim::SimBody& b : sim.bodies) {
    EXPECT_EQ(b.dropStep, 0);
    poses.push_back(b.pose);
  }
  hb::sim::PenetrationMeter meter(sim);
  meter.measure(poses);
  EXPECT_EQ(meter.stats().overlaps, 0);
  EXPECT_EQ(meter.stats().failedQueries, 0);

  const hb::FunnelDescription& funnel = scene.statics.at(1).funnel;
  for (const hb::sim::SimBody& b : sim.bodies) {
    ASSERT_EQ(b.shape.type(), hb::ShapeType::ConvexHull);
    const hb::Pose shapeInWorld = b.pose * b.shapeInBody;
    for (const Eigen::Vector3d& v : b.shape.hull().vertices()) {
      const Eigen::Vector3d w = shapeInWorld.apply(v);
      ASSERT_GT(w.z(), funnel.bottomZ + funnel.height) << b.name;
      ASSERT_LT(w.head<2>().norm(), funnel.topRadius) << b.name;
      ASSERT_LT(w.z(), scene.boundsMax.z()) << b.name;
    }
  }
}

TEST(SimScene, StaticsArePiecesOfTheScenesStaticsInOrder) {
  const hb::SceneDescription scene = funnelScene(0, 0.2);
  const SimScene sim = buildSimScene(scene);
  // funnel.json: ground, a funnel of 16 panels, four walls.
  ASSERT_EQ(sim.statics.size(), 1u + 16u + 4u);
  EXPECT_EQ(sim.statics[0].group, 0);
  for (int i = 1; i <= 16; ++i) EXPECT_EQ(sim.statics[i].group, 1);
  for (int i = 17; i < 21; ++i) EXPECT_EQ(sim.statics[i].group, i - 15);
  // The ground's top face is the plane z = 0.
  const hb::sim::SimStatic& ground = sim.statics[0];
  EXPECT_NEAR(ground.pose.p.z() + ground.shape.halfExtents().z(), 0.0, 1e-15);
  EXPECT_TRUE(sim.bodies.empty());
  EXPECT_FALSE(sim.base.spawner.has_value());
}

}  // namespace
