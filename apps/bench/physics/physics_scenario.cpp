#include "apps/bench/physics/physics_scenario.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {

bool PhysicsCheck::passed() const {
  return std::isfinite(measured) && std::abs(measured - expected) <= tolerance;
}

Eigen::Vector3d angularMomentum(const sim::SimBody& body, const Pose& pose,
                                const Eigen::Vector3d& angularVelocity) {
  const Eigen::Matrix3d r = pose.q.toRotationMatrix();
  return r * (body.inertia * (r.transpose() * angularVelocity));
}

double rotationalEnergy(const sim::SimBody& body, const Pose& pose,
                        const Eigen::Vector3d& angularVelocity) {
  return 0.5 * angularVelocity.dot(angularMomentum(body, pose, angularVelocity));
}

void requireBodies(const sim::SimScene& scene, int count, std::string_view scenario) {
  if (static_cast<int>(scene.bodies.size()) != count) {
    throw std::runtime_error("physics scenario " + std::string(scenario) + " expects " +
                             std::to_string(count) + " bodies in its scene, found " +
                             std::to_string(scene.bodies.size()));
  }
}

Ramp findRamp(const sim::SimScene& scene, std::string_view scenario) {
  const sim::SimStatic* ramp = nullptr;
  for (const sim::SimStatic& s : scene.statics) {
    if (s.pose.q.angularDistance(Eigen::Quaterniond::Identity()) > 1e-9) ramp = &s;
  }
  if (!ramp) throw std::runtime_error(std::string(scenario) + ": the scene has no tilted ramp");
  Ramp out;
  out.downhill = ramp->pose.q * Eigen::Vector3d::UnitX();
  if (out.downhill.z() > 0.0) out.downhill = -out.downhill;
  const Eigen::Vector3d normal = ramp->pose.q * Eigen::Vector3d::UnitZ();
  out.angle = std::acos(std::clamp(normal.normalized().z(), -1.0, 1.0));
  return out;
}

std::vector<std::unique_ptr<PhysicsScenario>> makePhysicsScenarios() {
  std::vector<std::unique_ptr<PhysicsScenario>> out;
  out.push_back(makeFreeFlight());
  out.push_back(makeFreeRotation());
  out.push_back(makeFastSpin());
  out.push_back(makeIntermediateAxis());
  out.push_back(makeBounce());
  out.push_back(makeBounceApexes());
  out.push_back(makeFlatBounces());
  out.push_back(makeHeadOn());
  out.push_back(makeObliqueImpacts());
  out.push_back(makeSlope(SlopeCase::Sticking));
  out.push_back(makeSlope(SlopeCase::Sliding));
  out.push_back(makeRollingBall());
  out.push_back(makeSlidingStop());
  out.push_back(makeRestingRound());
  out.push_back(makeStack(10));
  out.push_back(makeStack(20));
  out.push_back(makeLeaningTower(false));
  out.push_back(makeLeaningTower(true));
  out.push_back(makePyramid());
  out.push_back(makePendulum(false));
  out.push_back(makePendulum(true));
  out.push_back(makeDoublePendulum());
  out.push_back(makeChain(false));
  out.push_back(makeChain(true));
  out.push_back(makeHingeMotor());
  out.push_back(makeHingeLimit());
  return out;
}

std::filesystem::path scenarioScene(const PhysicsScenario& scenario,
                                    const std::filesystem::path& sceneDir) {
  return sceneDir / (std::string(scenario.name()) + ".json");
}

std::vector<PhysicsCheck> runPhysicsScenario(PhysicsScenario& scenario, const sim::SimScene& scene,
                                             sim::SimPeer& engine) {
  scenario.start(scene);
  const long steps = std::lround(scenario.seconds() / scene.base.dt);
  const int bodies = static_cast<int>(scene.bodies.size());
  int dropped = 0;
  for (long s = 0; s < steps; ++s) {
    while (dropped < bodies && scene.bodies[dropped].dropStep <= s) engine.drop(dropped++);
    engine.step();
    scenario.observe(engine, s + 1);
  }
  return scenario.checks();
}

}  // namespace hb::physics
