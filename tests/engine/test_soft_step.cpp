// The soft step (solver.soft_substeps, ContactSolver::solveSoftStep): a body at rest on a soft
// contact sinks in by the slop plus the spring's static deflection g / omega^2, and a wall of
// 210 cubes stands on sixteen sweeps a step.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>

#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

TEST(SoftStep, ASphereRestsAtTheSpringsStaticDeflection) {
  // One contact straight below the centre: at rest, each substep's soft sweep finds the impulse
  // m g h already applied by the warm start, which holds when the push biasRate (depth - slop)
  // equals the compliance's share (W_nn / a2) m g h, i.e. depth = slop + g / omega^2 (a2
  // biasRate = h omega^2, W_nn = 1 / m). Against the ground the spring is twice as stiff, capped
  // at a quarter of the substep rate: 60 Hz at 60 Hz steps and 4 substeps.
  const SceneDescription scene = parseScene(R"({"name": "soft sphere", "dt": 0.016666666666666666,
    "statics": [{"type": "ground", "height": 0.0}],
    "bodies": [{"shape": {"type": "sphere", "radius": 0.1}, "pose": {"p": [0, 0, 0.1]}}],
    "solver": {"sleeping": false, "soft_substeps": 4, "contact_hertz": 30}})",
                                            ".");
  World world(scene);
  for (int step = 0; step < 240; ++step) world.step();
  ASSERT_EQ(world.contacts().size(), 1u);
  const ContactConstraint& contact = world.contacts().front();
  const double omega = 2.0 * std::numbers::pi * 60.0;
  const double slop = std::min(ContactSolverOptions{}.slop, contact.maxSlop);
  const double g = scene.gravity.norm();
  const double expected = slop + g / (omega * omega);
  EXPECT_NEAR(contact.depth, expected, 1e-6 * expected);
  EXPECT_LT(world.rigidBodies()[1].linearVelocity.norm(), 1e-9);
  // The contact carries the weight over the step, m g dt.
  const double mass = 1.0 / world.rigidBodies()[1].inverseMass;
  EXPECT_NEAR(contact.impulse[0], mass * g * scene.dt, 1e-9 * mass);
  EXPECT_EQ(world.lastStep().solverIterations, 8);  // a soft and a relax sweep per substep
}

TEST(SoftStep, AWallOfTwentyRowsStandsOnSixteenSweepsAStep) {
  // As shipped: 8 substeps, contacts of 60 Hz.
  const SceneDescription scene =
      loadScene(std::filesystem::path(HB_SOURCE_DIR) / "assets/scenes/pyramid-20.json");
  ASSERT_EQ(scene.solver.softSubsteps, 8);
  World world(scene);
  std::vector<Eigen::Vector3d> start;
  for (const RigidBody& b : world.rigidBodies()) start.push_back(b.position);
  double deepest = 0.0;
  for (int step = 0; step < 300; ++step) {
    world.step();
    EXPECT_EQ(world.lastStep().solverIterations, 16);
    deepest = std::max(deepest, world.lastStep().maxPenetration);
  }
  double moved = 0.0, topStart = 0.0, top = 0.0;
  for (std::size_t i = 1; i < start.size(); ++i) {
    const Eigen::Vector3d& p = world.rigidBodies()[i].position;
    moved = std::max(moved, (p - start[i]).norm());
    topStart = std::max(topStart, start[i].z());
    top = std::max(top, p.z());
  }
  // 5 s: the soft contacts settle the top by 1.7 cm (each of the 20 levels yields under the
  // weight above it), and nothing slides off.
  EXPECT_LT(topStart - top, 0.025);
  EXPECT_LT(moved, 0.025);
  EXPECT_LT(deepest, 0.005);
}

}  // namespace
}  // namespace hb
