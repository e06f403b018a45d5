// Oblique collisions of frictionless balls: the struck ball leaves along the line of centres at
// impact, at asin(b / 2r) from the striker's path for an impact parameter b.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

class ObliqueImpacts final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "oblique-impacts"; }
  std::string_view description() const override {
    return "pairs of frictionless balls (r 5 cm), restitution 1, no gravity: a striker at 2 m/s "
           "meets a ball at rest offset sideways by b = 0.1 to 0.9 of 2r, each at another time "
           "within a step; the struck ball leaves at asin(b / 2r) from the striker's path";
  }
  double seconds() const override { return 0.5; }

  void start(const sim::SimScene& scene) override {
    if (scene.bodies.empty() || scene.bodies.size() % 2 != 0) {
      throw std::runtime_error("oblique-impacts: the scene must hold pairs of balls");
    }
    pairs_.clear();
    for (size_t i = 0; i < scene.bodies.size(); i += 2) {
      const sim::SimBody& striker = scene.bodies[i];
      const sim::SimBody& struck = scene.bodies[i + 1];
      if (striker.shape.type() != ShapeType::Sphere || struck.shape.type() != ShapeType::Sphere ||
          struck.linearVelocity.norm() != 0.0 || striker.linearVelocity.norm() == 0.0) {
        throw std::runtime_error("oblique-impacts: a moving ball then a ball at rest, per pair");
      }
      Pair p;
      p.path = striker.linearVelocity.normalized();
      const Eigen::Vector3d offset = struck.pose.p - striker.pose.p;
      const Eigen::Vector3d sideways = offset - offset.dot(p.path) * p.path;
      p.side = sideways.normalized();
      const double reach = striker.shape.radius() + struck.shape.radius();
      p.ratio = sideways.norm() / reach;
      p.expected = std::asin(p.ratio) * 180.0 / std::numbers::pi;
      pairs_.push_back(p);
    }
  }

  void observe(const sim::SimPeer& engine, long) override {
    for (size_t k = 0; k < pairs_.size(); ++k) {
      pairs_[k].velocity = engine.velocity(static_cast<int>(2 * k + 1)).linear;
    }
  }

  std::vector<PhysicsCheck> checks() const override {
    std::vector<PhysicsCheck> out;
    for (const Pair& p : pairs_) {
      const double angle =
          std::atan2(p.velocity.dot(p.side), p.velocity.dot(p.path)) * 180.0 / std::numbers::pi;
      char what[64];
      std::snprintf(what, sizeof what, "b = %.1f (2r): struck ball's angle", p.ratio);
      out.push_back({what, "deg", p.expected, 1.0, angle, "line of centres at impact, 1 deg"});
    }
    return out;
  }

 private:
  struct Pair {
    Eigen::Vector3d path = Eigen::Vector3d::UnitX(), side = Eigen::Vector3d::UnitY();
    double ratio = 0.0, expected = 0.0;
    Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  };
  std::vector<Pair> pairs_;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeObliqueImpacts() {
  return std::make_unique<ObliqueImpacts>();
}

}  // namespace hb::physics
