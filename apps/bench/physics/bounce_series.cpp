// Bounces over several impacts: cubes dropped flat from many heights keep bouncing flat, and a
// ball's rebound apexes fall as e^2 per bounce.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

/// A bouncing body's apexes: the highest point of its centre of mass between two impacts,
/// above where it was at the impact before (the lowest point since the previous apex).
class ApexTracker {
 public:
  void observe(double z, double vz) {
    if (!rising_) {
      lowest_ = std::min(lowest_, z);
      if (vz > kRising) {
        rising_ = true;
        highest_ = z;
      }
      return;
    }
    highest_ = std::max(highest_, z);
    if (vz < 0.0) {
      apexes_.push_back(highest_ - lowest_);
      rising_ = false;
      lowest_ = z;
    }
  }
  const std::vector<double>& apexes() const { return apexes_; }

 private:
  static constexpr double kRising = 0.1;  // m/s: a rebound has begun
  bool rising_ = false;
  double lowest_ = INFINITY, highest_ = 0.0;
  std::vector<double> apexes_;
};

class FlatBounces final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "flat-bounces"; }
  std::string_view description() const override {
    return "39 cubes of 0.1 m dropped perfectly flat from 0.1 to 2 m (every 5 cm), restitution "
           "0.5, for 3 s: every bounce is straight, none leaves spinning";
  }
  double seconds() const override { return 3.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 39, name());
    for (const sim::SimBody& b : scene.bodies) {
      if (b.shape.type() != ShapeType::Box ||
          b.pose.q.angularDistance(Eigen::Quaterniond::Identity()) > 0.0) {
        throw std::runtime_error("flat-bounces: the cubes must start axis-aligned");
      }
    }
    spin_.assign(scene.bodies.size(), 0.0);
  }

  void observe(const sim::SimPeer& engine, long) override {
    for (size_t i = 0; i < spin_.size(); ++i) {
      const double w = engine.velocity(static_cast<int>(i)).angular.norm();
      spin_[i] = std::isfinite(w) ? std::max(spin_[i], w) : NAN;
    }
  }

  std::vector<PhysicsCheck> checks() const override {
    int spinning = 0;
    double largest = 0.0;
    for (const double w : spin_) {
      if (!(w <= kSpinning)) ++spinning;
      largest = std::isnan(w) || std::isnan(largest) ? NAN : std::max(largest, w);
    }
    return {{"cubes that picked up spin", "", 0.0, 0.0, static_cast<double>(spinning),
             "symmetric impacts (a cube spins above 0.05 rad/s)"},
            {"largest spin", "rad/s", 0.0, kSpinning, largest, "symmetric impacts"}};
  }

 private:
  static constexpr double kSpinning = 0.05;  // rad/s
  std::vector<double> spin_;
};

class BounceApexes final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "bounce-apexes"; }
  std::string_view description() const override {
    return "a ball with restitution 0.5 dropped from 1 m: its first three rebounds reach e^2 h, "
           "e^4 h and e^6 h";
  }
  double seconds() const override { return 2.5; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 1, name());
    const sim::SimBody& b = scene.bodies[0];
    if (b.shape.type() != ShapeType::Sphere || b.linearVelocity.norm() != 0.0) {
      throw std::runtime_error("bounce-apexes: a ball dropped from rest");
    }
    height_ = b.pose.p.z() - b.shape.radius();
    restitution_ = std::max(b.material.restitution, scene.staticMaterial.restitution);
    tracker_ = {};
  }

  void observe(const sim::SimPeer& engine, long) override {
    tracker_.observe(engine.pose(0).p.z(), engine.velocity(0).linear.z());
  }

  std::vector<PhysicsCheck> checks() const override {
    std::vector<PhysicsCheck> out;
    const std::vector<double>& apexes = tracker_.apexes();
    for (int k = 1; k <= 3; ++k) {
      const double expected = height_ * std::pow(restitution_, 2 * k);
      const double measured = k <= static_cast<int>(apexes.size()) ? apexes[k - 1] : 0.0;
      char what[64];
      std::snprintf(what, sizeof what, "apex %d / (e^%d h)", k, 2 * k);
      out.push_back({what, "", 1.0, 0.1, measured / expected, "Newton's restitution, 10%"});
    }
    return out;
  }

 private:
  double height_ = 0.0, restitution_ = 0.0;
  ApexTracker tracker_;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeFlatBounces() {
  return std::make_unique<FlatBounces>();
}

std::unique_ptr<PhysicsScenario> makeBounceApexes() {
  return std::make_unique<BounceApexes>();
}

}  // namespace hb::physics
