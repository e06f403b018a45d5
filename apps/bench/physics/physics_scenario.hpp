#pragma once
// Physics scenarios with analytic answers (free flight and rotation, the intermediate-axis flip,
// restitution, friction, stacks, head-on collisions, joints): a scene file under
// assets/scenes/physics/, what to measure on any engine's trajectory, and the answer mechanics
// gives. `heavyball bench physics` runs them in every engine of `bench sim`; tests/physics asserts
// heavyball's answers.

#include <Eigen/Core>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "apps/bench/sim/sim_peer.hpp"
#include "apps/bench/sim/sim_scene.hpp"

namespace hb::physics {

/// One measured quantity against its analytic value.
struct PhysicsCheck {
  std::string quantity;  ///< what is measured, e.g. "L direction drift"
  std::string unit;      ///< of expected, tolerance and measured ("" for ratios and counts)
  double expected = 0.0;
  double tolerance = 0.0;  ///< passes when |measured - expected| <= tolerance
  double measured = 0.0;
  /// Why the tolerance is what it is (e.g. the integrator's known first-order error).
  std::string basis;

  bool passed() const;
};

/// Body i's angular momentum about its centre of mass (world), from its mass properties as the
/// scene gives them and the engine's orientation and angular velocity.
Eigen::Vector3d angularMomentum(const sim::SimBody& body, const Pose& pose,
                                const Eigen::Vector3d& angularVelocity);
/// Its kinetic energy of rotation about the centre of mass (J).
double rotationalEnergy(const sim::SimBody& body, const Pose& pose,
                        const Eigen::Vector3d& angularVelocity);

class PhysicsScenario {
 public:
  virtual ~PhysicsScenario() = default;

  /// Short name, also the scene file's name without extension ("free-rotation").
  virtual std::string_view name() const = 0;
  /// One line: the set-up and what mechanics predicts.
  virtual std::string_view description() const = 0;
  virtual double seconds() const = 0;

  /// Called once with the scene as built, before the first step: checks that the scene is the
  /// one the measurement expects (throws std::runtime_error otherwise) and resets the state.
  virtual void start(const sim::SimScene& scene) = 0;
  /// Called after every step (`step` = steps done, from 1).
  virtual void observe(const sim::SimPeer& engine, long step) = 0;
  /// The measured quantities against their answers, after the last step.
  virtual std::vector<PhysicsCheck> checks() const = 0;
};

/// Every scenario, fresh, in table order.
std::vector<std::unique_ptr<PhysicsScenario>> makePhysicsScenarios();
/// The scene file of a scenario in `sceneDir` (assets/scenes/physics).
std::filesystem::path scenarioScene(const PhysicsScenario& scenario,
                                    const std::filesystem::path& sceneDir);

/// Runs a scenario on an engine from its built scene (bodies dropped at their steps) and returns
/// its checks. Throws sim::SimDiverged when the engine blows up.
std::vector<PhysicsCheck> runPhysicsScenario(PhysicsScenario& scenario, const sim::SimScene& scene,
                                             sim::SimPeer& engine);

}  // namespace hb::physics
