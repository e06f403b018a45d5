#pragma once
// Summary of a simulation run, accumulated from the per-step statistics (what `heavyball
// simulate` prints and what batch indexes store).

#include <array>
#include <functional>

#include "engine/step_statistics.hpp"

namespace hb {

class World;

struct RunSummary {
  long steps = 0;
  double simulatedSeconds = 0.0;
  double wallSeconds = 0.0;
  double stepsPerSecond = 0.0;
  double realTimeFactor = 0.0;  ///< simulated time / wall time
  std::array<double, kStageCount> stageMsMean{};
  long gjkCalls = 0;
  long keptPairs = 0;  ///< touching pairs their kept manifold answered instead of a query
  double gjkMeanIterations = 0.0;
  long epaCalls = 0;
  long rtrCalls = 0;
  double contactsMean = 0.0;
  int contactsMax = 0;
  double maxPenetration = 0.0;  ///< m, over the whole run
  long splitSteps = 0;          ///< steps of more than one substep
  double substepsMean = 0.0;    ///< substeps per step
  /// Awake bodies that took a split step's substeps, per split step (its other islands took
  /// it whole: StepStatistics::splitBodies).
  double splitBodiesMean = 0.0;
  /// Contacts of substepping islands with bodies held still (StepStatistics::heldContacts).
  long heldContacts = 0;
  /// Bodies with contacts slowed to the solver's turn limit, summed over the substeps.
  long limitedBodies = 0;
  /// Solves run on one thread though the world had a team (StepStatistics::solvesAlone).
  long solvesAlone = 0;
  int bodies = 0;
  int escapedBodies = 0;
  bool nonFinite = false;
  double kineticEnergyFinal = 0.0;
  /// Largest World::energyGain() after any step (J), and whether it passed the world's limit.
  double energyGainMax = 0.0;
  bool energyGrew = false;
  /// Non-finite state, energy from nowhere or a body out of the scene's bounds.
  bool blewUp() const { return nonFinite || energyGrew || escapedBodies > 0; }
};

class RunSummaryBuilder {
 public:
  void add(const StepStatistics& step);
  RunSummary finish(const World& world, double wallSeconds) const;

 private:
  long steps_ = 0;
  std::array<double, kStageCount> stageMs_{};
  long gjkCalls_ = 0;
  long keptPairs_ = 0;
  long gjkIterations_ = 0;
  long epaCalls_ = 0;
  long rtrCalls_ = 0;
  long contacts_ = 0;
  int contactsMax_ = 0;
  long splitSteps_ = 0;
  long substeps_ = 0;
  long splitBodies_ = 0;
  long heldContacts_ = 0;
  long limitedBodies_ = 0;
  long solvesAlone_ = 0;
  double maxPenetration_ = 0.0;
  double energyGainMax_ = 0.0;
  bool energyGrew_ = false;
};

/// Steps the world `steps` times and summarises the run (wall time measured around the steps);
/// `afterStep`, when given, is called with the number of steps done after each one.
RunSummary runSteps(World& world, long steps,
                    const std::function<void(long stepsDone)>& afterStep = {});

}  // namespace hb
