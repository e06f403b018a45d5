#include "engine/recording/warm_start_study_summary.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hb {

double sortedQuantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double t = position - static_cast<double>(below);
  return sorted[below] + t * (sorted[above] - sorted[below]);
}

bool nearTouching(const StudyProblem& problem) {
  return std::abs(problem.recordedDistance) <= kNearTouchingBand * problem.collisionTolerance;
}

void WarmStartStudySummary::add(const StudyProblem& problem) {
  if (accumulators_.empty()) {
    for (const StudyResult& r : problem.results) {
      accumulators_.push_back({r.variant, r.warmStart, {}, 0, 0, 0});
    }
  }
  if (problem.results.size() != accumulators_.size()) {
    throw std::invalid_argument("warm-start study: problems with different combinations");
  }
  bool allAgree = true, matchRecorded = true;
  for (std::size_t c = 0; c < problem.results.size(); ++c) {
    const StudyResult& r = problem.results[c];
    Accumulator& a = accumulators_[c];
    if (r.variant != a.variant || r.warmStart != a.warmStart) {
      throw std::invalid_argument("warm-start study: problems with different combinations");
    }
    a.times.push_back(r.timeUs);
    a.iterations += r.iterations;
    a.fallbacks += r.fallback ? 1 : 0;
    a.unconverged +=
        r.status == GjkStatus::Separated || r.status == GjkStatus::Intersecting ? 0 : 1;
    allAgree = allAgree && r.collide == problem.results.front().collide;
    matchRecorded = matchRecorded && r.collide == problem.recordedCollide;
  }
  const bool near = nearTouching(problem);
  ++agreement_.problems;
  if (!allAgree) {
    ++agreement_.disagreements;
    agreement_.nearTouchingDisagreements += near ? 1 : 0;
  }
  if (problem.exactInputs && !matchRecorded) {
    ++agreement_.recordedMismatches;
    agreement_.nearTouchingRecordedMismatches += near ? 1 : 0;
  }
}

std::vector<CombinationSummary> WarmStartStudySummary::combinations() const {
  std::vector<CombinationSummary> out;
  for (const Accumulator& a : accumulators_) {
    std::vector<double> sorted = a.times;
    std::sort(sorted.begin(), sorted.end());
    CombinationSummary s;
    s.variant = a.variant;
    s.warmStart = a.warmStart;
    s.problems = static_cast<long>(sorted.size());
    s.medianUs = sortedQuantile(sorted, 0.5);
    s.firstQuartileUs = sortedQuantile(sorted, 0.25);
    s.thirdQuartileUs = sortedQuantile(sorted, 0.75);
    s.meanIterations =
        s.problems > 0 ? static_cast<double>(a.iterations) / static_cast<double>(s.problems) : 0.0;
    s.fallbacks = a.fallbacks;
    s.unconverged = a.unconverged;
    out.push_back(s);
  }
  return out;
}

}  // namespace hb
