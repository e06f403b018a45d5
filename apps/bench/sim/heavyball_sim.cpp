// heavyball's own World behind the SimPeer interface.

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <stdexcept>

#include "apps/bench/sim/sim_peer.hpp"
#include "engine/world.hpp"

namespace hb::sim {
namespace {

class HeavyballSim final : public SimPeer {
 public:
  HeavyballSim(const SimScene& scene, int threads) : scene_(scene), world_(scene.base, threads) {
    // The rounded cores of the bodies' boxes and hulls are built now, untimed, as the World's
    // own spawner builds them before its first step, rather than in the timed drops.
    for (const SimBody& b : scene.bodies) {
      if (b.shape.type() == ShapeType::Box || b.shape.type() == ShapeType::ConvexHull) {
        b.shape.withConvexRadius(scene.base.solver.convexRadius);
      }
    }
  }

  std::string_view name() const override { return "heavyball"; }

  std::string settings() const override {
    const SolverDescription& s = scene_.base.solver;
    const std::string schedule =
        s.softSubsteps > 0
            ? fmt::format(
                  "the soft step: {} substeps of a soft and a relax sweep ({} passes per "
                  "manifold), contacts of {:g} Hz with damping ratio {:g}",
                  s.softSubsteps, s.manifoldIterations, s.contactHertz, s.contactDampingRatio)
            : fmt::format(
                  "{} velocity ({} passes per manifold), a shock pass from the ground up "
                  "({} passes per manifold) and {} position iterations, tolerance {:g} m/s",
                  s.velocityIterations, s.manifoldIterations, s.shockIterations,
                  s.positionIterations, s.solverTolerance);
    return fmt::format(
        "heavyball {}: GJK {} (warm start {}) on boxes and hulls rounded by {:g} m, EPA, contact "
        "manifolds with {:g} m speculative margin; PGS on the Coulomb cone, {}; restitution above "
        "{:g} m/s; sleeping {}; steps split into up to {} substeps while contacts turn fast, and "
        "of at most 1 / {:g} s "
        "while a joint holds an awake body; {} worker thread(s)",
        HB_VERSION, toString(s.gjkVariant), toString(s.warmStart), s.convexRadius,
        s.speculativeMargin, schedule, s.restitutionThreshold, s.sleeping ? "on" : "off",
        s.maxSubsteps, s.jointRate, world_.threads());
  }

  void drop(int body) override {
    const int index = world_.addBody(scene_.bodies.at(body).description);
    if (index != body + 1) throw std::logic_error("heavyball sim: bodies dropped out of order");
    for (const JointDescription& j : scene_.joints) {
      if (std::max(j.bodyA, j.bodyB) == index) world_.addJoint(j);
    }
  }

  void step() override { world_.step(); }

  Pose pose(int body) const override { return world_.bodyPose(body + 1); }

  BodyVelocity velocity(int body) const override {
    const RigidBody& r = world_.rigidBodies().at(body + 1);
    return {r.linearVelocity, r.angularVelocity};
  }

  BodyMass massProperties(int body) const override {
    const RigidBody& r = world_.rigidBodies().at(body + 1);
    return {1.0 / r.inverseMass, r.position, r.inverseInertiaWorld().inverse()};
  }

  std::vector<std::string> warnings() const override {
    if (world_.nonFinite()) return {"non-finite body state"};
    return {};
  }

 private:
  const SimScene& scene_;
  World world_;
};

}  // namespace

std::unique_ptr<SimPeer> makeHeavyballSim(const SimScene& scene, int threads) {
  return std::make_unique<HeavyballSim>(scene, threads);
}

}  // namespace hb::sim
