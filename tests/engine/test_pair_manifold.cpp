// The manifold a touching pair gets in the World (engine/step/pair_manifold.cpp): built where
// the bodies meet when they close their gap within the step while moving sideways; the start's
// for head-on approaches and for bodies that turn fast.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

/// A striker at the origin moving at `velocity` and spinning at `spin` rad/s about z, and a ball
/// of radius 5 cm at rest at `other`, without gravity or friction.
World pair(const std::string& striker, const std::string& velocity, const std::string& other,
           double spin = 0.0) {
  const std::string scene = R"({"gravity": [0, 0, 0], "bodies": [
    {"shape": )" + striker + R"(, "pose": {"p": [0, 0, 1]}, "linear_velocity": )" +
                            velocity + R"(, "angular_velocity": [0, 0, )" + std::to_string(spin) +
                            R"(],
     "material": {"friction": 0.0, "restitution": 1.0}},
    {"shape": {"type": "sphere", "radius": 0.05}, "pose": {"p": )" +
                            other + R"(},
     "material": {"friction": 0.0, "restitution": 1.0}}],
    "solver": {"sleeping": false}})";
  return World(parseScene(scene, "."));
}

const std::string kBall = R"({"type": "sphere", "radius": 0.05})";
const std::string kCube = R"({"type": "box", "half_extents": [0.05, 0.05, 0.05]})";

int impactPairsOver(World& world, int steps) {
  int pairs = 0;
  for (int i = 0; i < steps; ++i) {
    world.step();
    pairs += world.lastStep().impactPairs;
  }
  return pairs;
}

TEST(WorldPairManifold, AnObliqueApproachIsBuiltWhereTheBodiesMeet) {
  // A ball at 2 m/s towards a ball 5 cm off its path: they meet within a step, the line of
  // centres turning until then, and the struck ball leaves along it: 30 degrees off the path.
  World world = pair(kBall, "[2, 0, 0]", "[0.11, 0.05, 1]");
  EXPECT_EQ(impactPairsOver(world, 10), 1);
  const Eigen::Vector3d v = world.rigidBodies()[2].linearVelocity;
  EXPECT_NEAR(std::atan2(v.y(), v.x()), M_PI / 6, 1e-4);
}

TEST(WorldPairManifold, HeadOnAndTurningPairsKeepTheStartsManifold) {
  World headOn = pair(kBall, "[2, 0, 0]", "[0.12, 0.0, 1]");
  EXPECT_EQ(impactPairsOver(headOn, 10), 0);
  // A cube's face meets the ball along its own normal: nothing turns before the impact.
  World face = pair(kCube, "[2, 0, 0]", "[0.12, 0.03, 1]");
  EXPECT_EQ(impactPairsOver(face, 10), 0);
  // A cube spinning at 60 rad/s moves its corners at 4 m/s: the translation does not predict
  // where it meets the ball, which comes at its edge from 6 cm off the path.
  World turning = pair(kCube, "[2, 0, 0]", "[0.12, 0.06, 1]", 60.0);
  EXPECT_EQ(impactPairsOver(turning, 10), 0);
  World still = pair(kCube, "[2, 0, 0]", "[0.12, 0.06, 1]");
  EXPECT_EQ(impactPairsOver(still, 10), 1);
}

}  // namespace
}  // namespace hb
