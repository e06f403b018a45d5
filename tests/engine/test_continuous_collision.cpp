// Continuous collision in the world: bodies thrown at a 1 cm panel at up to 300 m/s stay above
// it (speculative contacts alone already hold those that spin slowly), fast-spinning plates pass
// through less than half as often as without the sweep, and what is left is measured.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

struct Throw {
  std::string shape;
  double speed;  // m/s, straight down
  double spin;   // rad/s about y
};

// Whether the body stays above the panel over a second: its centre never below the panel's
// middle (z = 1) while over the panel (|x|, |y| < 8 m). A body knocked sideways off the panel's
// edge falls to the ground without passing through.
bool staysAbove(const Throw& t, bool continuous) {
  const std::string scene = R"({"name": "panel", "gravity": [0, 0, -9.81],
    "bounds": {"min": [-10, -10, -1], "max": [10, 10, 20]},
    "statics": [{"type": "ground", "height": 0.0},
                {"type": "shape", "shape": {"type": "box", "half_extents": [8, 8, 0.005]},
                 "pose": {"p": [0, 0, 1.0]}}],
    "bodies": [{"shape": )" +
                            t.shape + R"(, "pose": {"p": [0, 0, 2.0]},
                "linear_velocity": [0, 0, )" +
                            std::to_string(-t.speed) + R"(],
                "angular_velocity": [0, )" +
                            std::to_string(t.spin) + R"(, 0]}],
    "solver": {"continuous_collision": )" +
                            (continuous ? "true" : "false") + "}}";
  World world(parseScene(scene, "."));
  for (int i = 0; i < 120; ++i) {
    world.step();
    const Eigen::Vector3d& p = world.rigidBodies()[1].position;
    if (p.z() < 1.0 && std::abs(p.x()) < 8.0 && std::abs(p.y()) < 8.0) return false;
  }
  return true;
}

const std::vector<std::string> kShapes = {
    R"({"type": "sphere", "radius": 0.01})",
    R"({"type": "box", "half_extents": [0.05, 0.05, 0.005]})",
    R"({"type": "capsule", "radius": 0.005, "half_length": 0.05})",
    R"({"type": "cylinder", "radius": 0.05, "half_length": 0.004})"};

TEST(ContinuousCollision, NothingSpinningSlowlyPassesThroughAThinPanelAtAnySpeed) {
  for (const std::string& shape : kShapes) {
    for (const double speed : {5.0, 20.0, 50.0, 100.0, 200.0, 300.0}) {
      for (const double spin : {0.0, 5.0, 10.0}) {
        EXPECT_TRUE(staysAbove({shape, speed, spin}, true))
            << shape << " at " << speed << " m/s, " << spin << " rad/s";
      }
    }
  }
}

// Measured, not hidden: thin plates spinning at 20-60 rad/s may still pass through after
// touching the panel (a pair in contact at the start of a step is left to its contacts, linear in
// the step, which do not see the far end swing through).
TEST(ContinuousCollision, FastSpinningPlatesFailLessOftenThanWithout) {
  int with = 0, without = 0;
  for (const std::string& shape : kShapes) {
    for (const double speed : {20.0, 50.0, 100.0}) {
      for (const double spin : {20.0, 30.0, 60.0}) {
        with += staysAbove({shape, speed, spin}, true) ? 0 : 1;
        without += staysAbove({shape, speed, spin}, false) ? 0 : 1;
      }
    }
  }
  EXPECT_LT(with, without);
  std::printf("passed through the panel: %d of 36 throws with continuous collision, %d without\n",
              with, without);
}

}  // namespace
}  // namespace hb
