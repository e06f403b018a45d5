// Round bodies at rest stay at rest: a ball and a capsule lying on the ground do not creep.

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

class RestingRound final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "resting-round"; }
  std::string_view description() const override {
    return "a ball (r 5 cm) and a capsule lying on its side (r 5 cm, 30 cm long) placed at rest "
           "on the ground, for 10 s: neither rolls away";
  }
  double seconds() const override { return 10.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 2, name());
    if (scene.bodies[0].shape.type() != ShapeType::Sphere ||
        scene.bodies[1].shape.type() != ShapeType::Capsule) {
      throw std::runtime_error("resting-round: a ball and a capsule");
    }
    start_ = {scene.bodies[0].pose.p, scene.bodies[1].pose.p};
    drift_ = {0.0, 0.0};
  }

  void observe(const sim::SimPeer& engine, long) override {
    for (int i = 0; i < 2; ++i) {
      const double d = (engine.pose(i).p - start_[i]).head<2>().norm();
      drift_[i] = std::isfinite(d) ? std::max(drift_[i], d) : NAN;
    }
  }

  std::vector<PhysicsCheck> checks() const override {
    return {{"ball rolled, max", "mm", 0.0, 0.1, 1000.0 * drift_[0], "static equilibrium"},
            {"capsule rolled, max", "mm", 0.0, 0.1, 1000.0 * drift_[1], "static equilibrium"}};
  }

 private:
  std::array<Eigen::Vector3d, 2> start_;
  std::array<double, 2> drift_ = {0.0, 0.0};
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeRestingRound() {
  return std::make_unique<RestingRound>();
}

}  // namespace hb::physics
