// Head-on collisions of spheres without gravity, from a gap that is no multiple of the step's
// motion: momentum is conserved and the relative velocity reverses by the restitution e.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

class HeadOn final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "head-on"; }
  std::string_view description() const override {
    return "pairs of spheres (0.1 and 0.05 m, 2 and -1 m/s) meeting head-on after a 0.4237 m "
           "gap, restitution 0, 0.5 and 1, no gravity: momentum kept, relative velocity -e";
  }
  double seconds() const override { return 1.0; }

  void start(const sim::SimScene& scene) override {
    if (scene.bodies.empty() || scene.bodies.size() % 2 != 0) {
      throw std::runtime_error("head-on: the scene must hold pairs of bodies");
    }
    scene_ = &scene;
    last_.assign(scene.bodies.size(), {});
  }

  void observe(const sim::SimPeer& engine, long) override {
    for (size_t i = 0; i < last_.size(); ++i) last_[i] = engine.velocity(static_cast<int>(i));
  }

  std::vector<PhysicsCheck> checks() const override {
    std::vector<PhysicsCheck> out;
    for (size_t i = 0; i + 1 < last_.size(); i += 2) {
      const sim::SimBody& a = scene_->bodies[i];
      const sim::SimBody& b = scene_->bodies[i + 1];
      const Eigen::Vector3d axis = (b.pose.p - a.pose.p).normalized();
      const Eigen::Vector3d before = a.mass * a.linearVelocity + b.mass * b.linearVelocity;
      const Eigen::Vector3d after = a.mass * last_[i].linear + b.mass * last_[i + 1].linear;
      const double approach = (b.linearVelocity - a.linearVelocity).dot(axis);
      const double separation = (last_[i + 1].linear - last_[i].linear).dot(axis);
      const double e = std::max(a.material.restitution, b.material.restitution);
      char what[96];
      std::snprintf(what, sizeof what, "e = %.1f: momentum change / momentum", e);
      out.push_back({what, "", 0.0, 1e-9, (after - before).norm() / before.norm(),
                     "equal and opposite impulses"});
      std::snprintf(what, sizeof what, "e = %.1f: relative velocity after / before", e);
      out.push_back({what, "", -e, 1e-3, separation / approach, "Newton's restitution law"});
    }
    return out;
  }

 private:
  const sim::SimScene* scene_ = nullptr;
  std::vector<sim::BodyVelocity> last_;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeHeadOn() {
  return std::make_unique<HeadOn>();
}

}  // namespace hb::physics
