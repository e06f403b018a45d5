// Bodies in free flight: the centre of mass on its parabola, angular momentum and energy kept.

#include <algorithm>
#include <cmath>
#include <numbers>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

class FreeFlight final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "free-flight"; }
  std::string_view description() const override {
    return "a box thrown at (1, 0.5, 3) m/s spinning at (2, -1, 3) rad/s; its centre of mass "
           "follows x0 + v0 t + g t^2 / 2";
  }
  double seconds() const override { return 1.5; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 1, name());
    body_ = scene.bodies[0];
    gravity_ = scene.base.gravity;
    dt_ = scene.base.dt;
    deviation_ = 0.0;
  }

  void observe(const sim::SimPeer& engine, long step) override {
    const double t = step * dt_;
    const Eigen::Vector3d parabola =
        body_.pose.p + body_.linearVelocity * t + 0.5 * gravity_ * t * t;
    deviation_ = std::max(deviation_, (engine.pose(0).p - parabola).norm());
    if (!engine.pose(0).p.allFinite()) deviation_ = NAN;
  }

  std::vector<PhysicsCheck> checks() const override {
    // Semi-implicit Euler moves by the step's end velocity: after t it has fallen g t dt / 2
    // further than the parabola, the error every engine here shares.
    const double lag = gravity_.norm() * seconds() * dt_ / 2;
    return {{"centre of mass off the parabola, max", "mm", 0.0, 1000.0 * lag + 1e-3,
             1000.0 * deviation_, "semi-implicit Euler falls g t dt / 2 ahead"}};
  }

 private:
  sim::SimBody body_;
  Eigen::Vector3d gravity_ = Eigen::Vector3d::Zero();
  double dt_ = 0.0;
  double deviation_ = 0.0;
};

class FreeRotation final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "free-rotation"; }
  std::string_view description() const override {
    return "a 0.1 x 0.2 x 0.4 m box tumbling at (3, 4, 5) rad/s without gravity for 10 s: "
           "angular momentum L (direction and size) and energy stay constant";
  }
  double seconds() const override { return 10.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 1, name());
    body_ = scene.bodies[0];
    momentum_ = angularMomentum(body_, body_.pose, body_.angularVelocity);
    energy_ = rotationalEnergy(body_, body_.pose, body_.angularVelocity);
    turn_ = size_ = energyChange_ = 0.0;
  }

  void observe(const sim::SimPeer& engine, long) override {
    const Pose pose = engine.pose(0);
    const Eigen::Vector3d w = engine.velocity(0).angular;
    const Eigen::Vector3d l = angularMomentum(body_, pose, w);
    const double cosine = l.dot(momentum_) / (l.norm() * momentum_.norm());
    turn_ = std::max(turn_, std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / std::numbers::pi);
    size_ = std::max(size_, std::abs(l.norm() / momentum_.norm() - 1.0));
    energyChange_ =
        std::max(energyChange_, std::abs(rotationalEnergy(body_, pose, w) / energy_ - 1.0));
    if (!l.allFinite()) turn_ = size_ = energyChange_ = NAN;
  }

  std::vector<PhysicsCheck> checks() const override {
    return {{"L direction turned, max", "deg", 0.0, 1.0, turn_, "no torque acts"},
            {"|L| changed, max", "%", 0.0, 0.1, 100.0 * size_, "no torque acts"},
            {"rotational energy changed, max", "%", 0.0, 0.1, 100.0 * energyChange_,
             "no work is done"}};
  }

 private:
  sim::SimBody body_;
  Eigen::Vector3d momentum_ = Eigen::Vector3d::Zero();
  double energy_ = 0.0;
  double turn_ = 0.0, size_ = 0.0, energyChange_ = 0.0;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeFreeFlight() {
  return std::make_unique<FreeFlight>();
}

std::unique_ptr<PhysicsScenario> makeFreeRotation() {
  return std::make_unique<FreeRotation>();
}

}  // namespace hb::physics
