// Pendulums on ball joints: a ball 1 m below its pivot swings at the period mechanics gives
// (small amplitude, and released level: the exact elliptic-integral period), and a double
// pendulum released level keeps its energy.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>

#include "apps/bench/physics/joint_measures.hpp"
#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

/// The gravity's magnitude, and the scene's gravity pointing down its z axis (or throws).
double downwardGravity(const sim::SimScene& scene, std::string_view scenario) {
  const Eigen::Vector3d g = scene.base.gravity;
  if (!(g.z() < 0.0) || g.head<2>().norm() > 1e-12) {
    throw std::runtime_error(std::string(scenario) + ": gravity must point along -z");
  }
  return -g.z();
}

class Pendulum final : public PhysicsScenario {
 public:
  explicit Pendulum(bool level) : level_(level) {}

  std::string_view name() const override { return level_ ? "pendulum-level" : "pendulum-small"; }
  std::string_view description() const override {
    return level_ ? "a 2 cm ball on a ball joint 1 m from its pivot, released level (90 deg): "
                    "period 4 sqrt(I / (m g l)) K(sin 45 deg), 1.18 times the small one"
                  : "a 2 cm ball on a ball joint 1 m from its pivot, released 5 deg out: "
                    "period 2 pi sqrt(I / (m g l)) (with its K(k) correction)";
  }
  double seconds() const override { return 12.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 1, name());
    anchors_.emplace(scene, 1, name());
    const double g = downwardGravity(scene, name());
    const sim::SimBody& bob = scene.bodies[0];
    pivot_ = scene.joints[0].anchor;
    const Eigen::Vector3d arm = bob.pose.p - pivot_;
    if (std::abs(arm.y()) > 1e-12) throw std::runtime_error(std::string(name()) + ": swing in x-z");
    const double length = arm.norm();
    const double amplitude = std::acos(std::clamp(-arm.z() / length, -1.0, 1.0));
    const double swingInertia =
        bob.mass * length * length +
        Eigen::Vector3d::UnitY().dot(bob.inertia * Eigen::Vector3d::UnitY());
    expected_ = pendulumPeriod(bob.mass, length, swingInertia, g, amplitude);
    dt_ = scene.base.dt;
    x_.clear();
    separation_ = 0.0;
  }

  void observe(const sim::SimPeer& engine, long) override {
    x_.push_back(engine.pose(0).p.x() - pivot_.x());
    separation_ = std::max(separation_, anchors_->largestSeparation(engine));
  }

  std::vector<PhysicsCheck> checks() const override {
    const double period = meanPeriod(x_, 0.0, dt_);
    return {{"period", "s", expected_, (level_ ? 0.01 : 0.005) * expected_, period,
             level_ ? "1% (the exact period of the physical pendulum)"
                    : "0.5% (the integrator's phase error at 120 Hz is far below)"},
            {"largest joint separation", "mm", 0.0, 0.1, 1e3 * separation_,
             "the joint holds its anchors together"}};
  }

 private:
  bool level_;
  std::optional<JointAnchors> anchors_;
  Eigen::Vector3d pivot_ = Eigen::Vector3d::Zero();
  double expected_ = 0.0, dt_ = 0.0, separation_ = 0.0;
  std::vector<double> x_;
};

class DoublePendulum final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "double-pendulum"; }
  std::string_view description() const override {
    return "two 1 kg balls on ball joints, 1 m apart, released level, no friction: mechanical "
           "energy kept for 10 s";
  }
  double seconds() const override { return 10.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 2, name());
    anchors_.emplace(scene, 2, name());
    scene_ = &scene;
    g_ = downwardGravity(scene, name());
    // The energy above the lowest configuration (both hanging straight down from the pivot).
    const double lowest = scene.joints[0].anchor.z();
    start_ = 0.0;
    aboveRest_ = 0.0;
    double depth = 0.0;
    for (int i = 0; i < 2; ++i) {
      const sim::SimBody& b = scene.bodies[i];
      const double link =
          (b.pose.p - (i == 0 ? scene.joints[0].anchor : scene.bodies[0].pose.p)).norm();
      depth += link;
      start_ += b.mass * g_ * b.pose.p.z();
      aboveRest_ += b.mass * g_ * (b.pose.p.z() - (lowest - depth));
    }
    worst_ = 0.0;
    separation_ = 0.0;
  }

  void observe(const sim::SimPeer& engine, long) override {
    double energy = 0.0;
    for (int i = 0; i < 2; ++i) {
      const sim::SimBody& b = scene_->bodies[i];
      const Pose pose = engine.pose(i);
      const sim::BodyVelocity v = engine.velocity(i);
      energy += 0.5 * b.mass * v.linear.squaredNorm() + rotationalEnergy(b, pose, v.angular) +
                b.mass * g_ * pose.p.z();
    }
    const double error = std::abs(energy - start_);
    worst_ = std::isfinite(error) ? std::max(worst_, error) : error;
    separation_ = std::max(separation_, anchors_->largestSeparation(engine));
  }

  std::vector<PhysicsCheck> checks() const override {
    return {{"largest energy error / energy above rest", "", 0.0, 0.01, worst_ / aboveRest_,
             "1% at 120 Hz (a first-order integrator's error)"},
            {"largest joint separation", "mm", 0.0, 1.0, 1e3 * separation_,
             "the joints hold their anchors together"}};
  }

 private:
  const sim::SimScene* scene_ = nullptr;
  std::optional<JointAnchors> anchors_;
  double g_ = 0.0, start_ = 0.0, aboveRest_ = 0.0, worst_ = 0.0, separation_ = 0.0;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makePendulum(bool level) {
  return std::make_unique<Pendulum>(level);
}

std::unique_ptr<PhysicsScenario> makeDoublePendulum() {
  return std::make_unique<DoublePendulum>();
}

}  // namespace hb::physics
