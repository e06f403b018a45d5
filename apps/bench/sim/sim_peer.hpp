#pragma once
// One engine running a SimScene for `heavyball bench sim`: heavyball's own World, and other
// libraries' rigid-body engines (Bullet, MuJoCo), each in its own file and built only when its
// library is found, so that only that file parses the library's headers.
//
// Every engine keeps its own body frames; poses and mass properties cross this interface in
// heavyball's body frames (origin at the centre of mass, axes of the body's shape), so that one
// measurement (heavyball's narrow phase on the returned poses) serves all engines.

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "apps/bench/sim/sim_scene.hpp"
#include "collision/pose.hpp"

namespace hb::sim {

/// An engine's simulation blew up (non-finite or reset state): a result, not a setup error.
class SimDiverged : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Mass properties as an engine stores them, brought back to the world frame.
struct BodyMass {
  double mass = 0.0;                                       ///< kg
  Eigen::Vector3d centerOfMass = Eigen::Vector3d::Zero();  ///< m, world
  Eigen::Matrix3d inertiaWorld = Eigen::Matrix3d::Zero();  ///< kg m^2, about the centre of mass
};

/// A body's velocities, world frame.
struct BodyVelocity {
  Eigen::Vector3d linear = Eigen::Vector3d::Zero();   ///< m/s, of the centre of mass
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();  ///< rad/s
};

class SimPeer {
 public:
  virtual ~SimPeer() = default;

  /// Row name in the table ("heavyball", "bullet", "mujoco", "mujoco-implicit").
  virtual std::string_view name() const = 0;
  /// Library version and every setting chosen, one line.
  virtual std::string settings() const = 0;

  /// Puts body i of the scene in at its initial state. Bodies enter in order (i = 0, 1, ...),
  /// each before the step scene.bodies[i].dropStep.
  virtual void drop(int body) = 0;
  /// Advances by the scene's dt. Throws SimDiverged when the engine finds its state broken.
  virtual void step() = 0;

  /// Pose of dropped body i's heavyball body frame.
  virtual Pose pose(int body) const = 0;
  /// Velocities of dropped body i.
  virtual BodyVelocity velocity(int body) const = 0;
  /// Mass and inertia of dropped body i as the engine holds them, at its current pose.
  virtual BodyMass massProperties(int body) const = 0;
  /// What the engine reported as going wrong during the run (e.g. full contact buffers).
  virtual std::vector<std::string> warnings() const { return {}; }
};

/// Names of the other engines, built or not, in table order: "bullet", "mujoco",
/// "mujoco-implicit".
std::vector<std::string> simPeerNames();
/// Why an engine is missing from this build (e.g. its library was not found when heavyball was
/// configured); nullopt when it is built. Throws std::invalid_argument for an unknown name.
std::optional<std::string> simPeerUnavailable(std::string_view name);
/// The engine on a scene (kept by reference: it must outlive the engine). Throws
/// std::invalid_argument for an unknown or unbuilt engine, and std::runtime_error when the
/// engine rejects the scene.
std::unique_ptr<SimPeer> makeSimPeer(std::string_view name, const SimScene& scene);

/// heavyball's World on the scene: the statics and settings of scene.base, bodies added with
/// World::addBody.
/// heavyball's World stepping on `threads` workers (World::setThreads; 0: one per core).
std::unique_ptr<SimPeer> makeHeavyballSim(const SimScene& scene, int threads = 1);
#ifdef HB_HAVE_BULLET_SIM
/// btDiscreteDynamicsWorld with its sequential-impulse solver.
std::unique_ptr<SimPeer> makeBulletSim(const SimScene& scene);
#endif
#ifdef HB_HAVE_MUJOCO_SIM
/// The MuJoCo integrators the bench compares.
enum class MujocoIntegrator {
  Euler,     ///< semi-implicit Euler, MuJoCo's default: row "mujoco"
  Implicit,  ///< implicit in velocity (mjINT_IMPLICIT): row "mujoco-implicit"
};
/// MuJoCo's model compiled from MJCF written in memory, stepped with `integrator`.
std::unique_ptr<SimPeer> makeMujocoSim(const SimScene& scene, MujocoIntegrator integrator);
#endif

}  // namespace hb::sim
