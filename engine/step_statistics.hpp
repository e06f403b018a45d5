#pragma once
// What one World::step did: counts, GJK effort, solver outcome and time per stage.

#include <array>
#include <string_view>

namespace hb {

/// The stages of World::step, in order.
enum class Stage {
  FindPairs,
  Collide,
  BuildContacts,
  IntegrateVelocities,
  Solve,
  UpdatePairCache,
  Integrate,
  ContinuousCollision,
  Restitution,
  Sleep
};
inline constexpr int kStageCount = 10;
/// "integrate" is the positions' half of the integrator (the velocities' is
/// "integrate_velocities").
inline constexpr std::array<std::string_view, kStageCount> kStageNames = {
    "find_pairs",        "collide",   "build_contacts",       "integrate_velocities", "solve",
    "update_pair_cache", "integrate", "continuous_collision", "restitution",          "sleep"};

struct StepStatistics {
  long step = 0;
  int bodies = 0;  ///< dynamic bodies (the static body 0 not counted)
  int awakeBodies = 0;
  int candidatePairs = 0;  ///< proxy pairs from the broad phase
  int gjkCalls = 0;        ///< narrow-phase queries run
  /// Touching pairs whose kept manifold answered instead of a query (standInResult,
  /// collision/persistent_manifold.hpp; World::manifoldReuse().standIn).
  int keptPairs = 0;
  long gjkIterations = 0;
  int epaCalls = 0;
  int rtrCalls = 0;  ///< penetration depths of smooth pairs by RTR
  int contacts = 0;
  int wokenBodies = 0;           ///< sleeping bodies woken by a contact this step
  int unconvergedRotations = 0;  ///< gyroscopic steps that hit their iteration cap
  /// Bodies with contacts slowed to solver.max_contact_turn per substep (summed over substeps).
  int limitedBodies = 0;
  int sweptBack = 0;  ///< fast bodies put back at their time of impact (continuous collision)
  /// Sweeps that stalled and went on allowing a quarter of the thinner body's thickness of
  /// overlap (continuous collision, docs/physics.md).
  int stalledSweeps = 0;
  /// Pairs apart at a substep's start whose contacts were built where they meet later in it.
  int impactPairs = 0;
  /// The step's substeps: its fastest island's (planSubsteps). Narrow-phase counts and
  /// iterations, rotations and stage times add up over them; the solver's iterations and residual
  /// are the largest of any substep; the contacts are each island's last substep's and the
  /// penetration the deepest of any.
  int substeps = 1;
  /// Awake bodies that took the step in more than one substep: in a split step, those of the
  /// islands whose turn asked for them (the others take it whole).
  int splitBodies = 0;
  /// Contacts a substepping island made with a body of another island, held still after or
  /// before its own pass (World::step): the first narrow phase, whose margins cover the step,
  /// had not seen them coming. The held body acts as one that does not move.
  int heldContacts = 0;
  int solverIterations = 0;
  /// Solves (coloured sweeps or soft steps, summed over substeps) run on one thread though the
  /// world has a team, because one thread had cost less lately (dynamics/team_choice.hpp): the
  /// same bits, only the time differs.
  int solvesAlone = 0;
  double solverResidual = 0.0;  ///< m/s, largest impulse change of the last sweep (as velocity)
  double maxPenetration = 0.0;  ///< m, deepest contact before the solve
  double kineticEnergy = 0.0;   ///< J, after the step
  /// J, World::energyGain() after the step, and whether it passed World::energyGainLimit().
  double energyGain = 0.0;
  bool energyGrew = false;
  std::array<double, kStageCount> stageMs{};

  double gjkMeanIterations() const {
    return gjkCalls > 0 ? static_cast<double>(gjkIterations) / gjkCalls : 0.0;
  }
  double totalMs() const {
    double t = 0;
    for (double s : stageMs) t += s;
    return t;
  }
};

}  // namespace hb
