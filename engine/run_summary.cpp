#include "engine/run_summary.hpp"

#include <algorithm>
#include <chrono>

#include "engine/world.hpp"

namespace hb {

void RunSummaryBuilder::add(const StepStatistics& s) {
  energyGainMax_ = std::max(energyGainMax_, s.energyGain);
  energyGrew_ |= s.energyGrew;
  ++steps_;
  for (int i = 0; i < kStageCount; ++i) stageMs_[i] += s.stageMs[i];
  gjkCalls_ += s.gjkCalls;
  keptPairs_ += s.keptPairs;
  gjkIterations_ += s.gjkIterations;
  epaCalls_ += s.epaCalls;
  rtrCalls_ += s.rtrCalls;
  contacts_ += s.contacts;
  contactsMax_ = std::max(contactsMax_, s.contacts);
  splitSteps_ += s.substeps > 1 ? 1 : 0;
  substeps_ += s.substeps;
  splitBodies_ += s.splitBodies;
  heldContacts_ += s.heldContacts;
  limitedBodies_ += s.limitedBodies;
  solvesAlone_ += s.solvesAlone;
  maxPenetration_ = std::max(maxPenetration_, s.maxPenetration);
}

RunSummary RunSummaryBuilder::finish(const World& world, double wallSeconds) const {
  RunSummary r;
  r.steps = steps_;
  r.simulatedSeconds = steps_ * world.scene().dt;
  r.wallSeconds = wallSeconds;
  r.stepsPerSecond = wallSeconds > 0.0 ? steps_ / wallSeconds : 0.0;
  r.realTimeFactor = wallSeconds > 0.0 ? r.simulatedSeconds / wallSeconds : 0.0;
  for (int i = 0; i < kStageCount; ++i) r.stageMsMean[i] = steps_ > 0 ? stageMs_[i] / steps_ : 0.0;
  r.gjkCalls = gjkCalls_;
  r.keptPairs = keptPairs_;
  r.gjkMeanIterations = gjkCalls_ > 0 ? static_cast<double>(gjkIterations_) / gjkCalls_ : 0.0;
  r.epaCalls = epaCalls_;
  r.rtrCalls = rtrCalls_;
  r.contactsMean = steps_ > 0 ? static_cast<double>(contacts_) / steps_ : 0.0;
  r.contactsMax = contactsMax_;
  r.splitSteps = splitSteps_;
  r.substepsMean = steps_ > 0 ? static_cast<double>(substeps_) / steps_ : 0.0;
  r.splitBodiesMean = splitSteps_ > 0 ? static_cast<double>(splitBodies_) / splitSteps_ : 0.0;
  r.heldContacts = heldContacts_;
  r.limitedBodies = limitedBodies_;
  r.solvesAlone = solvesAlone_;
  r.maxPenetration = maxPenetration_;
  r.bodies = static_cast<int>(world.bodies().size()) - 1;
  r.escapedBodies = world.escapedBodies();
  r.nonFinite = world.nonFinite();
  r.kineticEnergyFinal = world.kineticEnergy();
  r.energyGainMax = energyGainMax_;
  r.energyGrew = energyGrew_;
  return r;
}

RunSummary runSteps(World& world, long steps, const std::function<void(long)>& afterStep) {
  RunSummaryBuilder builder;
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < steps; ++i) {
    world.step();
    builder.add(world.lastStep());
    if (afterStep) afterStep(i + 1);
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return builder.finish(world, wall);
}

}  // namespace hb
