// Fast spin: a free body keeps whatever spin it has (no hidden cap on the angular speed), and a
// ball rolling down a steep ramp reaches the speed of rolling without slipping however fast it
// turns.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

class FastSpin final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "fast-spin"; }
  std::string_view description() const override {
    return "boxes of 0.1 x 0.2 x 0.3 m spinning at 150 rad/s (one about a principal axis, one "
           "tumbling) without gravity, nothing near, for 1 s: spin, angular momentum and energy "
           "stay what they were";
  }
  double seconds() const override { return 1.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 2, name());
    scene_ = &scene;
    momentumChange_.assign(2, 0.0);
    energyChange_.assign(2, 0.0);
  }

  void observe(const sim::SimPeer& engine, long) override {
    for (int i = 0; i < 2; ++i) {
      const sim::SimBody& b = scene_->bodies[i];
      const Pose pose = engine.pose(i);
      const Eigen::Vector3d w = engine.velocity(i).angular;
      const Eigen::Vector3d l0 = angularMomentum(b, b.pose, b.angularVelocity);
      const double e0 = rotationalEnergy(b, b.pose, b.angularVelocity);
      const double dl = (angularMomentum(b, pose, w) - l0).norm() / l0.norm();
      const double de = std::abs(rotationalEnergy(b, pose, w) / e0 - 1.0);
      momentumChange_[i] = std::isfinite(dl) ? std::max(momentumChange_[i], dl) : NAN;
      energyChange_[i] = std::isfinite(de) ? std::max(energyChange_[i], de) : NAN;
    }
  }

  std::vector<PhysicsCheck> checks() const override {
    std::vector<PhysicsCheck> out;
    for (int i = 0; i < 2; ++i) {
      const char* which = i == 0 ? "principal axis" : "tumbling";
      char what[96];
      std::snprintf(what, sizeof what, "%s: L changed, max", which);
      out.push_back({what, "%", 0.0, 0.1, 100.0 * momentumChange_[i], "no torque acts"});
      std::snprintf(what, sizeof what, "%s: rotational energy changed, max", which);
      out.push_back({what, "%", 0.0, 0.1, 100.0 * energyChange_[i], "no work is done"});
    }
    return out;
  }

 private:
  const sim::SimScene* scene_ = nullptr;
  std::vector<double> momentumChange_, energyChange_;
};

class RollingBall final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "rolling-ball"; }
  std::string_view description() const override {
    return "a ball of 5 cm radius released on a 45 degree ramp, mu = 1 (it rolls without "
           "slipping): after 1.5 s it runs at 5/7 g sin 45 t = 7.43 m/s and turns at 149 rad/s";
  }
  double seconds() const override { return 1.5; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 1, name());
    if (scene.bodies[0].shape.type() != ShapeType::Sphere) {
      throw std::runtime_error("rolling-ball: the body must be a ball");
    }
    const Ramp ramp = findRamp(scene, name());
    down_ = ramp.downhill;
    const double angle = ramp.angle;
    const double mu = std::sqrt(scene.bodies[0].material.friction * scene.staticMaterial.friction);
    // Rolling without slipping needs mu >= (2/7) tan(angle) for a solid ball.
    if (mu < 2.0 / 7.0 * std::tan(angle)) {
      throw std::runtime_error("rolling-ball: too little friction for the ball to roll");
    }
    acceleration_ = 5.0 / 7.0 * scene.base.gravity.norm() * std::sin(angle);
    radius_ = scene.bodies[0].shape.radius();
    speed_ = spin_ = 0.0;
  }

  void observe(const sim::SimPeer& engine, long) override {
    const sim::BodyVelocity v = engine.velocity(0);
    speed_ = v.linear.dot(down_);
    spin_ = v.angular.norm();
  }

  std::vector<PhysicsCheck> checks() const override {
    const double speed = acceleration_ * seconds();
    // Uniform acceleration is exact in semi-implicit Euler; the implicit midpoint turns the
    // ball by 2 atan(h w / 2) instead of h w per (sub)step, which its contact feels as a lag of
    // (h w)^2 / 12: under 1% at 60 Hz with the substeps this spin asks for.
    return {{"speed down the ramp", "m/s", speed, 0.015 * speed, speed_,
             "rolling without slipping, 1.5% (the turn's (h w)^2 / 12)"},
            {"spin", "rad/s", speed / radius_, 0.04 * speed / radius_, spin_,
             "v / r, 4% (the end spin carries the turn's lag)"}};
  }

 private:
  Eigen::Vector3d down_ = Eigen::Vector3d::Zero();
  double acceleration_ = 0.0, radius_ = 0.0;
  double speed_ = 0.0, spin_ = 0.0;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeFastSpin() {
  return std::make_unique<FastSpin>();
}

std::unique_ptr<PhysicsScenario> makeRollingBall() {
  return std::make_unique<RollingBall>();
}

}  // namespace hb::physics
