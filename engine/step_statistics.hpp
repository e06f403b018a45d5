#pragma once
// What one World::step did: counts, GJK effort, solver outcome and time per stage.

#include <array>
#include <string_view>

namespace hb {

enum class Stage { BroadPhase, NarrowPhase, ContactSetup, Solve, Integrate };
inline constexpr int kStageCount = 5;
inline constexpr std::array<std::string_view, kStageCount> kStageNames = {
    "broad_phase", "narrow_phase", "contact_setup", "solve", "integrate"};

struct StepStatistics {
  long step = 0;
  int bodies = 0;
  int awakeBodies = 0;
  int candidatePairs = 0;  ///< proxy pairs from the broad phase
  int gjkCalls = 0;        ///< narrow-phase queries run
  long gjkIterations = 0;
  int epaCalls = 0;
  int contacts = 0;
  int solverIterations = 0;
  double solverResidual = 0.0;  ///< N s, largest impulse change of the last sweep
  double maxPenetration = 0.0;  ///< m, deepest contact before the solve
  double kineticEnergy = 0.0;   ///< J, after the step
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
