#pragma once
// The world and its 120 Hz step (docs/design.md). World::step is the list of its stages, each a
// member function named for what it does, handing its results to the next through one
// StepContext (engine/step_context.hpp): find pairs, collide (and wake what is touched), build
// contacts, solve, integrate, continuous collision, restitution, sleep. Deterministic: the same
// scene and seed give bit-identical states.

#include <functional>
#include <limits>
#include <memory>
#include <random>
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
#include "dynamics/rigid_body.hpp"
#include "engine/asset_library.hpp"
#include "engine/pair_cache.hpp"
#include "engine/scene.hpp"
#include "engine/step_context.hpp"
#include "engine/step_statistics.hpp"
#include "engine/worker_pool.hpp"

namespace hb {

/// One convex piece of a body's collision shape (compound bodies have several).
struct Proxy {
  int body = -1;
  Shape shape;
  Pose inBody;   ///< piece frame -> body (centre-of-mass) frame
  Obb localObb;  ///< in the piece frame
  /// m: no point of the piece lies further from its box's centre (World::piecesMayMeet).
  double boundingRadius = 0.0;
};

/// What the world knows of a body beyond its dynamics state (World::rigidBodies()).
struct WorldBody {
  Material material;
  std::string name;                          ///< asset name or shape type
  std::shared_ptr<const ConvexAsset> asset;  ///< set for asset bodies (rendering, recording)
  std::vector<int> proxies;
};

/// A step found more candidate pairs than solver.max_pairs_per_piece allows (SolverDescription);
/// thrown before the step's narrow phase, which would have allocated for each of them.
class PairLimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class World {
 public:
  /// Builds the statics, the listed bodies and the spawner's first drops. Throws on bad assets.
  explicit World(const SceneDescription& scene);
  // The solver hands its work to this world's workers: a world stays where it was built.
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  /// Advances by one dt. Throws PairLimitError when the broad phase finds more pairs than the
  /// scene allows (solver.max_pairs_per_piece); a world whose first substep threw is as before
  /// the step (its spawner's due drops added).
  void step();

  /// Adds a dynamic body; returns its index.
  int addBody(const BodyDescription& body);
  /// Applies an impulse (N s, world frame) at a world point of a dynamic body and wakes it (with
  /// its sleeping island); the velocities change at once (e.g. a mouse spring applied before
  /// step()). Throws std::out_of_range for no such body, std::invalid_argument for a static
  /// one, a non-finite or far point or impulse, or velocities it would make absurd.
  void applyImpulse(int body, const Eigen::Vector3d& worldPoint, const Eigen::Vector3d& impulse);

  const SceneDescription& scene() const { return scene_; }
  /// Solver settings; changes apply from the next step.
  SolverDescription& solverSettings() { return scene_.solver; }
  /// Body 0 holds every static piece; bodies 1.. are the dynamic ones, in order of creation.
  const std::vector<WorldBody>& bodies() const { return bodies_; }
  /// Dynamics state, parallel to bodies().
  const std::vector<RigidBody>& rigidBodies() const { return rigid_; }
  const std::vector<Proxy>& proxies() const { return proxies_; }
  /// Each proxy's box in the world at the current poses.
  const std::vector<Obb>& worldObbs() const { return context_.worldObbs; }
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
  /// Mechanical energy beyond what the bodies brought in (when added, and by applyImpulse), J.
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
  int addProxy(int body, const Shape& shape, const Pose& inBody, const Obb* localObb = nullptr);
  Pose piecePose(int body, const Pose& inBody) const;
  void spawnDue();
  /// Wakes a sleeping body and every body that fell asleep in the same island.
  /// Returns how many bodies woke.
  int wakeIsland(int body);

  // The stages of step(), in order; each reads and writes context_.
  void findPairs();
  /// False when pieces a and b cannot come within their pair's margin this step (their bounding
  /// spheres stay apart).
  bool piecesMayMeet(int a, int b) const;
  /// Throws PairLimitError when the pairs found exceed solver.max_pairs_per_piece.
  void checkPairLimit() const;
  void collide();
  void buildContacts();
  /// Contacts of one body pair through several pieces, reduced per contact region.
  void reduceContacts();
  /// With solve(), integrate() and restitution(), collide() and buildContacts() run once per
  /// substep (substepCount(), SolverDescription::maxSubsteps).
  void solve();
  void integrate();
  /// Continuous collision (SolverDescription::continuousCollision), then the world boxes.
  void continuousCollision();
  /// How many substeps this step takes, from its first narrow phase.
  int substepCount() const;
  double substepLength() const;
  /// Fast bodies swept against what does not move and put back before they pass into it.
  void sweepFastBodies();
  /// When pair k's fast body first comes too close to what does not move, on a worker
  /// (StepContext::pairImpactTime: the substep's length when it does not or the pair is not
  /// swept; pairSweepStalled).
  void sweepPair(size_t pair);
  /// A body's motion over the step just integrated, from context_.startPoses.
  RigidMotion stepMotion(int body) const;
  void restitution();
  void sleep();
  void runStage(Stage stage, void (World::*run)());
  // Parts of the stages.
  void updateWorldObbs();
  void raiseDynamicTop(const Obb& dynamicBox);
  double bodyEnergy(const RigidBody& dynamicBody) const;
  /// A pair's narrow phase (on a worker: it touches only the record and its cache entry), then
  /// what the step counts and wakes from it; the latter returns whether it woke an island.
  void runNarrowPhase(NarrowPhaseRecord& record) const;
  bool tallyNarrowPhase(const NarrowPhaseRecord& record);
  /// A touching pair's contact constraints (on a worker).
  void pairContacts(NarrowPhaseRecord& record, PairContacts& made) const;
  bool isCompound(int body) const;
  /// The pieces of a broad-phase entry (a proxy, or -1 - body for a compound) whose swept boxes
  /// overlap `other`.
  void piecesMeeting(int entry, const Obb& other, std::vector<int>& pieces) const;
  void storeImpulses();
  /// The manifold of a touching pair (engine/step/pair_manifold.cpp); `shift` is A's motion
  /// relative to B until they meet when it is built at their time of impact, else zero.
  ContactManifold pairManifold(NarrowPhaseRecord& record, Eigen::Vector3d& shift,
                               ManifoldSource& source) const;
  /// The velocity of a body's material point at `point` over this substep: after gravity, before
  /// the contacts (zero for bodies that do not move).
  Eigen::Vector3d substepVelocity(int body, const Eigen::Vector3d& point) const;
  /// How fast a piece's turn moves its surface at most (m/s): its body's spin times its reach.
  double surfaceTurnSpeed(int proxy) const;

  SceneDescription scene_;
  std::unique_ptr<AssetLibrary> assets_;
  std::vector<WorldBody> bodies_;
  std::vector<RigidBody> rigid_;
  std::vector<Proxy> proxies_;
  std::vector<std::uint8_t> proxyStatic_;
  std::vector<double> bodyReach_;  // m, furthest point of each body from its centre of mass
  double highestDynamicTop_ = -std::numeric_limits<double>::infinity();  // with worldObbs
  std::vector<double> bodyThickness_;  // m, twice the smallest half extent of its pieces' boxes
  std::vector<double> proxyReach_;     // m, furthest point of each piece's box from its origin
  std::vector<Obb> compoundBoxes_;     // per compound body: its hull's box in the body frame
  BroadPhase broadPhase_;
  PairCache pairCache_;
  ManifoldReuseTolerances manifoldReuse_;
  ContactSolver solver_;
  RigidBodyIntegrator integrator_;
  /// Per body: the island it fell asleep with (-1 awake or static); islands wake whole.
  std::vector<long> sleepIsland_;
  long sleepIslands_ = 0;  // islands put to sleep so far: the next one's number
  StepContext context_;
  WorkerPool workers_{0};  // one per core
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
};

}  // namespace hb
