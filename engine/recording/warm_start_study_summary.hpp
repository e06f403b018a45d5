#pragma once
// What the warm-start study found, per combination (the distribution of times the GJK++ paper
// plots in Fig. 13, iterations, fallbacks) and whether the combinations agree on the verdicts.

#include <vector>

#include "engine/recording/warm_start_study.hpp"

namespace hb {

/// Verdicts may legitimately differ when the shapes are within eps_col of touching: Alg. 2 calls
/// them colliding below eps_col, and GJK knows a distance that small only to about eps_col
/// (|x_k|^2 - d^2 <= eps = eps_col^2 at convergence). Problems whose recorded signed distance
/// lies within this many eps_col of zero count as near touching.
inline constexpr double kNearTouchingBand = 2.0;

/// The q-quantile (0 <= q <= 1) of sorted values, interpolating linearly between the two
/// nearest ranks (numpy's default); 0 for no values.
double sortedQuantile(const std::vector<double>& sorted, double q);

struct CombinationSummary {
  GjkVariant variant = GjkVariant::Vanilla;
  WarmStart warmStart = WarmStart::None;
  long problems = 0;
  double medianUs = 0.0;
  double firstQuartileUs = 0.0;
  double thirdQuartileUs = 0.0;
  double meanIterations = 0.0;
  long fallbacks = 0;
  long unconverged = 0;  ///< iteration cap or numerical stall (status not Separated/Intersecting)
};

struct VerdictAgreement {
  long problems = 0;
  /// Problems on which the combinations did not all give the same verdict, and how many of
  /// them were near touching.
  long disagreements = 0;
  long nearTouchingDisagreements = 0;
  /// Problems with exact inputs on which some combination's verdict differs from the recorded
  /// one (the run's distance query), and how many of them were near touching.
  long recordedMismatches = 0;
  long nearTouchingRecordedMismatches = 0;
};

/// True when the recorded signed distance is within kNearTouchingBand eps_col of zero.
bool nearTouching(const StudyProblem& problem);

class WarmStartStudySummary {
 public:
  void add(const StudyProblem& problem);

  /// One entry per combination, in the order of the problems' results.
  std::vector<CombinationSummary> combinations() const;
  const VerdictAgreement& agreement() const { return agreement_; }

 private:
  struct Accumulator {
    GjkVariant variant = GjkVariant::Vanilla;
    WarmStart warmStart = WarmStart::None;
    std::vector<double> times;
    long iterations = 0;
    long fallbacks = 0;
    long unconverged = 0;
  };
  std::vector<Accumulator> accumulators_;
  VerdictAgreement agreement_;
};

}  // namespace hb
