#pragma once
// The stages of World::step (docs/design.md, "The step"), one file each in engine/step/, each a
// function over the state it reads and writes, named in its parameters: the scene's settings and
// where the step is (StepClock) to read; the world's tables, caches and solvers it changes; the
// StepContext through which it hands its results to the stages after it (each of its fields
// names the stage that writes it); the step's statistics it adds to. World::step is the list of
// them, and the workers run what they hand out.

#include <Eigen/Core>
#include <span>
#include <stdexcept>
#include <utility>

#include "collision/broad_phase.hpp"
#include "collision/contact_manifold.hpp"
#include "collision/persistent_manifold.hpp"
#include "dynamics/contact_solver.hpp"
#include "dynamics/integrator.hpp"
#include "dynamics/joint.hpp"
#include "engine/pair_cache.hpp"
#include "engine/scene.hpp"
#include "engine/step_context.hpp"
#include "engine/step_statistics.hpp"
#include "engine/worker_pool.hpp"
#include "engine/world_tables.hpp"

namespace hb {

/// A step found more candidate pairs than solver.max_pairs_per_piece allows (SolverDescription);
/// thrown before the step's narrow phase, which would have allocated for each of them.
class PairLimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where a step is: what every stage may read of it.
struct StepClock {
  double h = 0.0;   ///< s: the (sub)step's length
  int substep = 0;  ///< the substep running, of this step
  long round = 0;   ///< narrow phases run so far, this substep's included once collide ran
  long step = 0;    ///< steps taken before this one
};

/// The world's boxes at the current poses (PieceTable::worldObb), on the workers; returns the
/// highest top of a dynamic piece's box (m, -inf without one).
double updateWorldBoxes(const BodyTable& bodies, PieceTable& pieces, WorkerPool& workers);

/// Find pairs (find_pairs.cpp): each piece's box grown by its body's sweep and half the margin,
/// through the broad phase, but for the pieces of the body pairs a joint holds (`jointed`,
/// (smaller, larger) and sorted); writes c.sweep, c.sweptObbs, c.entries, c.pairs. Throws
/// PairLimitError beyond solver.max_pairs_per_piece.
void findPairs(const SolverDescription& settings, const StepClock& clock, const BodyTable& bodies,
               const PieceTable& pieces, std::span<const std::pair<int, int>> jointed,
               BroadPhase& broadPhase, WorkerPool& workers, StepContext& c);

/// Collide (collide.cpp): the narrow phase of every pair with an awake body, on the workers,
/// warm-started from the pair cache (read only), except touching pairs whose kept manifold stands
/// in for the query (`reuse`); what a contact touches wakes, and its island's pairs take a
/// further round, but for bodies held (c.held), which are counted (StepStatistics::heldContacts)
/// and stay still. Writes c.narrowPhase (c.earlierNarrowPhase keeps the step's earlier
/// substeps'), c.collided; wakes bodies.
void collide(const SolverDescription& settings, const ManifoldReuseTolerances& reuse,
             const StepClock& clock, BodyTable& bodies, const PieceTable& pieces,
             const PairCache& pairCache, WorkerPool& workers, StepContext& c,
             StepStatistics& stats);

/// Plan substeps (plan_substeps.cpp): how many substeps each island of awake bodies its first
/// narrow phase joins takes, from its fastest turn, or the whole world alike while a joint holds
/// an awake body. Writes c.bodySubsteps and c.passSubsteps (the counts, most first); returns
/// the most.
int planSubsteps(const SolverDescription& settings, double dt, const BodyTable& bodies,
                 const PieceTable& pieces, std::span<const Joint> joints, StepContext& c);

/// What the contacts of a pair are built from, besides its narrow phase.
struct PairContactInputs {
  const StepClock& clock;
  const Eigen::Vector3d& gravity;
  const ManifoldReuseTolerances& reuse;
  const BodyTable& bodies;
  const PieceTable& pieces;
};

/// A moving body of several pieces (find_pairs.cpp).
bool isCompound(const BodyTable& bodies, int body);

/// Build contacts (build_contacts.cpp): each touching pair's manifold and contact constraints
/// on the workers, warm-started from the pair cache, gathered in pair order and reduced per
/// contact region for compounds. Writes c.pairContacts, c.pairSummaries, c.contacts,
/// c.keepContact, c.reusedManifolds and the records' contact ranges.
void buildContacts(const PairContactInputs& in, WorkerPool& workers, StepContext& c,
                   StepStatistics& stats);

/// The manifold of a touching pair (pair_manifold.cpp); `shift` is A's motion relative to B
/// until they meet when it is built at their time of impact, else zero. Sets made.source and
/// made.keptManifold.
ContactManifold pairManifold(const PairContactInputs& in, const NarrowPhaseRecord& record,
                             Eigen::Vector3d& shift, PairContacts& made);

/// The energy external forces and impulses brought in (J), for World::energyGain: `in` the
/// change of energy they made, `scale` their increases alone (the scale of the allowed gain).
struct EnergyLedger {
  double& in;
  double& scale;
};

/// The held and one-step external forces' impulses over h on every active body.
void applyExternalForces(BodyTable& bodies, double h, const EnergyLedger& energy);

/// Integrate velocities (integrate_velocities.cpp): external forces, gravity (but for the soft
/// step, which takes it substep by substep), the gyroscopic term, the turn limit of bodies with
/// contacts. Writes c.inContact, c.rotations.
void integrateVelocities(const SolverDescription& settings, const Eigen::Vector3d& gravity,
                         const StepClock& clock, BodyTable& bodies, RigidBodyIntegrator& integrator,
                         const EnergyLedger& energy, StepContext& c, StepStatistics& stats);

/// Solve (solve.cpp): the contacts' and joints' projected Gauss–Seidel, or the soft step's
/// substeps, on the velocities; writes the contacts' impulses, the joints' forces and c.pseudo.
void solve(const SolverDescription& settings, const Eigen::Vector3d& gravity,
           const StepClock& clock, BodyTable& bodies, std::span<Joint> joints,
           ContactSolver& solver, StepContext& c, StepStatistics& stats);

/// Update the pair cache (update_pair_cache.cpp), its one writer: every pair the narrow phase
/// saw remembers its solution, hints, kept manifold and contact forces; pairs it did not see are
/// dropped unless both bodies sleep. Writes c.cacheOrder and c.cacheKeys.
void updatePairCache(const StepClock& clock, const BodyTable& bodies, const PieceTable& pieces,
                     WorkerPool& workers, StepContext& c, PairCache& pairCache);

/// Integrate (integrate.cpp): poses from the solved velocities and c.pseudo; writes
/// c.startPoses when continuous collision will sweep from them.
void integrate(const SolverDescription& settings, const StepClock& clock, BodyTable& bodies,
               RigidBodyIntegrator& integrator, StepContext& c);

/// Continuous collision (continuous_collision.cpp): fast bodies swept against what does not
/// move and put back before they pass into it. Writes c.motions, c.fast, c.impactTime,
/// c.pairImpactTime, c.pairSweepStalled.
void continuousCollision(const SolverDescription& settings, const StepClock& clock,
                         BodyTable& bodies, const PieceTable& pieces, WorkerPool& workers,
                         StepContext& c, StepStatistics& stats);

/// Restitution (restitution.cpp): the bounces of the (sub)step's contacts.
void restitution(BodyTable& bodies, ContactSolver& solver);

/// Wakes a sleeping body and every body that fell asleep in its island (sleep.cpp); returns how
/// many woke.
int wakeIsland(BodyTable& bodies, int body);

/// Sleep (sleep.cpp): islands of bodies touching or held by a joint fall asleep together when
/// at rest and keep their membership (numbered from `sleepIslands`, which counts them). Writes
/// c.wasAwake, c.touching, c.islands; returns false when a body's state is not finite.
bool sleep(const SolverDescription& settings, double dt, BodyTable& bodies,
           std::span<const Joint> joints, long& sleepIslands, StepContext& c,
           StepStatistics& stats);

}  // namespace hb
