// `heavyball bench broadphase`: moving scenes, timed updates and the table.

#include "apps/bench/broadphase/bench_broadphase.hpp"
#include "apps/bench/common/bench_report.hpp"

#include <CLI/CLI.hpp>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "apps/bench/common/bench_timer.hpp"
#include "apps/cli/cli_checks.hpp"
#include "collision/broad_phase.hpp"
#include "collision/obb.hpp"
#include "collision/pose.hpp"
#include "engine/funnel.hpp"
#include "engine/scene.hpp"

namespace hb::bench {

namespace {

using Eigen::Vector3d;

constexpr double kStep = 1.0 / 120.0;  // seconds per frame, the simulator's rate
constexpr double kMinHalfExtent = 0.05;
constexpr double kMaxHalfExtent = 0.25;
constexpr double kMaxSpeed = 1.0;         // per velocity component, m/s
constexpr double kMaxAngularSpeed = 3.0;  // rad/s
// The funnel-like table: boxes this much smaller (and denser by its cube, so that they fill space
// as in the first table), 100 of them in about a cubic metre, as the shipped funnel's pile.
constexpr double kFunnelSizeScale = 0.5;

// CPU time of the calling thread: unlike the cycle counter it leaves out the time the thread
// spends descheduled, which dominates long calls on a loaded machine.
double threadCpuMicroseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e6 * static_cast<double>(t.tv_sec) + 1e-3 * static_cast<double>(t.tv_nsec);
}

// The shipped funnel scene's statics (assets/scenes/funnel.json): the World's ground (a 100 m x
// 100 m x 1 m box with its top at z = 0), the funnel's 16 panels and four low walls around it.
std::vector<Obb> funnelSceneStatics() {
  std::vector<Obb> statics;
  Obb ground;
  ground.center = Vector3d(0.0, 0.0, -0.5);
  ground.halfExtents = Vector3d(50.0, 50.0, 0.5);
  statics.push_back(ground);
  for (const auto& [shape, pose] : funnelPanels(FunnelDescription{})) {
    statics.push_back(localObb(shape).transformed(pose));
  }
  for (const double side : {-1.0, 1.0}) {
    Obb wall;
    wall.center = Vector3d(1.25 * side, 0.0, 0.1);
    wall.halfExtents = Vector3d(0.05, 1.3, 0.1);
    statics.push_back(wall);
    wall.center = Vector3d(0.0, 1.25 * side, 0.1);
    wall.halfExtents = Vector3d(1.3, 0.05, 0.1);
    statics.push_back(wall);
  }
  return statics;
}

// Where the boxes fly: a cube of n / density cubic metres, in the positive octant or standing on
// the ground (z = 0) around the vertical axis, among static boxes listed before the moving ones.
struct SceneLayout {
  double density = 10.0;   // bodies per cubic metre
  double sizeScale = 1.0;  // half-extents times this
  bool onGround = false;
  std::vector<Obb> statics;
};

// Boxes flying about in a cube, bouncing off its walls.
class MovingScene {
 public:
  MovingScene(int n, const SceneLayout& layout, std::uint64_t seed)
      : side_(std::cbrt(n / layout.density)), rng_(seed) {
    low_ = layout.onGround ? Vector3d(-0.5 * side_, -0.5 * side_, 0.0) : Vector3d::Zero();
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_real_distribution<double> half(layout.sizeScale * kMinHalfExtent,
                                                layout.sizeScale * kMaxHalfExtent);
    std::normal_distribution<double> gauss(0.0, 1.0);
    bodies_.resize(n);
    for (Body& b : bodies_) {
      b.halfExtents = Vector3d(half(rng_), half(rng_), half(rng_));
      b.pose.q = Eigen::Quaterniond(gauss(rng_), gauss(rng_), gauss(rng_), gauss(rng_));
      b.pose.q.normalize();
      b.pose.p = low_ + side_ * Vector3d(unit(rng_), unit(rng_), unit(rng_));
      b.velocity =
          kMaxSpeed * (2.0 * Vector3d(unit(rng_), unit(rng_), unit(rng_)) - Vector3d::Ones());
      b.angularVelocity = kMaxAngularSpeed * unit(rng_) *
                          Vector3d(gauss(rng_), gauss(rng_), gauss(rng_)).normalized();
    }
    statics_ = static_cast<int>(layout.statics.size());
    boxes_ = layout.statics;
    boxes_.resize(statics_ + n);
    isStatic_.assign(statics_ + n, 0);
    std::fill_n(isStatic_.begin(), statics_, 1);
    updateBoxes();
  }

  /// One semi-implicit Euler step without forces.
  void step() {
    for (Body& b : bodies_) {
      b.pose.p += kStep * b.velocity;
      for (int k = 0; k < 3; ++k) {
        if ((b.pose.p[k] < low_[k] && b.velocity[k] < 0.0) ||
            (b.pose.p[k] > low_[k] + side_ && b.velocity[k] > 0.0)) {
          b.velocity[k] = -b.velocity[k];
        }
      }
      const double angle = kStep * b.angularVelocity.norm();
      if (angle > 0.0) {
        const Eigen::AngleAxisd turn(angle, b.angularVelocity.normalized());
        b.pose.q = (Eigen::Quaterniond(turn) * b.pose.q).normalized();
      }
    }
    updateBoxes();
  }

  /// The statics, then the moving boxes.
  BroadPhaseInput input() const { return {boxes_, {}, isStatic_}; }

 private:
  struct Body {
    Pose pose;
    Vector3d halfExtents;
    Vector3d velocity;
    Vector3d angularVelocity;
  };

  void updateBoxes() {
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      Obb& box = boxes_[statics_ + i];
      box.center = bodies_[i].pose.p;
      box.axes = bodies_[i].pose.rotation();
      box.halfExtents = bodies_[i].halfExtents;
    }
  }

  double side_;
  Vector3d low_;  // the cube's lowest corner
  std::mt19937_64 rng_;
  std::vector<Body> bodies_;
  int statics_ = 0;
  std::vector<Obb> boxes_;
  std::vector<std::uint8_t> isStatic_;
};

struct Row {
  int n = 0;
  double pairs = 0.0;         // median over the warm frames
  double aabbOverlaps = 0.0;  // median over the warm frames
  double coldUs = 0.0;
  double warmUs = 0.0;
  double warmCpuUs = 0.0;
  int fullSorts = 0;  // warm frames that fell back to a full sort
  int columns = 1;    // sweep columns in the last warm frame
  std::optional<double> bruteUs;
  int checked = 0, matched = 0;
};

std::vector<int> sizes(int maxBodies) {
  std::vector<int> result;
  for (long n = 10; n <= maxBodies; n *= 10) result.push_back(static_cast<int>(n));
  if (result.empty() || result.back() != maxBodies) result.push_back(maxBodies);
  return result;
}

Row measure(const BroadphaseBenchConfig& c, const SceneLayout& layout, int n,
            const TickClock& clock) {
  Row row;
  row.n = n;
  const std::uint64_t seed = c.seed + static_cast<std::uint64_t>(n);
  std::vector<double> times, pairs, aabb;

  // Cold: a new BroadPhase each time, so the call allocates and sorts from scratch. A new frame
  // each time too: the same small scene over and over would let the branch predictor learn it.
  {
    MovingScene scene(n, layout, seed);
    for (int r = 0; r < c.repeats; ++r) {
      scene.step();
      const BroadPhaseInput input = scene.input();
      BroadPhase broadPhase;
      const std::uint64_t t0 = TickClock::now();
      const std::vector<ProxyPair>& result = broadPhase.update(input);
      const std::uint64_t t1 = TickClock::now();
      doNotOptimize(result.data());
      times.push_back(clock.microseconds(t0, t1));
    }
    row.coldUs = median(times);
  }

  // Warm: one BroadPhase, every box moved by one step between calls.
  {
    MovingScene scene(n, layout, seed);
    BroadPhase broadPhase;
    broadPhase.update(scene.input());
    times.clear();
    std::vector<double> cpuTimes;
    for (int r = 0; r < c.repeats; ++r) {
      scene.step();
      const BroadPhaseInput input = scene.input();
      const double cpu0 = threadCpuMicroseconds();
      const std::uint64_t t0 = TickClock::now();
      const std::vector<ProxyPair>& result = broadPhase.update(input);
      const std::uint64_t t1 = TickClock::now();
      const double cpu1 = threadCpuMicroseconds();
      doNotOptimize(result.data());
      times.push_back(clock.microseconds(t0, t1));
      cpuTimes.push_back(cpu1 - cpu0);
      pairs.push_back(static_cast<double>(result.size()));
      aabb.push_back(static_cast<double>(broadPhase.stats().aabbOverlaps));
      row.fullSorts += broadPhase.stats().fullSort ? 1 : 0;
      row.columns = broadPhase.stats().columns;
    }
    row.warmUs = median(times);
    row.warmCpuUs = median(cpuTimes);
    row.pairs = median(pairs);
    row.aabbOverlaps = median(aabb);
  }

  // Brute force on the same frames, which also checks the broad phase's answers.
  if (n <= c.bruteMaxBodies) {
    MovingScene scene(n, layout, seed);
    BroadPhase broadPhase;
    broadPhase.update(scene.input());
    times.clear();
    for (int r = 0; r < c.repeats; ++r) {
      scene.step();
      const BroadPhaseInput input = scene.input();
      const std::uint64_t t0 = TickClock::now();
      const std::vector<ProxyPair> expected = bruteForcePairs(input);
      const std::uint64_t t1 = TickClock::now();
      times.push_back(clock.microseconds(t0, t1));
      ++row.checked;
      row.matched += broadPhase.update(input) == expected ? 1 : 0;
    }
    row.bruteUs = median(times);
  }
  return row;
}

// d log(time) / d log(n) between two rows: 1 is linear, 2 quadratic.
double slope(double t0, double t1, int n0, int n1) {
  if (t0 <= 0.0 || t1 <= 0.0) return 0.0;
  return std::log(t1 / t0) / std::log(static_cast<double>(n1) / n0);
}

void printTable(const std::vector<Row>& rows) {
  const char* format = "%6s %5s %7s %7s %10s %10s %10s %8s %5s %10s %6s %6s %6s %6s %7s\n";
  std::printf("\n");
  std::printf(format, "n", "cols", "pairs", "AABB", "cold", "warm", "warm cpu", "warm", "full",
              "brute", "brute/", "slope", "slope", "slope", "match");
  std::printf(format, "", "", "", "pairs", "us", "us", "us", "us/body", "sorts", "us", "warm",
              "cold", "warm", "cpu", "brute");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::printf("%6d %5d %7.0f %7.0f %10.2f %10.2f %10.2f %8.3f %5d", r.n, r.columns, r.pairs,
                r.aabbOverlaps, r.coldUs, r.warmUs, r.warmCpuUs, r.warmUs / r.n, r.fullSorts);
    if (r.bruteUs) {
      std::printf(" %10.1f %6.1f", *r.bruteUs, *r.bruteUs / r.warmUs);
    } else {
      std::printf(" %10s %6s", "-", "-");
    }
    if (i > 0) {
      const Row& p = rows[i - 1];
      std::printf(" %6.2f %6.2f %6.2f", slope(p.coldUs, r.coldUs, p.n, r.n),
                  slope(p.warmUs, r.warmUs, p.n, r.n), slope(p.warmCpuUs, r.warmCpuUs, p.n, r.n));
    } else {
      std::printf(" %6s %6s %6s", "-", "-", "-");
    }
    if (r.checked > 0) {
      std::printf(" %3d/%-3d\n", r.matched, r.checked);
    } else {
      std::printf(" %7s\n", "-");
    }
  }
}

nlohmann::json rowsJson(const std::vector<Row>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const Row& r : rows) {
    nlohmann::json row = {{"n", r.n},
                          {"columns", r.columns},
                          {"pairs", r.pairs},
                          {"aabb_pairs", r.aabbOverlaps},
                          {"cold_us", r.coldUs},
                          {"warm_us", r.warmUs},
                          {"warm_cpu_us", r.warmCpuUs},
                          {"full_sorts", r.fullSorts}};
    if (r.bruteUs) row["brute_us"] = *r.bruteUs;
    if (r.checked > 0) row["brute_matched"] = {{"matched", r.matched}, {"checked", r.checked}};
    out.push_back(row);
  }
  return out;
}

}  // namespace

void runBroadphaseBench(const BroadphaseBenchConfig& config) {
  if (config.maxBodies < 1 || config.repeats < 1) {
    throw std::invalid_argument("--max-bodies and --repeats must be at least 1");
  }
  if (!(config.density > 0.0) || !std::isfinite(config.density)) {
    throw std::invalid_argument("--density must be a positive number");
  }
  const TickClock clock;
  BenchReport report("broadphase", config.json);
  report.text(
      "heavyball bench broadphase: random boxes (half-extents %g-%g m, random rotations), %g "
      "bodies/m^3 in a cube, speeds up to %g m/s per axis and %g rad/s, steps of 1/%.0f s; "
      "median of %d updates; seed %llu\n",
      kMinHalfExtent, kMaxHalfExtent, config.density, kMaxSpeed, kMaxAngularSpeed, 1.0 / kStep,
      config.repeats, static_cast<unsigned long long>(config.seed));
  report.text(
      "cold: first update() of a new BroadPhase; warm: after one step of every box; times are "
      "medians of wall-clock cycles, warm cpu the thread's CPU time (leaves out preemption)\n");
  report.text("clock: %s\n", clock.source());
  std::fflush(stdout);

  SceneLayout open;
  open.density = config.density;
  std::vector<Row> rows;
  for (const int n : sizes(config.maxBodies)) {
    std::fprintf(stderr, "bench broadphase: n = %d\n", n);
    rows.push_back(measure(config, open, n, clock));
  }
  report["density"] = config.density;
  report["repeats"] = config.repeats;
  report["seed"] = config.seed;
  report["clock"] = clock.source();
  report["open"] = rowsJson(rows);
  if (!config.json) printTable(rows);

  SceneLayout funnel;
  funnel.sizeScale = kFunnelSizeScale;
  funnel.density = config.density / std::pow(kFunnelSizeScale, 3);
  funnel.onGround = true;
  funnel.statics = funnelSceneStatics();
  report.text(
      "\nfunnel-like: the funnel scene's %zu statics (a 100 m ground box, 16 panels, 4 walls) "
      "and "
      "n moving boxes half as big (%g-%g m), %g bodies/m^3 in a cube standing on the ground\n",
      funnel.statics.size(), kFunnelSizeScale * kMinHalfExtent, kFunnelSizeScale * kMaxHalfExtent,
      funnel.density);
  rows.clear();
  for (const int n : sizes(config.maxBodies)) {
    std::fprintf(stderr, "bench broadphase: funnel-like, n = %d\n", n);
    rows.push_back(measure(config, funnel, n, clock));
  }
  report["funnel_like"] = rowsJson(rows);
  if (!config.json) printTable(rows);
  report.finish();
}

}  // namespace hb::bench

namespace hb::cli {

void addBenchBroadphaseCommand(CLI::App& bench) {
  auto config = std::make_shared<bench::BroadphaseBenchConfig>();
  CLI::App* command = bench.add_subcommand(
      "broadphase",
      "Sort-and-sweep broad phase on random moving boxes at constant density, alone and among "
      "the funnel scene's statics, cold and warm, against brute force");
  command->add_option("--max-bodies", config->maxBodies, "Largest scene (sizes 10, 100, ...)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--repeats", config->repeats, "Timed updates per size; the median is shown")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command
      ->add_option("--brute-max", config->bruteMaxBodies,
                   "Largest scene also timed (and checked) with brute force")
      ->capture_default_str();
  command->add_option("--density", config->density, "Bodies per cubic metre")
      ->check(finitePositive())
      ->capture_default_str();
  command->add_option("--seed", config->seed, "Random seed")->capture_default_str();
  command->add_flag("--json", config->json,
                    "Print one JSON object (a row per size, open and funnel-like) instead of the "
                    "tables");
  command->callback([config] { bench::runBroadphaseBench(*config); });
}

}  // namespace hb::cli
