#include "apps/heavyball/bench_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <string_view>

#include "apps/heavyball/bench_method.hpp"

namespace hb::bench {

namespace {

constexpr GjkMode kModes[] = {GjkMode::Distance, GjkMode::Boolean};
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// Pairs closer than this to contact may be called colliding or not, depending on tolerances.
constexpr double kTouching = 1e-6;

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  if (v.size() % 2 == 1) return v[mid];
  const double upper = v[mid];
  return 0.5 * (upper + *std::max_element(v.begin(), v.begin() + mid));
}

double mean(const std::vector<double>& v) {
  if (v.empty()) return kNaN;
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

/// Finds the record of (problem, mode, method) in constant time.
class RecordIndex {
 public:
  explicit RecordIndex(const BenchResults& r)
      : methods_(static_cast<int>(r.methods.size())),
        slots_(r.problems.size() * 2 * r.methods.size(), -1) {
    for (std::size_t i = 0; i < r.records.size(); ++i) {
      const Record& rec = r.records[i];
      slots_[slot(rec.problem, rec.mode, rec.method)] = static_cast<int>(i);
    }
  }
  /// Index into records, or -1.
  int find(int problem, GjkMode mode, int method) const {
    return method < 0 ? -1 : slots_[slot(problem, mode, method)];
  }

 private:
  std::size_t slot(int problem, GjkMode mode, int method) const {
    return (static_cast<std::size_t>(problem) * 2 + (mode == GjkMode::Boolean ? 1 : 0)) * methods_ +
           method;
  }
  int methods_;
  std::vector<int> slots_;
};

int baselineIndex(const BenchResults& r) {
  const auto it = std::find(r.methods.begin(), r.methods.end(), kBaselineMethod);
  return it == r.methods.end() ? -1 : static_cast<int>(it - r.methods.begin());
}

/// Times, iterations and ratios to the baseline of one method over the problems `select` keeps.
struct Sample {
  std::vector<double> times;
  std::vector<double> iterations;
  std::vector<double> speedups;  // time_baseline / time_method, per problem
};

Sample collect(const BenchResults& r, const RecordIndex& index, GjkMode mode, int method,
               const std::function<bool(const ProblemInfo&)>& select) {
  Sample s;
  const int base = baselineIndex(r);
  for (std::size_t p = 0; p < r.problems.size(); ++p) {
    if (!select(r.problems[p])) continue;
    const int i = index.find(static_cast<int>(p), mode, method);
    if (i < 0) continue;
    const Record& rec = r.records[i];
    s.times.push_back(rec.timeUs);
    if (rec.iterations >= 0) s.iterations.push_back(rec.iterations);
    const int j = index.find(static_cast<int>(p), mode, base);
    if (j >= 0 && rec.timeUs > 0.0) s.speedups.push_back(r.records[j].timeUs / rec.timeUs);
  }
  return s;
}

void printCell(double value, const char* format, int width) {
  if (std::isnan(value)) {
    std::printf("%*s", width, "-");
  } else {
    std::printf(format, width, value);
  }
}

}  // namespace

void printBucketTables(const BenchResults& r) {
  const RecordIndex index(r);
  for (std::size_t b = 0; b < r.targets.size(); ++b) {
    const auto inBucket = [b](const ProblemInfo& p) { return p.bucket == static_cast<int>(b); };
    const auto problems = std::count_if(r.problems.begin(), r.problems.end(), inBucket);
    for (const GjkMode mode : kModes) {
      std::printf("\nsigned distance %g m, %s mode, %ld problems\n", r.targets[b], modeName(mode),
                  static_cast<long>(problems));
      std::printf("%-12s %10s %10s %12s %14s\n", "method", "median_us", "mean_us", "median_iters",
                  "speedup_vs_gjk");
      for (std::size_t m = 0; m < r.methods.size(); ++m) {
        const Sample s = collect(r, index, mode, static_cast<int>(m), inBucket);
        if (s.times.empty()) continue;
        std::printf("%-12s ", r.methods[m].c_str());
        printCell(median(s.times), "%*.3f", 10);
        std::printf(" ");
        printCell(mean(s.times), "%*.3f", 10);
        std::printf(" ");
        printCell(median(s.iterations), "%*.1f", 12);
        std::printf(" ");
        printCell(median(s.speedups), "%*.3f", 14);
        std::printf("\n");
      }
    }
  }
}

void printPeerTables(const BenchResults& r) {
  struct Category {
    const char* label;
    std::function<bool(double)> holds;
  };
  const Category categories[] = {
      {"distant >=1m", [](double d) { return d >= 1.0; }},
      {"close 0..0.1m", [](double d) { return d >= 0.0 && d <= 0.1; }},
      {"overlapping <0", [](double d) { return d < 0.0; }},
  };
  const RecordIndex index(r);
  for (const GjkMode mode : kModes) {
    std::printf("\n%s mode: median time (us) and median per-problem time ratio method/gjk\n",
                modeName(mode));
    std::printf("%-12s", "method");
    for (const Category& c : categories) std::printf(" | %-19s", c.label);
    std::printf("\n%-12s", "");
    for (std::size_t c = 0; c < std::size(categories); ++c) {
      std::printf(" | %9s %9s", "us", "ratio");
    }
    std::printf("\n");
    for (std::size_t m = 0; m < r.methods.size(); ++m) {
      std::vector<Sample> samples;
      bool any = false;
      for (const Category& c : categories) {
        const auto select = [&](const ProblemInfo& p) { return c.holds(r.targets[p.bucket]); };
        samples.push_back(collect(r, index, mode, static_cast<int>(m), select));
        any = any || !samples.back().times.empty();
      }
      if (!any) continue;
      std::printf("%-12s", r.methods[m].c_str());
      for (const Sample& s : samples) {
        std::printf(" | ");
        printCell(median(s.times), "%*.3f", 9);
        std::printf(" ");
        // The ratio is the inverse of the speed-up: above 1 means slower than gjk.
        std::vector<double> ratios;
        for (double v : s.speedups) ratios.push_back(1.0 / v);
        printCell(median(ratios), "%*.3f", 9);
      }
      std::printf("\n");
    }
  }
}

void printSanityChecks(const BenchResults& r) {
  const RecordIndex index(r);
  std::printf("\nsanity checks\n");

  double worstPlacement = 0.0;
  int misplaced = 0, passedThrough = 0;
  for (const ProblemInfo& p : r.problems) {
    const double e = std::abs(p.achieved - r.targets[p.bucket]);
    worstPlacement = std::max(worstPlacement, e);
    if (e > 1e-5) ++misplaced;
    if (r.targets[p.bucket] < 0.0 && p.achieved > kTouching) ++passedThrough;
  }
  if (r.exactPlacement) {
    std::printf(
        "placement: max |signed distance - target| = %.3g m over %zu problems, %d beyond "
        "1e-5 m\n",
        worstPlacement, r.problems.size(), misplaced);
  } else {
    std::printf(
        "placement (nominal): max |signed distance - target| = %.3g m over %zu problems; "
        "%d problems are not at their target (deep targets), %d with a negative target "
        "are in fact apart\n",
        worstPlacement, r.problems.size(), misplaced, passedThrough);
  }

  // heavyball's variants must agree with each other on every problem.
  std::vector<int> ours;
  for (std::size_t m = 0; m < r.methods.size(); ++m) {
    const std::string_view n = r.methods[m];
    if (n == "gjk" || n == "polyak" || n == "nesterov" || n == "auto") ours.push_back(m);
  }
  int compared = 0, disagreeing = 0;
  for (std::size_t p = 0; p < r.problems.size(); ++p) {
    for (const GjkMode mode : kModes) {
      int yes = 0, seen = 0;
      for (const int m : ours) {
        const int i = index.find(static_cast<int>(p), mode, m);
        if (i < 0) continue;
        ++seen;
        yes += r.records[i].collide ? 1 : 0;
      }
      if (seen < 2) continue;
      ++compared;
      if (yes != 0 && yes != seen) ++disagreeing;
    }
  }
  std::printf("heavyball variants disagreeing on collide: %d of %d (problem, mode) pairs\n",
              disagreeing, compared);

  std::printf("(touching: |signed distance| <= %g m, where a method's tolerance decides)\n",
              kTouching);
  std::printf("%-12s %-9s %8s %12s %14s %11s %14s %14s\n", "method", "mode", "answers",
              "vs_gjk_diff", "touching_diff", "wrong_side", "not_converged", "max_dist_err_m");
  const int base = baselineIndex(r);
  for (std::size_t m = 0; m < r.methods.size(); ++m) {
    for (const GjkMode mode : kModes) {
      int answers = 0, vsBase = 0, vsBaseTouching = 0, wrongSide = 0, notConverged = 0;
      double worstDistance = kNaN;
      for (std::size_t p = 0; p < r.problems.size(); ++p) {
        const int i = index.find(static_cast<int>(p), mode, static_cast<int>(m));
        if (i < 0) continue;
        const Record& rec = r.records[i];
        const double truth = r.problems[p].achieved;
        const bool touching = std::abs(truth) <= kTouching;
        ++answers;
        const int j = index.find(static_cast<int>(p), mode, base);
        if (j >= 0 && r.records[j].collide != rec.collide) ++(touching ? vsBaseTouching : vsBase);
        if (!touching && rec.collide != (truth < 0.0)) ++wrongSide;
        if (!rec.converged) ++notConverged;
        if (mode == GjkMode::Distance && truth > kTouching && std::isfinite(rec.distance)) {
          const double e = std::abs(rec.distance - truth);
          worstDistance = std::isnan(worstDistance) ? e : std::max(worstDistance, e);
        }
      }
      if (answers == 0) continue;
      std::printf("%-12s %-9s %8d %12d %14d %11d %14d ", r.methods[m].c_str(), modeName(mode),
                  answers, vsBase, vsBaseTouching, wrongSide, notConverged);
      printCell(worstDistance, "%*.3g", 14);
      std::printf("\n");
    }
  }
}

}  // namespace hb::bench
