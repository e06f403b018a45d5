#include "apps/bench/gjk/bench_gjk.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>

#include "apps/bench/common/bench_csv.hpp"
#include "apps/bench/common/bench_method.hpp"
#include "apps/bench/common/bench_problems.hpp"
#include "apps/bench/common/bench_report.hpp"
#include "apps/bench/common/bench_results.hpp"
#include "apps/bench/common/bench_shapes.hpp"
#include "apps/bench/common/bench_table.hpp"
#include "apps/bench/common/bench_timer.hpp"
#include "apps/cli/progress_display.hpp"

namespace hb::bench {

namespace {

constexpr double kKeptFraction = 0.9;  // the paper's "mean of the 90% lowest"
constexpr int kMaxPoseAttempts = 100;  // draws per pose before giving the pose up

/// The configuration with every table default filled in.
struct Plan {
  GjkBenchConfig config;
  int repeats = 100;
  std::vector<GjkMode> modes;
};

template <class T>
void rejectDuplicates(const std::vector<T>& values, const char* option) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (values[i] == values[j]) {
        throw std::invalid_argument(std::string(option) + " lists '" + values[i] + "' twice");
      }
    }
  }
}

Plan makePlan(const GjkBenchConfig& c) {
  if (c.shapes != "ycb" && c.shapes != "ellipsoids" && c.shapes != "cubes") {
    throw std::invalid_argument("--shapes must be ycb, ellipsoids or cubes, not '" + c.shapes +
                                "'");
  }
  if (c.table != "buckets" && c.table != "fw" && c.table != "meshes" && c.table != "peers") {
    throw std::invalid_argument("--table must be buckets, fw, meshes or peers, not '" + c.table +
                                "'");
  }
  if (c.table == "meshes" && c.shapes != "ycb") {
    throw std::invalid_argument("--table meshes needs --shapes ycb");
  }
  if (!c.meshes.empty() && c.shapes != "ycb") {
    throw std::invalid_argument("--meshes needs --shapes ycb");
  }
  if (c.pairs < 1 || c.poses < 1 || (c.repeats && *c.repeats < 1)) {
    throw std::invalid_argument("--pairs, --poses and --repeats must be at least 1");
  }
  if (c.frankWolfeMaxIterations < 1) {
    throw std::invalid_argument("--fw-max-iterations must be at least 1");
  }
  if (!(c.minSize > 0.0) || !(c.maxSize >= c.minSize) || !std::isfinite(c.maxSize)) {
    throw std::invalid_argument("shape sizes must satisfy 0 < min <= max");
  }
  if (c.placement != "exact" && c.placement != "nominal") {
    throw std::invalid_argument("--placement must be exact or nominal, not '" + c.placement + "'");
  }
  rejectDuplicates(c.methods, "--methods");
  rejectDuplicates(c.modes, "--modes");
  for (const double d : c.distances) {
    if (!std::isfinite(d)) throw std::invalid_argument("--distances holds a non-finite value");
  }

  Plan plan;
  plan.config = c;
  GjkBenchConfig& p = plan.config;
  if (p.distances.empty()) p.distances = defaultDistances(p.table);
  if (p.methods.empty()) p.methods = defaultMethodsFor(p.table);
  if (p.meshes.empty() && p.table == "meshes") p.meshes = kTableIMeshes;
  plan.repeats = c.repeats ? *c.repeats : (p.table == "fw" ? 1 : 100);
  if (p.modes.empty()) {
    // Table II counts iterations of distance queries; Fig. 12 times Boolean ones.
    if (p.table == "fw") {
      p.modes = {"distance"};
    } else if (p.table == "peers") {
      p.modes = {"boolean"};
    } else {
      p.modes = {"distance", "boolean"};
    }
  }
  for (const std::string& m : p.modes) {
    if (m == "distance") {
      plan.modes.push_back(GjkMode::Distance);
    } else if (m == "boolean") {
      plan.modes.push_back(GjkMode::Boolean);
    } else {
      throw std::invalid_argument("--modes takes distance and boolean, not '" + m + "'");
    }
  }
  return plan;
}

struct ShapeSet {
  std::vector<BenchShape> shapes;
  std::vector<ShapePair> pairs;
};

ShapeSet buildShapeSet(const GjkBenchConfig& c, std::mt19937_64& rng) {
  ShapeSet set;
  if (c.shapes == "ycb") {
    if (c.meshDir.empty())
      throw std::runtime_error(std::string("--mesh-dir: ") + kShippedDataMissing);
    set.shapes = loadYcbHulls(c.meshDir, c.meshes);
    const int n = static_cast<int>(set.shapes.size());
    if (c.table == "meshes") {
      // Every pair of the chosen meshes, each mesh with itself too (the paper's triangle).
      for (int i = 0; i < n; ++i) {
        for (int j = i; j < n; ++j) set.pairs.push_back({i, j});
      }
    } else {
      if (n < 2) throw std::invalid_argument("need at least two meshes to draw pairs from");
      set.pairs = chooseShapePairs(n, c.pairs, rng);
    }
  } else {
    // A fresh pair of shapes per pair, as in the paper's ellipsoid and cube benchmarks.
    set.shapes = c.shapes == "ellipsoids" ? makeEllipsoids(2 * c.pairs, c.minSize, c.maxSize, rng)
                                          : makeCubes(2 * c.pairs, c.minSize, c.maxSize, rng);
    for (int i = 0; i < c.pairs; ++i) set.pairs.push_back({2 * i, 2 * i + 1});
  }
  return set;
}

void printHeader(const Plan& plan, const ShapeSet& set, const BenchResults& results,
                 const TickClock& clock, BenchReport& report) {
  const GjkBenchConfig& c = plan.config;
  report.text(
      "heavyball bench gjk, table %s: %s, %zu shapes, %zu pairs x %d poses x %zu distances, "
      "%d repeats (mean of the lowest %.0f%%), seed %llu\n",
      c.table.c_str(), c.shapes.c_str(), set.shapes.size(), set.pairs.size(), c.poses,
      c.distances.size(), plan.repeats, 100.0 * kKeptFraction,
      static_cast<unsigned long long>(c.seed));
  if (c.shapes == "ycb") {
    std::vector<int> counts;
    for (const BenchShape& s : set.shapes) counts.push_back(s.numVertices);
    std::sort(counts.begin(), counts.end());
    report.text("hull vertices: min %d, median %d, max %d (meshes from %s)\n", counts.front(),
                counts[counts.size() / 2], counts.back(), c.meshDir.c_str());
  } else {
    report.text("%s uniform in [%g, %g] m\n",
                c.shapes == "ellipsoids" ? "ellipsoid semi-axes" : "cube half edges", c.minSize,
                c.maxSize);
  }
  report.text("distances (m):");
  for (const double d : c.distances) report.text(" %g", d);
  report.text("\nmodes:");
  for (const std::string& m : c.modes) report.text(" %s", m.c_str());
  report.text("\nmethods:");
  for (const std::string& m : results.methods) report.text(" %s", m.c_str());
  for (const std::string& m : results.methods) {
    if (m == "fw" || m == "fw_active_set") {
      report.text(" (Frank-Wolfe cap: %d iterations)", c.frankWolfeMaxIterations);
      break;
    }
  }
  report.text("\nclock: %s, %.1f ticks/us, %.4f us subtracted per measurement\n", clock.source(),
              clock.ticksPerMicrosecond(), clock.overheadMicroseconds());
  report["table"] = c.table;
  report["shapes"] = c.shapes;
  report["pairs"] = set.pairs.size();
  report["poses"] = c.poses;
  report["distances_m"] = c.distances;
  report["modes"] = c.modes;
  report["methods"] = results.methods;
  report["repeats"] = plan.repeats;
  report["seed"] = c.seed;
  report["clock"] = clock.source();
  report.text(
      "placement: %s (%s); x0 = world OBB centre of A - that of B; hints and caches "
      "reset before every call\n",
      c.placement.c_str(),
      c.placement == "exact" ? "signed distance = target, unreachable depths dropped"
                             : "B slid |target| past contact");
}

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

std::vector<double> defaultDistances(const std::string& table) {
  // Table I keeps the problems with -0.01 <= d <= 0.01 m; the other tables span -0.1 .. 1 m.
  if (table == "meshes") return {-0.01, 0.0, 0.001, 0.01};
  return {-0.1, -0.01, 0.0, 0.001, 0.01, 0.1, 1.0};
}

std::vector<std::string> defaultMethodsFor(const std::string& table) {
  if (table == "buckets") return defaultMethods();
  std::vector<std::string> wanted;
  if (table == "fw") wanted = {"fw", "fw_active_set", "gjk", "nesterov"};
  if (table == "meshes") wanted = {"gjk", "polyak", "nesterov"};
  if (table == "peers") {
    wanted = {"gjk", "polyak", "nesterov", "ccd_gjk", "ccd_mpr", "fcl_gjk", "bullet_gjk"};
  }
  const std::vector<std::string> built = availableMethods();
  std::vector<std::string> names;
  for (const std::string& w : wanted) {
    if (std::find(built.begin(), built.end(), w) != built.end()) names.push_back(w);
  }
  return names;
}

void runGjkBench(const GjkBenchConfig& requested) {
  const Plan plan = makePlan(requested);
  const GjkBenchConfig& config = plan.config;
  BenchResults results;
  results.shapes = config.shapes;
  results.targets = config.distances;
  results.exactPlacement = config.placement == "exact";
  results.methods = config.methods;

  MethodSettings settings;
  settings.frankWolfeMaxIterations = config.frankWolfeMaxIterations;
  std::vector<std::unique_ptr<Method>> methods;
  for (const std::string& name : results.methods) methods.push_back(makeMethod(name, settings));

  std::optional<CsvWriter> csv;  // opened first: a bad path fails before minutes of work
  if (!config.csv.empty()) csv.emplace(config.csv);

  std::mt19937_64 rng(config.seed);
  const ShapeSet set = buildShapeSet(config, rng);
  for (const auto& m : methods) m->prepare(set.shapes);
  for (const ShapePair& p : set.pairs) {
    results.pairNames.push_back(set.shapes[p.a].name + "+" + set.shapes[p.b].name);
    results.pairVertices.push_back({set.shapes[p.a].numVertices, set.shapes[p.b].numVertices});
  }

  const TickClock clock;
  BenchReport report("gjk", plan.config.json);
  printHeader(plan, set, results, clock, report);

  const Placement placement = config.placement == "exact" ? Placement::Exact : Placement::Nominal;
  const long totalPoses = static_cast<long>(set.pairs.size()) * config.poses;
  // On a terminal only: a log or a pipe gets the tables alone.
  const auto progress = cli::ProgressDisplay::onTerminalOnly("bench gjk poses", totalPoses);
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
        if (progress) progress->advance();
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
        for (const GjkMode mode : plan.modes) {
          for (std::size_t m = 0; m < methods.size(); ++m) {
            if (!methods[m]->supports(mode)) continue;
            methods[m]->setProblem(problem);
            Record r = measure(*methods[m], mode, plan.repeats, clock, samples);
            r.problem = id;
            r.method = static_cast<int>(m);
            results.records.push_back(r);
          }
        }
      }
      if (progress) progress->advance();
    }
    if (csv) csv->writeNew(results);
  }
  if (progress) progress->finish();
  if (csv) csv->close();
  if (skippedPoses > 0) {
    report.text("warning: %d poses skipped (the reference solver failed at every draw)\n",
                skippedPoses);
  }
  for (std::size_t k = 0; k < config.distances.size(); ++k) {
    if (unreachable[k] == 0) continue;
    report.text(
        "signed distance %g m out of reach for %ld of %ld poses (penetration deeper than "
        "the pair allows along the sliding axis): no problem there\n",
        config.distances[k], unreachable[k], posesDone - skippedPoses);
  }

  if (config.table == "buckets") {
    printBucketTables(results, report);
    printPeerTables(results, report);
  } else if (config.table == "fw") {
    printIterationTable(results, report);
  } else if (config.table == "meshes") {
    printMeshPairTable(results, report);
  } else {
    printPeerTables(results, report);
  }
  printSanityChecks(results, report);
  if (!config.csv.empty()) report.text("\nwrote %s\n", config.csv.c_str());
  report.finish();
}

}  // namespace hb::bench
