// Coulomb friction: a box on a ramp sticks or slides as mu against tan(angle) says, and boxes
// launched along the ground stop after v^2 / (2 mu g) whatever their direction and yaw.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

class Slope final : public PhysicsScenario {
 public:
  explicit Slope(SlopeCase which) : which_(which) {}

  std::string_view name() const override {
    return which_ == SlopeCase::Sticking ? "slope-stick" : "slope-slide";
  }
  std::string_view description() const override {
    return which_ == SlopeCase::Sticking
               ? "a cube at rest on a 20 degree ramp, mu = 0.5 > tan 20: it stays put"
               : "a cube released on a 20 degree ramp, mu = 0.2 < tan 20: it slides down at "
                 "g (sin 20 - mu cos 20)";
  }
  double seconds() const override { return 1.5; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 1, name());
    const Ramp ramp = findRamp(scene, name());
    down_ = ramp.downhill;
    const double angle = ramp.angle;
    const double mu = std::sqrt(scene.bodies[0].material.friction * scene.staticMaterial.friction);
    const double g = scene.base.gravity.norm();
    acceleration_ = mu >= std::tan(angle) ? 0.0 : g * (std::sin(angle) - mu * std::cos(angle));
    if ((acceleration_ == 0.0) != (which_ == SlopeCase::Sticking)) {
      throw std::runtime_error(std::string(name()) + ": mu and the ramp's angle do not match");
    }
    startPosition_ = scene.bodies[0].pose.p;
    dt_ = scene.base.dt;
    travelled_ = 0.0;
  }

  void observe(const sim::SimPeer& engine, long) override {
    travelled_ = (engine.pose(0).p - startPosition_).dot(down_);
  }

  std::vector<PhysicsCheck> checks() const override {
    const double t = seconds();
    if (which_ == SlopeCase::Sticking) {
      return {{"slid down the ramp", "mm", 0.0, 1.0, 1000.0 * travelled_, "static friction"}};
    }
    // Semi-implicit Euler runs a t dt / 2 ahead of the uniformly accelerated motion.
    const double expected = 0.5 * acceleration_ * t * t;
    return {{"slid down the ramp", "mm", 1000.0 * expected,
             1000.0 * (acceleration_ * t * dt_ / 2) + 2.0, 1000.0 * travelled_,
             "a t dt / 2 of semi-implicit Euler + 2 mm"}};
  }

 private:
  SlopeCase which_;
  Eigen::Vector3d down_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d startPosition_ = Eigen::Vector3d::Zero();
  double acceleration_ = 0.0;
  double dt_ = 0.0;
  double travelled_ = 0.0;
};

class SlidingStop final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "sliding-stop"; }
  std::string_view description() const override {
    return "eight cubes launched at 2 m/s along the ground in eight directions and yaws, mu = "
           "0.4: each stops after v^2 / (2 mu g) = 0.51 m, on a straight line";
  }
  double seconds() const override { return 1.0; }

  void start(const sim::SimScene& scene) override {
    if (scene.bodies.empty()) throw std::runtime_error("sliding-stop: no bodies");
    scene_ = &scene;
    const double g = scene.base.gravity.norm();
    speed_ = scene.bodies[0].linearVelocity.norm();
    for (const sim::SimBody& b : scene.bodies) {
      if (std::abs(b.linearVelocity.norm() - speed_) > 1e-9 || b.linearVelocity.z() != 0.0) {
        throw std::runtime_error("sliding-stop: every body must start at the same ground speed");
      }
    }
    const double mu = std::sqrt(scene.bodies[0].material.friction * scene.staticMaterial.friction);
    stopDistance_ = speed_ * speed_ / (2.0 * mu * g);
    dt_ = scene.base.dt;
    last_.assign(scene.bodies.size(), Eigen::Vector3d::Zero());
  }

  void observe(const sim::SimPeer& engine, long) override {
    for (size_t i = 0; i < last_.size(); ++i) last_[i] = engine.pose(static_cast<int>(i)).p;
  }

  std::vector<PhysicsCheck> checks() const override {
    double sum = 0.0, shortest = INFINITY, longest = -INFINITY, sideways = 0.0;
    for (size_t i = 0; i < last_.size(); ++i) {
      const sim::SimBody& b = scene_->bodies[i];
      const Eigen::Vector3d along = b.linearVelocity.normalized();
      Eigen::Vector3d moved = last_[i] - b.pose.p;
      moved.z() = 0.0;
      const double d = moved.dot(along);
      sum += d;
      shortest = std::min(shortest, d);
      longest = std::max(longest, d);
      sideways = std::max(sideways, (moved - d * along).norm());
      if (!moved.allFinite()) sum = sideways = NAN;
    }
    const double mean = sum / static_cast<double>(last_.size());
    // Semi-implicit Euler stops v dt / 2 short of v^2 / (2 mu g).
    return {
        {"stop distance, mean", "mm", 1000.0 * stopDistance_, 1000.0 * speed_ * dt_ / 2 + 1.0,
         1000.0 * mean, "v dt / 2 of semi-implicit Euler + 1 mm"},
        {"stop distance, longest - shortest", "mm", 0.0, 1.0, 1000.0 * (longest - shortest),
         "isotropic friction"},
        {"sideways drift, max", "mm", 0.0, 1.0, 1000.0 * sideways, "friction opposes the slip"}};
  }

 private:
  const sim::SimScene* scene_ = nullptr;
  double speed_ = 0.0, stopDistance_ = 0.0, dt_ = 0.0;
  std::vector<Eigen::Vector3d> last_;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeSlope(SlopeCase which) {
  return std::make_unique<Slope>(which);
}

std::unique_ptr<PhysicsScenario> makeSlidingStop() {
  return std::make_unique<SlidingStop>();
}

}  // namespace hb::physics
