#pragma once
// The world and its 120 Hz step (docs/design.md). World::step is the list of its stages, each a
// function over the state it reads and writes (engine/step/stages.hpp), handing its results to
// the next through one StepContext (engine/step_context.hpp): find pairs, collide (and wake what
// is touched), build contacts, integrate velocities, solve, update the pair cache, integrate,
// continuous collision, restitution, sleep. Deterministic: the same
// scene and seed give bit-identical states.

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "collision/broad_phase.hpp"
#include "collision/collide.hpp"
#include "collision/contact_manifold.hpp"
#include "collision/impact_manifold.hpp"
#include "collision/obb.hpp"
#include "collision/persistent_manifold.hpp"
#include "collision/time_of_impact.hpp"
#include "dynamics/contact_constraint.hpp"
#include "dynamics/contact_solver.hpp"
#include "dynamics/integrator.hpp"
#include "dynamics/islands.hpp"
#include "dynamics/joint.hpp"
#include "dynamics/rigid_body.hpp"
#include "engine/asset_library.hpp"
#include "engine/byte_archive.hpp"
#include "engine/pair_cache.hpp"
#include "engine/scene.hpp"
#include "engine/step/stages.hpp"
#include "engine/step_context.hpp"
#include "engine/step_statistics.hpp"
#include "engine/worker_pool.hpp"
#include "engine/world_tables.hpp"

namespace hb {

namespace world_snapshot {
struct Snapshot;  // engine/world_snapshot.cpp
}

/// What World::setBodyState changes: the fields given; the others keep their values.
struct BodyStateUpdate {
  std::optional<Eigen::Vector3d> position;         ///< centre of mass, world (m)
  std::optional<Eigen::Quaterniond> orientation;   ///< body -> world, unit within 1e-6
  std::optional<Eigen::Vector3d> linearVelocity;   ///< m/s
  std::optional<Eigen::Vector3d> angularVelocity;  ///< rad/s, world frame
};

class World {
 public:
  /// Builds the statics, the listed bodies and the spawner's first drops, on `threads` workers
  /// (0: one per core; setThreads changes them later), which also build the spawner's assets at
  /// once. Throws on bad assets.
  explicit World(const SceneDescription& scene, int threads = 0);
  // The solver hands its work to this world's workers: a world stays where it was built.
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  /// Advances by one dt. Throws PairLimitError when the broad phase finds more pairs than the
  /// scene allows (solver.max_pairs_per_piece); a world whose first substep threw is as before
  /// the step (its spawner's due drops added).
  void step();

  /// Removes a dynamic body with its pieces, after waking what slept with it; the bodies after
  /// it move down one index (and their pieces down by its piece count). The last step's contacts
  /// and narrow-phase records are cleared (they name the old indices). A snapshot saved before
  /// restores only into a world with the same bodies in the same order.
  void removeBody(int body);
  /// Adds a dynamic body; returns its index.
  int addBody(const BodyDescription& body);
  /// Applies an impulse (N s, world frame) at a world point of a dynamic body and wakes it (with
  /// its sleeping island); the velocities change at once (e.g. a mouse spring applied before
  /// step()). Throws std::out_of_range for no such body, std::invalid_argument for a static
  /// one, a non-finite or far point or impulse, or velocities it would make absurd.
  void applyImpulse(int body, const Eigen::Vector3d& worldPoint, const Eigen::Vector3d& impulse);

  // --- Joints (engine/world_joints.cpp; dynamics/joint.hpp). Body 0 is the world: a joint to
  // it holds a body to a fixed frame (frameA then in world coordinates). Two bodies a joint
  // holds do not collide with each other. Joints take either schedule (the rigid sweeps or the
  // soft step). Snapshots hold the joints (their settings, targets and forces): restoring one
  // puts back the joints it had.

  /// Adds a joint; returns its index. Throws std::out_of_range for a body that does not exist,
  /// std::invalid_argument for a joint of a body to itself or between two static ones,
  /// non-finite or non-unit frames, a limit with lower > upper, a motor, spring or friction
  /// with a negative or non-finite value. Wakes both bodies.
  int addJoint(const Joint& joint);
  /// Adds a joint given in the world (anchor, axis: body indices as the world's, 0 the world) at
  /// its bodies' current poses, as a scene file's joint is added; checked as above.
  int addJoint(const JointDescription& description);
  std::span<const Joint> joints() const { return joints_; }
  /// The index of the joint of that name, or -1.
  int findJoint(std::string_view name) const;
  /// Replaces a joint's motor, limits, spring or friction, or a spherical joint's twist limit
  /// (checked as addJoint checks them), and wakes its bodies.
  void setJointMotor(int joint, const JointMotor& motor);
  void setJointLimit(int joint, const JointLimit& limit);
  void setJointTwist(int joint, const JointLimit& twist);
  void setJointSpring(int joint, const JointSpring& spring);
  void setJointFriction(int joint, double friction);
  /// Sets the targets of a joint's motor (position: rad or m; velocity: rad/s or m/s), keeping
  /// its gains and force limit, and enables it: what a controller calls every step.
  void setJointTargets(int joint, double position, double velocity);
  /// The same for a spherical joint's motor: the turn target (a rotation vector along A's frame
  /// axes, rad) and the spin target (rad/s along the same axes).
  void setJointTargets(int joint, const Eigen::Vector3d& turn, const Eigen::Vector3d& spin);

  // --- Driving an experiment (engine/world_control.cpp). Body indices out of range throw
  // std::out_of_range; the static body 0 and bad values throw std::invalid_argument, naming the
  // argument, before anything changes.

  /// Sets the given parts of a dynamic body's state and wakes it (with its sleeping island). The
  /// pairs of its pieces forget their warm starts and kept manifolds: the body moved without
  /// the motion they extrapolate.
  void setBodyState(int body, const BodyStateUpdate& update);
  /// A force (N, world) at a world point (default: the centre of mass) for the next step only.
  void applyForce(int body, const Eigen::Vector3d& force,
                  const std::optional<Eigen::Vector3d>& worldPoint = std::nullopt);
  /// A torque (N m, world) for the next step only.
  void applyTorque(int body, const Eigen::Vector3d& torque);
  /// A force (N, at the centre of mass) and torque (N m), world frame, held on every step until
  /// set again (zero clears them). A body under a force does not fall asleep.
  void setExternalForce(int body, const Eigen::Vector3d& force, const Eigen::Vector3d& torque);
  const ExternalForces& externalForces(int body) const;
  const Eigen::Vector3d& gravity() const { return scene_.gravity; }
  /// m/s^2. The energy bookkeeping (energyGain) moves with it, so that a change of gravity is
  /// not counted as energy from nowhere.
  void setGravity(const Eigen::Vector3d& gravity);
  /// Friction and restitution of a body's contacts from the next step (body 0: the statics').
  void setMaterial(int body, const Material& material);
  /// A dynamic body's mass (kg), its inertia scaled with it (the same density throughout).
  void setMass(int body, double mass);
  /// The sum of the contact impulses on a body in the last step's last (sub)step, world frame
  /// (N s): with one substep, its weight times dt for a body at rest on the ground.
  Eigen::Vector3d bodyContactImpulse(int body) const;
  /// A contact a sleeping body rests on, as the pair cache keeps it for its waking.
  struct RestingContact {
    int bodyA = 0, bodyB = 0;
    Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< world, on body A
    Eigen::Vector3d force = Eigen::Vector3d::Zero();  ///< on B (N, world) when it fell asleep
  };
  /// The contacts of the pairs whose awake bodies are none (World::contacts() has only those
  /// solved in the last step), in the order of their pieces.
  std::vector<RestingContact> restingContacts() const;

  // --- Snapshots (engine/world_snapshot.cpp).

  /// Everything a step depends on, as bytes: the bodies (state, mass, material, sleep, forces),
  /// the pair cache (warm starts, kept manifolds, contact forces), the joints (settings, targets,
  /// forces), the spawner and its random state, the step and round counters and the energy
  /// bookkeeping. Not the settings (solver,
  /// gravity, threads) nor the last step's contacts and statistics. Stepping after
  /// restoreState gives the states stepping on would have given, bit for bit.
  std::vector<std::uint8_t> saveState() const;
  /// Back to a saved state. Bodies added since are removed; bodies of the snapshot this world
  /// lacks are added again (assets and primitive shapes; an inline mesh, superquadric or
  /// support-function body must be added first). Throws SnapshotError for a truncated or damaged
  /// snapshot, another format or another scene; the world is unchanged then.
  void restoreState(std::span<const std::uint8_t> snapshot);
  /// Back to the state right after construction.
  void reset();

  const SceneDescription& scene() const { return scene_; }
  /// Solver settings; changes apply from the next step.
  SolverDescription& solverSettings() { return scene_.solver; }
  /// Body 0 holds every static piece; bodies 1.. are the dynamic ones, in order of creation.
  const std::vector<WorldBody>& bodies() const { return bodies_.info; }
  /// Dynamics state, parallel to bodies().
  const std::vector<RigidBody>& rigidBodies() const { return bodies_.state; }
  const std::vector<Proxy>& proxies() const { return pieces_.proxy; }
  /// Each proxy's box in the world at the current poses.
  const std::vector<Obb>& worldObbs() const { return pieces_.worldObb; }
  /// Highest point of any dynamic piece's world box (-infinity without one).
  double highestDynamicTop() const { return highestDynamicTop_; }
  const std::vector<ContactConstraint>& contacts() const { return context_.contacts; }
  /// The narrow phase of the last step's last substep (whose contacts contacts() holds).
  const std::vector<NarrowPhaseRecord>& narrowPhaseRecords() const { return context_.narrowPhase; }
  /// The narrow phases of the last step's earlier substeps, in order (empty in a step of one).
  const std::vector<NarrowPhaseRecord>& earlierSubstepRecords() const {
    return context_.earlierNarrowPhase;
  }
  const StepStatistics& lastStep() const { return stats_; }
  /// The substeps a body's island took in the last step (planSubsteps; a body a contact woke
  /// during the step, those of the island that woke it): 0 for a static body or one asleep
  /// throughout.
  int bodySubsteps(int body) const {
    checkBodyIndex(body, "bodySubsteps");
    return body < static_cast<int>(context_.bodySubsteps.size()) ? context_.bodySubsteps[body] : 0;
  }
  /// The workers the step runs on: `threads` of them (0: one per core; the default). Every
  /// count gives the same states bit for bit.
  void setThreads(int threads);
  int threads() const { return workers_.threads(); }
  /// When a pair's contact manifold from an earlier step is re-posed instead of rebuilt
  /// (collision/persistent_manifold.hpp); changes apply from the next step.
  ManifoldReuseTolerances& manifoldReuse() { return manifoldReuse_; }
  /// Contact manifolds of the last step that were re-posed rather than rebuilt.
  int reusedManifolds() const { return context_.reusedManifolds; }
  AssetLibrary& assets() { return *assets_; }

  /// Pose of body i's centre-of-mass frame, and of proxy p's piece frame, in the world.
  Pose bodyPose(int i) const;
  Pose proxyPose(int p) const;
  long stepCount() const { return stepCount_; }
  double time() const { return stepCount_ * scene_.dt; }
  /// Dynamic bodies outside the scene bounds.
  int escapedBodies() const;
  /// True once any body's state became invalid (RigidBody::isValid: NaN, infinite, an
  /// overflowing kinetic energy or a non-unit orientation); step() then does nothing.
  bool nonFinite() const { return nonFinite_; }
  double kineticEnergy() const;
  /// Kinetic plus gravitational potential energy of the dynamic bodies (J, height measured
  /// along -gravity from the origin).
  double mechanicalEnergy() const;
  /// Mechanical energy beyond what the bodies brought in (when added, by applyImpulse, and by
  /// the joints' motors and springs), J.
  /// Contacts, friction and sleep only take energy away, so a gain beyond energyGainLimit()
  /// means the simulation blew up.
  double energyGain() const { return mechanicalEnergy() - energyIn_; }
  /// 1% of the bodies' weight times a metre plus 1% of the kinetic energy they brought in (J):
  /// room for the split impulses lifting bodies out of penetration, and for rounding.
  double energyGainLimit() const { return 0.01 * energyScale_ + 1e-12; }

  /// Called after every step (recorder, statistics, viewer).
  void addObserver(std::function<void(const World&)> observer) {
    observers_.push_back(std::move(observer));
  }

 private:
  /// Hands the workers to the contact solver (its small islands and its coloured sweeps).
  void connectWorkers();
  void addStatic(const StaticDescription& s);
  /// A dynamic body, or std::out_of_range / std::invalid_argument naming `what`.
  RigidBody& dynamicBody(int body, const char* what);
  void checkBodyIndex(int body, const char* what) const;
  /// Throws SnapshotError unless the snapshot is of this scene and its bodies are this world's
  /// (or ones it can add); returns how many bodies both have.
  size_t checkSnapshotFits(const world_snapshot::Snapshot& snapshot) const;
  /// Removes the bodies from `count` on (the last ones added) with their pieces.
  void truncateBodies(int count);
  /// Forgets the pair cache entries of a body's pieces.
  void forgetPairs(int body);
  /// Wakes the bodies under a force and keeps them awake (World::step, before the substeps).
  void wakeForced();
  int addProxy(int body, const Shape& shape, const Pose& inBody, const Obb* localObb = nullptr);
  Pose piecePose(int body, const Pose& inBody) const;
  void spawnDue();
  /// Wakes a sleeping body and every body that fell asleep in the same island.
  /// Returns how many bodies woke.
  int wakeIsland(int body) { return hb::wakeIsland(bodies_, body); }

  /// The step's broad and narrow phase (a round of collision, counted in collisionRound_).
  void findAndCollide();
  /// `count` substeps of the awake bodies, the first from the narrow phase that ran; a pair the
  /// last one sees is stamped with `lastRound` (the step's last round of collision).
  void runSubsteps(int count, long lastRound);
  /// The step in one pass per count of substeps (planSubsteps), islands apart.
  void runPasses();
  /// Sets the substeps of the bodies woken since the plan (StepContext::bodySubsteps).
  void noteWokenBodies(int substeps);
  /// Runs one stage of step() and adds its time to the step's statistics.
  template <class Run>
  void runStage(Stage stage, Run run);
  /// Where the step is, for its stages (engine/step/stages.hpp).
  StepClock clock() const;
  double substepLength() const { return scene_.dt / substeps_; }
  void updateWorldObbs() { highestDynamicTop_ = updateWorldBoxes(bodies_, pieces_, workers_); }
  void raiseDynamicTop(const Obb& dynamicBox);
  double bodyEnergy(const RigidBody& dynamicBody) const;

  SceneDescription scene_;
  std::unique_ptr<AssetLibrary> assets_;
  BodyTable bodies_;                        // per body (engine/world_tables.hpp)
  PieceTable pieces_;                       // per collision piece
  std::vector<std::uint8_t> initialState_;  // saveState() after construction, for reset()
  double highestDynamicTop_ = -std::numeric_limits<double>::infinity();  // with worldObbs
  BroadPhase broadPhase_;
  PairCache pairCache_;
  ManifoldReuseTolerances manifoldReuse_;
  ContactSolver solver_;
  RigidBodyIntegrator integrator_;
  long sleepIslands_ = 0;  // islands put to sleep so far: the next one's number
  StepContext context_;
  WorkerPool workers_;  // as many as World(scene, threads) or setThreads asked for
  StepStatistics stats_;
  long stepCount_ = 0;
  long collisionRound_ = 0;  // narrow phases run so far: one per substep
  int substeps_ = 1;         // of this step
  int substep_ = 0;          // the one running
  bool nonFinite_ = false;
  double energyIn_ = 0.0;     // J, see energyGain()
  double energyScale_ = 0.0;  // J, see energyGainLimit()
  // Spawner state.
  std::mt19937 spawnRng_;
  std::vector<std::string> spawnAssets_;
  int spawned_ = 0;
  double spawnHeight_ = 0.0;
  std::vector<std::function<void(const World&)>> observers_;
  std::vector<Joint> joints_;
  /// The body pairs a joint holds, (smaller, larger) and sorted: their pieces do not collide.
  std::vector<std::pair<int, int>> jointedBodies_;
  void updateJointedBodies();
  /// Joints of removed bodies go; those of the bodies after `body` follow them down one index.
  void forgetJoints(int body);
  Joint& jointAt(int joint, const char* what);
  /// Sets the motor targets of the scene's joint_targets for the step about to run.
  void driveScheduledJoints();
  /// The joints' velocities (empty when no joint has a motor or a spring; a spherical joint's
  /// relative spin in its frame A), and the work their motors and springs did over the
  /// (sub)step from them to now (J): energy brought in, as an applied impulse's is.
  std::vector<Eigen::Vector3d> drivenJointVelocities() const;
  double jointDriveWork(const std::vector<Eigen::Vector3d>& velocitiesBefore) const;
};

}  // namespace hb
