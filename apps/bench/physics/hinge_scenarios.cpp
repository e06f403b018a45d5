// Hinges about a horizontal axis holding a 2 kg ball 0.5 m out: a motor lifts it at its target
// rate; a motor whose force limit is half the load stalls, exerting exactly that limit; a motor
// driving the arm into its limit stops at the limit.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>

#include "apps/bench/physics/joint_measures.hpp"
#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

/// An arm: a body on a revolute joint to the world, turning about the joint's axis.
struct Arm {
  Eigen::Vector3d pivot = Eigen::Vector3d::Zero();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitY();
  Eigen::Vector3d startArm = Eigen::Vector3d::UnitX();  ///< pivot -> centre of mass at the start
  double inertia = 0.0;                                 ///< kg m^2 about the axis through the pivot
  double mass = 0.0;
  int body = 0;

  static Arm of(const sim::SimScene& scene, int joint, std::string_view scenario) {
    const JointDescription& j = scene.joints.at(joint);
    if (j.type != JointType::Revolute || j.bodyA != 0) {
      throw std::runtime_error(std::string(scenario) + ": joint " + std::to_string(joint) +
                               " must be a revolute joint to the world");
    }
    Arm a;
    a.body = j.bodyB - 1;
    const sim::SimBody& b = scene.bodies.at(a.body);
    a.pivot = j.anchor;
    a.axis = j.axis.normalized();
    a.startArm = b.pose.p - a.pivot;
    a.mass = b.mass;
    const Eigen::Vector3d across = a.startArm - a.axis * a.axis.dot(a.startArm);
    a.inertia = a.axis.dot(b.inertia * a.axis) + b.mass * across.squaredNorm();
    return a;
  }
  /// rad: its angle from the start about the axis.
  double angle(const sim::SimPeer& engine) const {
    return turnAbout(axis, startArm, engine.pose(body).p - pivot);
  }
  /// rad/s: its rate about the axis.
  double rate(const sim::SimPeer& engine) const { return axis.dot(engine.velocity(body).angular); }
  /// N m: gravity's torque about the axis at `angle`.
  double gravityTorque(const Eigen::Vector3d& gravity, double angle) const {
    const Eigen::Vector3d arm = Eigen::AngleAxisd(angle, axis) * startArm;
    return axis.dot(arm.cross(mass * gravity));
  }
};

class HingeMotor final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "hinge-motor"; }
  std::string_view description() const override {
    return "a 2 kg ball 0.5 m out on a horizontal hinge: a motor at -1 rad/s with 100 N m lifts "
           "it at its target rate; a motor at 0 rad/s with half the load's 9.81 N m stalls, "
           "exerting its limit";
  }
  double seconds() const override { return 1.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 2, name());
    if (scene.joints.size() != 2) throw std::runtime_error("hinge-motor: two joints expected");
    lift_ = Arm::of(scene, 0, name());
    stall_ = Arm::of(scene, 1, name());
    target_ = scene.joints[0].motor.targetVelocity;
    limit_ = scene.joints[1].motor.maxForce;
    gravity_ = scene.base.gravity;
    h_ = scene.base.dt;
    window_ = std::lround(0.1 / h_);
    lastRate_ = lastAngle_ = 0.0;
    torques_.clear();
  }

  void observe(const sim::SimPeer& engine, long step) override {
    finalRate_ = lift_.rate(engine);
    // The stalled motor's torque over the first 0.1 s (after the first two steps, in which an
    // engine's motor may still be taking up the load): gravity's torque at the step's mean angle
    // less the inertia times the angular acceleration.
    const double rate = stall_.rate(engine), angle = stall_.angle(engine);
    if (step > 2 && step <= window_) {
      const double accel = (rate - lastRate_) / h_;
      const double load = stall_.gravityTorque(gravity_, 0.5 * (angle + lastAngle_));
      torques_.push_back(load - stall_.inertia * accel);
    }
    lastRate_ = rate;
    lastAngle_ = angle;
  }

  std::vector<PhysicsCheck> checks() const override {
    double mean = 0.0;
    for (const double t : torques_) mean += t;
    mean = torques_.empty() ? NAN : mean / static_cast<double>(torques_.size());
    return {{"lifting motor's rate after 1 s", "rad/s", target_, 0.01 * std::abs(target_),
             finalRate_, "a motor with ten times the load's torque holds its target (1%)"},
            {"stalled motor's torque / its limit", "", 1.0, 0.01, std::abs(mean) / limit_,
             "a motor below its load exerts its limit (1%)"}};
  }

 private:
  Arm lift_, stall_;
  Eigen::Vector3d gravity_ = Eigen::Vector3d::Zero();
  double target_ = 0.0, limit_ = 0.0, h_ = 0.0, finalRate_ = 0.0;
  double lastRate_ = 0.0, lastAngle_ = 0.0;
  long window_ = 0;
  std::vector<double> torques_;
};

class HingeLimit final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "hinge-limit"; }
  std::string_view description() const override {
    return "a 2 kg ball 0.5 m out on a horizontal hinge driven down at 5 rad/s with 1000 N m "
           "into its 0.5 rad limit: stops at the limit";
  }
  double seconds() const override { return 2.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 1, name());
    if (scene.joints.size() != 1) throw std::runtime_error("hinge-limit: one joint expected");
    arm_ = Arm::of(scene, 0, name());
    const JointLimit& limit = scene.joints[0].limit;
    if (!limit.enabled) throw std::runtime_error("hinge-limit: the joint has no limit");
    upper_ = limit.upper;
    highest_ = -INFINITY;
  }

  void observe(const sim::SimPeer& engine, long) override {
    last_ = arm_.angle(engine);
    highest_ = std::max(highest_, last_);
  }

  std::vector<PhysicsCheck> checks() const override {
    const double degree = std::numbers::pi / 180.0;
    return {{"largest overshoot past the limit", "deg", 0.0, 0.5, (highest_ - upper_) / degree,
             "a limit overshoots by less than 0.5 deg"},
            {"angle after 2 s", "rad", upper_, 0.01, last_, "held at the limit"}};
  }

 private:
  Arm arm_;
  double upper_ = 0.0, highest_ = 0.0, last_ = 0.0;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeHingeMotor() {
  return std::make_unique<HingeMotor>();
}

std::unique_ptr<PhysicsScenario> makeHingeLimit() {
  return std::make_unique<HingeLimit>();
}

}  // namespace hb::physics
