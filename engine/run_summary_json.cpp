#include "engine/run_summary_json.hpp"

#include <nlohmann/json.hpp>
#include <string>

#include "engine/run_summary.hpp"
#include "engine/scene.hpp"

namespace hb {

nlohmann::json runSummaryJson(const RunSummary& r, const SceneDescription& scene) {
  nlohmann::json stages = nlohmann::json::object();
  for (int i = 0; i < kStageCount; ++i) stages[std::string(kStageNames[i])] = r.stageMsMean[i];
  return {{"scene", scene.name},
          {"bodies", r.bodies},
          {"gjk_variant", toString(scene.solver.gjkVariant)},
          {"warm_start", toString(scene.solver.warmStart)},
          {"warm_simplex", scene.solver.warmSimplex},
          {"steps", r.steps},
          {"simulated_s", r.simulatedSeconds},
          {"wall_s", r.wallSeconds},
          {"steps_per_s", r.stepsPerSecond},
          {"real_time_factor", r.realTimeFactor},
          {"stage_ms", stages},
          {"gjk_calls", r.gjkCalls},
          {"kept_pairs", r.keptPairs},
          {"gjk_mean_iterations", r.gjkMeanIterations},
          {"epa_calls", r.epaCalls},
          {"rtr_calls", r.rtrCalls},
          {"contacts_mean", r.contactsMean},
          {"contacts_max", r.contactsMax},
          {"split_steps", r.splitSteps},
          {"substeps_mean", r.substepsMean},
          {"split_bodies_mean", r.splitBodiesMean},
          {"held_contacts", r.heldContacts},
          {"limited_bodies", r.limitedBodies},
          {"solves_alone", r.solvesAlone},
          {"max_penetration_m", r.maxPenetration},
          {"escaped_bodies", r.escapedBodies},
          {"nan", r.nonFinite},
          {"kinetic_energy_final", r.kineticEnergyFinal},
          {"energy_gain_max_j", r.energyGainMax},
          {"energy_grew", r.energyGrew}};
}

}  // namespace hb
