#include "apps/heavyball/bench_gjk.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>

#include "apps/heavyball/bench_csv.hpp"
#include "apps/heavyball/bench_method.hpp"
#include "apps/heavyball/bench_problems.hpp"
#include "apps/heavyball/bench_results.hpp"
#include "apps/heavyball/bench_shapes.hpp"
#include "apps/heavyball/bench_table.hpp"
#include "apps/heavyball/bench_timer.hpp"

namespace hb::bench {

namespace {

constexpr double kKeptFraction = 0.9;  // the paper's "mean of the 90% lowest"
constexpr int kMaxPoseAttempts = 100;  // draws per pose before giving the pose up

void validate(const GjkBenchConfig& c) {
  if (c.shapes != "ycb" && c.shapes != "ellipsoids") {
    throw std::invalid_argument("--shapes must be ycb or ellipsoids, not '" + c.shapes + "'");
  }
  if (c.pairs < 1 || c.poses < 1 || c.repeats < 1) {
    throw std::invalid_argument("--pairs, --poses and --repeats must be at least 1");
  }
  if (c.placement != "exact" && c.placement != "nominal") {
    throw std::invalid_argument("--placement must be exact or nominal, not '" + c.placement + "'");
  }
  for (std::size_t i = 0; i < c.methods.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (c.methods[i] == c.methods[j]) {
        throw std::invalid_argument("--methods lists '" + c.methods[i] + "' twice");
      }
    }
  }
  if (c.distances.empty()) throw std::invalid_argument("--distances is empty");
  for (const double d : c.distances) {
    if (!std::isfinite(d)) throw std::invalid_argument("--distances holds a non-finite value");
  }
}

struct ShapeSet {
  std::vector<BenchShape> shapes;
  std::vector<ShapePair> pairs;
};

ShapeSet buildShapeSet(const GjkBenchConfig& c, std::mt19937_64& rng) {
  ShapeSet set;
  if (c.shapes == "ycb") {
    set.shapes = loadYcbHulls(c.meshDir);
    if (set.shapes.size() < 2) {
      throw std::runtime_error(c.meshDir.string() + ": need at least two meshes");
    }
    set.pairs = chooseShapePairs(static_cast<int>(set.shapes.size()), c.pairs, rng);
  } else {
    // A fresh pair of ellipsoids per pair, as in the paper's ellipsoid benchmark.
    set.shapes = makeEllipsoids(2 * c.pairs, c.ellipsoidMinRadius, c.ellipsoidMaxRadius, rng);
    for (int i = 0; i < c.pairs; ++i) set.pairs.push_back({2 * i, 2 * i + 1});
  }
  return set;
}

void printHeader(const GjkBenchConfig& c, const ShapeSet& set, const BenchResults& results,
                 const TickClock& clock) {
  std::printf(
      "heavyball bench gjk: %s, %zu shapes, %zu pairs x %d poses x %zu distances, "
      "%d repeats (mean of the lowest %.0f%%), seed %llu\n",
      c.shapes.c_str(), set.shapes.size(), set.pairs.size(), c.poses, c.distances.size(), c.repeats,
      100.0 * kKeptFraction, static_cast<unsigned long long>(c.seed));
  if (c.shapes == "ycb") {
    std::vector<int> counts;
    for (const BenchShape& s : set.shapes) counts.push_back(s.numVertices);
    std::sort(counts.begin(), counts.end());
    std::printf("hull vertices: min %d, median %d, max %d (meshes from %s)\n", counts.front(),
                counts[counts.size() / 2], counts.back(), c.meshDir.c_str());
  } else {
    std::printf("ellipsoid semi-axes uniform in [%g, %g] m\n", c.ellipsoidMinRadius,
                c.ellipsoidMaxRadius);
  }
  std::printf("methods:");
  for (const std::string& m : results.methods) std::printf(" %s", m.c_str());
  std::printf("\nclock: %s, %.1f ticks/us, %.4f us subtracted per measurement\n", clock.source(),
              clock.ticksPerMicrosecond(), clock.overheadMicroseconds());
  std::printf(
      "placement: %s (%s); x0 = world OBB centre of A - that of B; hints and caches "
      "reset before every call\n",
      c.placement.c_str(),
      c.placement == "exact" ? "signed distance = target, unreachable depths dropped"
                             : "B slid |target| past contact");
  std::fflush(stdout);
}

class Progress {
 public:
  explicit Progress(long total) : total_(total), start_(Clock::now()), last_(start_) {}

  void update(long posesDone, int pair, int pairs) {
    const auto now = Clock::now();
    if (posesDone < total_ && now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double left = elapsed * static_cast<double>(total_ - posesDone) / posesDone;
    std::fprintf(stderr, "\rbench gjk: pair %d/%d, pose %ld/%ld, %.0f s elapsed, ~%.0f s left   ",
                 pair, pairs, posesDone, total_, elapsed, left);
    if (posesDone >= total_) std::fputc('\n', stderr);
    std::fflush(stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  long total_;
  Clock::time_point start_;
  Clock::time_point last_;
};

/// Solves the current problem once untimed (warming caches and branch predictors; its answer is the
/// one recorded) and then `repeats` times under the clock.
Record measure(Method& method, GjkMode mode, int repeats, const TickClock& clock,
               std::vector<double>& samples) {
  const Answer answer = method.solve(mode);
  samples.resize(repeats);
  for (int i = 0; i < repeats; ++i) {
    const std::uint64_t t0 = TickClock::now();
    const Answer a = method.solve(mode);
    const std::uint64_t t1 = TickClock::now();
    doNotOptimize(a);
    samples[i] = clock.microseconds(t0, t1);
  }
  Record r;
  r.mode = mode;
  r.iterations = answer.iterations;
  r.timeUs = meanOfLowest(samples, kKeptFraction);
  r.distance = answer.distance;
  r.collide = answer.collide;
  r.converged = answer.converged;
  return r;
}

}  // namespace

void runGjkBench(const GjkBenchConfig& config) {
  validate(config);
  BenchResults results;
  results.shapes = config.shapes;
  results.targets = config.distances;
  results.exactPlacement = config.placement == "exact";
  results.methods = config.methods.empty() ? availableMethods() : config.methods;

  std::vector<std::unique_ptr<Method>> methods;
  for (const std::string& name : results.methods) methods.push_back(makeMethod(name));

  std::optional<CsvWriter> csv;  // opened first: a bad path fails before minutes of work
  if (!config.csv.empty()) csv.emplace(config.csv);

  std::mt19937_64 rng(config.seed);
  const ShapeSet set = buildShapeSet(config, rng);
  for (const auto& m : methods) m->prepare(set.shapes);
  for (const ShapePair& p : set.pairs) {
    results.pairNames.push_back(set.shapes[p.a].name + "+" + set.shapes[p.b].name);
  }

  const TickClock clock;
  printHeader(config, set, results, clock);

  const Placement placement = config.placement == "exact" ? Placement::Exact : Placement::Nominal;
  const long totalPoses = static_cast<long>(set.pairs.size()) * config.poses;
  Progress progress(totalPoses);
  std::vector<double> samples;
  std::vector<long> unreachable(config.distances.size(), 0);
  long posesDone = 0;
  int skippedPoses = 0;
  for (std::size_t pair = 0; pair < set.pairs.size(); ++pair) {
    for (int pose = 0; pose < config.poses; ++pose, ++posesDone) {
      std::optional<std::vector<Problem>> problems;
      for (int attempt = 0; attempt < kMaxPoseAttempts && !problems; ++attempt) {
        problems = makePoseProblems(set.shapes, set.pairs[pair], config.distances, placement, rng);
      }
      if (!problems) {
        ++skippedPoses;
        continue;
      }
      for (std::size_t k = 0, next = 0; k < config.distances.size(); ++k) {
        if (next < problems->size() && (*problems)[next].bucket == static_cast<int>(k)) {
          ++next;
        } else {
          ++unreachable[k];
        }
      }
      for (const Problem& problem : *problems) {
        const int id = static_cast<int>(results.problems.size());
        results.problems.push_back(
            {static_cast<int>(pair), pose, problem.bucket, problem.achieved});
        for (const GjkMode mode : {GjkMode::Distance, GjkMode::Boolean}) {
          for (std::size_t m = 0; m < methods.size(); ++m) {
            if (!methods[m]->supports(mode)) continue;
            methods[m]->setProblem(problem);
            Record r = measure(*methods[m], mode, config.repeats, clock, samples);
            r.problem = id;
            r.method = static_cast<int>(m);
            results.records.push_back(r);
          }
        }
      }
      progress.update(posesDone + 1, static_cast<int>(pair) + 1,
                      static_cast<int>(set.pairs.size()));
    }
    if (csv) csv->writeNew(results);
  }
  if (csv) csv->close();
  if (skippedPoses > 0) {
    std::printf("warning: %d poses skipped (the reference solver failed at every draw)\n",
                skippedPoses);
  }
  for (std::size_t k = 0; k < config.distances.size(); ++k) {
    if (unreachable[k] == 0) continue;
    std::printf(
        "signed distance %g m out of reach for %ld of %ld poses (penetration deeper than "
        "the pair allows along the sliding axis): no problem there\n",
        config.distances[k], unreachable[k], posesDone - skippedPoses);
  }

  printBucketTables(results);
  printPeerTables(results);
  printSanityChecks(results);
  if (!config.csv.empty()) std::printf("\nwrote %s\n", config.csv.c_str());
}

}  // namespace hb::bench
