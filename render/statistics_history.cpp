#include "render/statistics_history.hpp"

#include <algorithm>

#include "engine/world.hpp"

namespace hb {

void Series::add(float v) {
  values_[static_cast<size_t>(next_)] = v;
  next_ = (next_ + 1) % size();
  count_ = std::min(count_ + 1, size());
}

void Series::clear() {
  std::fill(values_.begin(), values_.end(), 0.0f);
  next_ = 0;
  count_ = 0;
}

float Series::latest() const {
  return count_ ? values_[static_cast<size_t>((next_ + size() - 1) % size())] : 0.0f;
}

float Series::mean() const {
  if (!count_) return 0.0f;
  float sum = 0.0f;
  for (int i = 0; i < count_; ++i)
    sum += values_[static_cast<size_t>((next_ + size() - 1 - i) % size())];
  return sum / count_;
}

float Series::max() const {
  float m = 0.0f;
  for (int i = 0; i < count_; ++i)
    m = std::max(m, values_[static_cast<size_t>((next_ + size() - 1 - i) % size())]);
  return m;
}

StatisticsHistory::StatisticsHistory() : perStep_(kHistogramSteps, Bins{}) {}

void StatisticsHistory::addStep(const World& world) {
  const StepStatistics& s = world.lastStep();
  narrowPhaseMs.add(static_cast<float>(s.stageMs[static_cast<int>(Stage::Collide)]));
  stepMs.add(static_cast<float>(s.totalMs()));
  gjkIterationsPerStep.add(static_cast<float>(s.gjkIterations));
  gjkMeanIterations.add(static_cast<float>(s.gjkMeanIterations()));
  contacts.add(static_cast<float>(s.contacts));

  // Replace the oldest step's bins by this step's in the running totals.
  Bins& bins = perStep_[static_cast<size_t>(nextStep_)];
  for (int b = 0; b < kHistogramBins; ++b) totals_[b] -= bins[b];
  bins.fill(0);
  for (const NarrowPhaseRecord& r : world.narrowPhaseRecords()) {
    if (r.queried) ++bins[std::clamp(r.result.gjkIterations, 0, kHistogramBins - 1)];
  }
  for (int b = 0; b < kHistogramBins; ++b) {
    totals_[b] += bins[b];
    histogram_[b] = static_cast<float>(totals_[b]);
  }
  nextStep_ = (nextStep_ + 1) % kHistogramSteps;
}

void StatisticsHistory::addFrame(float frame, float render, int steps) {
  frameMs.add(frame);
  renderMs.add(render);
  stepsPerFrame.add(static_cast<float>(steps));
}

void StatisticsHistory::clear() {
  for (Series* s : {&narrowPhaseMs, &stepMs, &gjkIterationsPerStep, &gjkMeanIterations, &contacts,
                    &frameMs, &renderMs, &stepsPerFrame}) {
    s->clear();
  }
  for (Bins& b : perStep_) b.fill(0);
  totals_.fill(0);
  histogram_.fill(0.0f);
  nextStep_ = 0;
}

}  // namespace hb
