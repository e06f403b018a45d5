#include "apps/bench/common/bench_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>

#include "apps/bench/common/bench_method.hpp"
#include "apps/bench/common/bench_timer.hpp"

namespace hb::bench {

namespace {

constexpr GjkMode kModes[] = {GjkMode::Distance, GjkMode::Boolean};
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// Pairs closer than this to contact may be called colliding or not, depending on tolerances.
constexpr double kTouching = 1e-6;

/// Standard deviation of the papers' "mean +- std", in population form (the papers do not say
/// which; over hundreds of problems both forms agree to a fraction of a percent).
double standardDeviation(const std::vector<double>& v) {
  if (v.empty()) return kNaN;
  const double m = mean(v);
  double sum = 0.0;
  for (const double x : v) sum += (x - m) * (x - m);
  return std::sqrt(sum / static_cast<double>(v.size()));
}

/// The papers' distance categories (T-RO Fig. 12, RSS Table II), by target signed distance.
struct Category {
  const char* label;
  bool (*holds)(double d);
};
constexpr Category kDistant = {"distant >=1m", [](double d) { return d >= 1.0; }};
constexpr Category kClose = {"close 0..0.1m", [](double d) { return d >= 0.0 && d <= 0.1; }};
constexpr Category kOverlapping = {"overlapping <0", [](double d) { return d < 0.0; }};

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

/// Records of one method and mode, among the problems `select` keeps, that did not converge.
long countNotConverged(const BenchResults& r, const RecordIndex& index, GjkMode mode, int method,
                       const std::function<bool(const ProblemInfo&)>& select) {
  long failed = 0;
  for (std::size_t p = 0; p < r.problems.size(); ++p) {
    if (!select(r.problems[p])) continue;
    const int i = index.find(static_cast<int>(p), mode, method);
    if (i >= 0 && !r.records[i].converged) ++failed;
  }
  return failed;
}

void printCell(const BenchReport& report, double value, const char* format, int width) {
  if (std::isnan(value)) {
    report.text("%*s", width, "-");
  } else {
    report.text(format, width, value);
  }
}

/// "mean +- std" with `decimals` digits (none from 1000 on) after `prefix`, right-aligned in
/// `width` characters.
void printMeanStd(const BenchReport& report, const std::vector<double>& v, int width, int decimals,
                  const char* prefix = "") {
  if (v.empty()) {
    report.text("%*s", width, "-");
    return;
  }
  const double m = mean(v), sd = standardDeviation(v);
  char text[64];
  if (m >= 1000.0) {
    std::snprintf(text, sizeof text, "%s%.0f +- %.0f", prefix, m, sd);
  } else {
    std::snprintf(text, sizeof text, "%s%.*f +- %.*f", prefix, decimals, m, decimals, sd);
  }
  report.text("%*s", width, text);
}

bool anyRecord(const BenchResults& r, GjkMode mode) {
  return std::any_of(r.records.begin(), r.records.end(),
                     [mode](const Record& rec) { return rec.mode == mode; });
}

long countProblems(const BenchResults& r, const std::function<bool(const ProblemInfo&)>& select) {
  return static_cast<long>(std::count_if(r.problems.begin(), r.problems.end(), select));
}

}  // namespace

void printBucketTables(const BenchResults& r, BenchReport& report) {
  const RecordIndex index(r);
  for (std::size_t b = 0; b < r.targets.size(); ++b) {
    const auto inBucket = [b](const ProblemInfo& p) { return p.bucket == static_cast<int>(b); };
    const auto problems = std::count_if(r.problems.begin(), r.problems.end(), inBucket);
    for (const GjkMode mode : kModes) {
      if (!anyRecord(r, mode)) continue;
      report.text("\nsigned distance %g m, %s mode, %ld problems\n", r.targets[b], modeName(mode),
                  static_cast<long>(problems));
      report.text("%-12s %10s %10s %12s %14s\n", "method", "median_us", "mean_us", "median_iters",
                  "speedup_vs_gjk");
      for (std::size_t m = 0; m < r.methods.size(); ++m) {
        const Sample s = collect(r, index, mode, static_cast<int>(m), inBucket);
        if (s.times.empty()) continue;
        report.text("%-12s ", r.methods[m].c_str());
        printCell(report, median(s.times), "%*.3f", 10);
        report.text(" ");
        printCell(report, mean(s.times), "%*.3f", 10);
        report.text(" ");
        printCell(report, median(s.iterations), "%*.1f", 12);
        report.text(" ");
        printCell(report, median(s.speedups), "%*.3f", 14);
        report.text("\n");
        report.row("buckets", {{"distance_m", r.targets[b]},
                               {"mode", modeName(mode)},
                               {"problems", problems},
                               {"method", r.methods[m]},
                               {"median_us", median(s.times)},
                               {"mean_us", mean(s.times)},
                               {"median_iterations", median(s.iterations)},
                               {"speedup_vs_gjk", median(s.speedups)}});
      }
    }
  }
}

void printPeerTables(const BenchResults& r, BenchReport& report) {
  const Category categories[] = {kDistant, kClose, kOverlapping};
  const RecordIndex index(r);
  const int base = baselineIndex(r);
  for (const GjkMode mode : kModes) {
    if (!anyRecord(r, mode)) continue;
    report.text(
        "\n%s mode: median time (us); p.ratio = median over the problems of time / time of gjk "
        "on the same problem, m.ratio = median time / median time of gjk (same run)\n",
        modeName(mode));
    report.text("%-12s", "method");
    for (const Category& c : categories) report.text(" | %-26s", c.label);
    report.text("\n%-12s", "problems");
    std::vector<double> baseMedians;
    for (const Category& c : categories) {
      const auto select = [&](const ProblemInfo& p) { return c.holds(r.targets[p.bucket]); };
      report.text(" | %26ld", countProblems(r, select));
      baseMedians.push_back(base < 0 ? kNaN : median(collect(r, index, mode, base, select).times));
    }
    report.text("\n%-12s", "");
    for (std::size_t c = 0; c < std::size(categories); ++c) {
      report.text(" | %8s %8s %8s", "us", "p.ratio", "m.ratio");
    }
    report.text("\n");
    for (std::size_t m = 0; m < r.methods.size(); ++m) {
      std::vector<Sample> samples;
      bool any = false;
      for (const Category& c : categories) {
        const auto select = [&](const ProblemInfo& p) { return c.holds(r.targets[p.bucket]); };
        samples.push_back(collect(r, index, mode, static_cast<int>(m), select));
        any = any || !samples.back().times.empty();
      }
      if (!any) continue;
      report.text("%-12s", r.methods[m].c_str());
      for (std::size_t c = 0; c < samples.size(); ++c) {
        const Sample& s = samples[c];
        report.text(" | ");
        printCell(report, median(s.times), "%*.3f", 8);
        report.text(" ");
        // The ratios are the inverse of speed-ups: above 1 means slower than gjk.
        std::vector<double> ratios;
        for (double v : s.speedups) ratios.push_back(1.0 / v);
        printCell(report, median(ratios), "%*.3f", 8);
        report.text(" ");
        printCell(report, median(s.times) / baseMedians[c], "%*.3f", 8);
        report.row("peers", {{"mode", modeName(mode)},
                             {"category", categories[c].label},
                             {"method", r.methods[m]},
                             {"median_us", median(s.times)},
                             {"p_ratio", median(ratios)},
                             {"m_ratio", median(s.times) / baseMedians[c]}});
      }
      report.text("\n");
    }
  }
}

void printIterationTable(const BenchResults& r, BenchReport& report) {
  // The paper's row order.
  const Category categories[] = {kOverlapping, kClose, kDistant};
  const RecordIndex index(r);
  constexpr int kWidth = 18;
  for (const GjkMode mode : kModes) {
    if (!anyRecord(r, mode)) continue;
    report.text(
        "\nTable II (RSS 2022), %s, %s mode: iterations (supports computed), mean +- std; '>': "
        "some runs stopped at the iteration cap, the mean is a lower bound\n",
        r.shapes.c_str(), modeName(mode));
    report.text("%-16s %8s", "category", "problems");
    for (const std::string& m : r.methods) report.text(" %*s", kWidth, m.c_str());
    report.text("\n");
    for (const Category& c : categories) {
      const auto select = [&](const ProblemInfo& p) { return c.holds(r.targets[p.bucket]); };
      report.text("%-16s %8ld", c.label, countProblems(r, select));
      for (std::size_t m = 0; m < r.methods.size(); ++m) {
        const int method = static_cast<int>(m);
        const long notConverged = countNotConverged(r, index, mode, method, select);
        const std::vector<double> iterations = collect(r, index, mode, method, select).iterations;
        report.text(" ");
        printMeanStd(report, iterations, kWidth, 1, notConverged > 0 ? ">" : "");
        report.row("iterations", {{"shapes", r.shapes},
                                  {"mode", modeName(mode)},
                                  {"category", c.label},
                                  {"method", r.methods[m]},
                                  {"mean", mean(iterations)},
                                  {"std", standardDeviation(iterations)},
                                  {"not_converged", notConverged}});
      }
      report.text("\n");
    }
    report.text("not converged (iteration cap or failure), count:\n");
    for (const Category& c : categories) {
      const auto select = [&](const ProblemInfo& p) { return c.holds(r.targets[p.bucket]); };
      report.text("%-16s %8s", c.label, "");
      for (std::size_t m = 0; m < r.methods.size(); ++m) {
        report.text(" %*ld", kWidth,
                    countNotConverged(r, index, mode, static_cast<int>(m), select));
      }
      report.text("\n");
    }
  }
  const long uncategorised = countProblems(r, [&](const ProblemInfo& p) {
    const double d = r.targets[p.bucket];
    return !kOverlapping.holds(d) && !kClose.holds(d) && !kDistant.holds(d);
  });
  if (uncategorised > 0) {
    report.text("(%ld problems with 0.1 < d < 1 m belong to no category)\n", uncategorised);
  }
}

void printMeshPairTable(const BenchResults& r, BenchReport& report) {
  constexpr double kNear = 0.01;  // the paper's -0.01 <= d <= 0.01 m
  constexpr int kWidth = 14;
  // "a (N=..) + b (N=..)": each mesh followed by its hull vertex count.
  std::vector<std::string> labels;
  int labelWidth = 4;
  for (std::size_t pair = 0; pair < r.pairNames.size(); ++pair) {
    const std::string& name = r.pairNames[pair];
    const std::size_t plus = name.find('+');
    labels.push_back(name.substr(0, plus) + " (N=" + std::to_string(r.pairVertices[pair][0]) +
                     ") + " + name.substr(plus + 1) +
                     " (N=" + std::to_string(r.pairVertices[pair][1]) + ")");
    labelWidth = std::max(labelWidth, static_cast<int>(labels.back().size()));
  }
  const RecordIndex index(r);
  for (const GjkMode mode : kModes) {
    if (!anyRecord(r, mode)) continue;
    report.text(
        "\nTable I (T-RO 2024), %s mode: time (us), mean +- std over the problems with "
        "-%g <= d <= %g m; N = hull vertices\n",
        modeName(mode), kNear, kNear);
    report.text("%-*s %8s", labelWidth, "pair", "problems");
    for (const std::string& m : r.methods) report.text(" %*s", kWidth, m.c_str());
    report.text("\n");
    for (std::size_t pair = 0; pair < r.pairNames.size(); ++pair) {
      const auto select = [&](const ProblemInfo& p) {
        return p.pair == static_cast<int>(pair) && std::abs(r.targets[p.bucket]) <= kNear;
      };
      report.text("%-*s %8ld", labelWidth, labels[pair].c_str(), countProblems(r, select));
      for (std::size_t m = 0; m < r.methods.size(); ++m) {
        const std::vector<double> times =
            collect(r, index, mode, static_cast<int>(m), select).times;
        report.text(" ");
        printMeanStd(report, times, kWidth, 2);
        report.row("mesh_pairs", {{"mode", modeName(mode)},
                                  {"pair", labels[pair]},
                                  {"method", r.methods[m]},
                                  {"mean_us", mean(times)},
                                  {"std_us", standardDeviation(times)}});
      }
      report.text("\n");
    }
  }
}

void printSanityChecks(const BenchResults& r, BenchReport& report) {
  const RecordIndex index(r);
  report.text("\nsanity checks\n");

  double worstPlacement = 0.0;
  int misplaced = 0, passedThrough = 0;
  for (const ProblemInfo& p : r.problems) {
    const double e = std::abs(p.achieved - r.targets[p.bucket]);
    worstPlacement = std::max(worstPlacement, e);
    if (e > 1e-5) ++misplaced;
    if (r.targets[p.bucket] < 0.0 && p.achieved > kTouching) ++passedThrough;
  }
  if (r.exactPlacement) {
    report.text(
        "placement: max |signed distance - target| = %.3g m over %zu problems, %d beyond "
        "1e-5 m\n",
        worstPlacement, r.problems.size(), misplaced);
  } else {
    report.text(
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
  report.text("heavyball variants disagreeing on collide: %d of %d (problem, mode) pairs\n",
              disagreeing, compared);
  report["placement"] = {{"max_error_m", worstPlacement},
                         {"problems", r.problems.size()},
                         {"beyond_1e-5_m", misplaced},
                         {"exact", r.exactPlacement}};
  report["variants_disagreeing"] = {{"disagreeing", disagreeing}, {"compared", compared}};

  report.text("(touching: |signed distance| <= %g m, where a method's tolerance decides)\n",
              kTouching);
  report.text("%-12s %-9s %8s %12s %14s %11s %14s %14s\n", "method", "mode", "answers",
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
      report.text("%-12s %-9s %8d %12d %14d %11d %14d ", r.methods[m].c_str(), modeName(mode),
                  answers, vsBase, vsBaseTouching, wrongSide, notConverged);
      printCell(report, worstDistance, "%*.3g", 14);
      report.text("\n");
      report.row("sanity", {{"method", r.methods[m]},
                            {"mode", modeName(mode)},
                            {"answers", answers},
                            {"vs_gjk_diff", vsBase},
                            {"touching_diff", vsBaseTouching},
                            {"wrong_side", wrongSide},
                            {"not_converged", notConverged},
                            {"max_distance_error_m", worstDistance}});
    }
  }
}

}  // namespace hb::bench
