// Restitution: bodies with restitution e dropped from rest onto the ground (restitution 0, so
// the contact's is e) rebound to e^2 h, and a cube landing flat does not start to spin.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

/// Height of a sphere's or box's lowest point.
double lowestPoint(const Shape& shape, const Pose& pose) {
  if (shape.type() == ShapeType::Sphere) return pose.p.z() - shape.radius();
  if (shape.type() != ShapeType::Box) {
    throw std::runtime_error("bounce: only spheres and boxes are measured");
  }
  double lowest = INFINITY;
  const Eigen::Vector3d& h = shape.halfExtents();
  for (int i = 0; i < 8; ++i) {
    const Eigen::Vector3d corner(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(),
                                 i & 4 ? h.z() : -h.z());
    lowest = std::min(lowest, pose.apply(corner).z());
  }
  return lowest;
}

class Bounce final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "bounce"; }
  std::string_view description() const override {
    return "spheres (drops of 0.3 to 3 m) and cubes landing flat (1 and 1.5 m), restitution "
           "0.5, dropped from rest: the first rebound's apex is e^2 h, and the cubes do not spin";
  }
  double seconds() const override { return 2.2; }

  void start(const sim::SimScene& scene) override {
    scene_ = &scene;
    gravity_ = scene.base.gravity.norm();
    dt_ = scene.base.dt;
    drops_.clear();
    for (const sim::SimBody& b : scene.bodies) {
      if (b.linearVelocity.norm() != 0.0 || b.angularVelocity.norm() != 0.0) {
        throw std::runtime_error("bounce: bodies must start at rest");
      }
      Drop d;
      d.height = lowestPoint(b.shape, b.pose * b.shapeInBody);
      d.restitution = std::max(b.material.restitution, scene.staticMaterial.restitution);
      d.box = b.shape.type() == ShapeType::Box;
      drops_.push_back(d);
    }
  }

  void observe(const sim::SimPeer& engine, long) override {
    for (size_t i = 0; i < drops_.size(); ++i) {
      Drop& d = drops_[i];
      const sim::SimBody& body = scene_->bodies[i];
      const double bottom =
          lowestPoint(body.shape, engine.pose(static_cast<int>(i)) * body.shapeInBody);
      const sim::BodyVelocity v = engine.velocity(static_cast<int>(i));
      if (!std::isfinite(bottom) || !v.linear.allFinite()) {
        d.apex = d.spin = NAN;
        d.phase = Phase::Done;
        continue;
      }
      switch (d.phase) {
        case Phase::Falling:
          // Rising clearly: the rebound has begun (a body that stops dead never rises).
          if (v.linear.z() > kRising) d.phase = Phase::Rising;
          break;
        case Phase::Rising:
          d.apex = std::max(d.apex, bottom);
          d.spin = std::max(d.spin, v.angular.norm());
          if (v.linear.z() < 0.0) d.phase = Phase::Done;
          break;
        case Phase::Done:
          break;
      }
    }
  }

  std::vector<PhysicsCheck> checks() const override {
    std::vector<PhysicsCheck> out;
    for (const Drop& d : drops_) {
      const double e = d.restitution;
      const double expected = e * e * d.height;
      // Semi-implicit Euler at this dt: the fall's and the rise's first-order errors move the
      // apex by up to (e^2 + e) v dt / 2 below e^2 h, v the impact speed.
      const double speed = std::sqrt(2.0 * gravity_ * d.height);
      const double slack = (e * e + e) * speed * dt_ / 2;
      char what[96];
      std::snprintf(what, sizeof what, "%s from %.1f m: apex / (e^2 h)", d.box ? "cube" : "sphere",
                    d.height);
      out.push_back({what, "", 1.0, slack / expected, d.apex / expected,
                     "(e^2 + e) v dt / 2 of semi-implicit Euler"});
      if (d.box) {
        std::snprintf(what, sizeof what, "cube from %.1f m: spin after landing flat", d.height);
        out.push_back({what, "rad/s", 0.0, 0.05, d.spin, "symmetric impact"});
      }
    }
    return out;
  }

 private:
  static constexpr double kRising = 0.1;  // m/s
  enum class Phase { Falling, Rising, Done };
  struct Drop {
    double height = 0.0;
    double restitution = 0.0;
    bool box = false;
    Phase phase = Phase::Falling;
    double apex = 0.0;
    double spin = 0.0;
  };
  const sim::SimScene* scene_ = nullptr;
  double gravity_ = 0.0, dt_ = 0.0;
  std::vector<Drop> drops_;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeBounce() {
  return std::make_unique<Bounce>();
}

}  // namespace hb::physics
