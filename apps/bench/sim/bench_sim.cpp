// `heavyball bench sim`: each engine runs the scene in turn; measurements and the table.

#include "apps/bench/sim/bench_sim.hpp"
#include "apps/bench/common/bench_report.hpp"
#include "apps/cli/cli_checks.hpp"
#include "apps/cli/progress_display.hpp"

#include <spdlog/fmt/fmt.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <set>
#include <stdexcept>

#include "apps/bench/sim/penetration_meter.hpp"
#include "apps/bench/sim/rest_window.hpp"
#include "apps/bench/sim/sim_peer.hpp"
#include "apps/cli/name_list.hpp"
#include "engine/scene.hpp"

namespace hb::bench {
namespace {

using Clock = std::chrono::steady_clock;

// CPU time of the process (s): unlike the wall clock it leaves out the time its threads are
// descheduled, which on a shared machine varies from run to run. Engines run one after the
// other, so it is the running engine's: on one thread, or heavyball's workers all counted.
double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

constexpr double kWindowSeconds = 1.0;    // the final window in which bodies count as settled
constexpr double kSettleDistance = 0.01;  // m the centre of mass may move over that window

struct EngineRow {
  std::string name;
  std::string unavailable;  // why the engine has no numbers, or empty
  std::string settings;
  std::vector<std::string> warnings;
  long steps = 0;
  double wallSeconds = 0.0;
  double cpuSeconds = 0.0;
  sim::PenetrationStats penetration;
  sim::RestStats rest;
  int dropped = 0;
  int escaped = 0;
};

bool insideBounds(const Eigen::Vector3d& p, const SceneDescription& scene) {
  return p.allFinite() && (p.array() >= scene.boundsMin.array()).all() &&
         (p.array() <= scene.boundsMax.array()).all();
}

/// Runs one engine for `steps` steps, timing its drops and steps only.
void runEngine(sim::SimPeer& engine, const sim::SimScene& scene, long steps, int measureEvery,
               EngineRow& row) {
  const double dt = scene.base.dt;
  const long windowSteps = std::min(steps, std::lround(kWindowSeconds / dt));
  sim::PenetrationMeter meter(scene);
  sim::RestWindow rest(dt, kSettleDistance, scene.base.boundsMin, scene.base.boundsMax);
  std::vector<Pose> poses;
  std::vector<Eigen::Vector3d> positions;
  long step = 0;
  auto readPoses = [&] {
    poses.resize(row.dropped);
    positions.resize(row.dropped);
    for (int i = 0; i < row.dropped; ++i) {
      poses[i] = engine.pose(i);
      positions[i] = poses[i].p;
      if (!poses[i].isValid()) {
        throw sim::SimDiverged(fmt::format("body {} has a non-finite pose in step {}", i, step));
      }
    }
  };
  const int bodies = static_cast<int>(scene.bodies.size());
  Clock::duration wall{};
  double cpu = 0.0;
  if (windowSteps == steps) {
    readPoses();
    rest.begin(positions);
  }
  // On a terminal, how far each engine has got (a large scene takes minutes per engine).
  const auto progress = cli::ProgressDisplay::onTerminalOnly(row.name + " steps", steps);
  for (long s = 0; s < steps; ++s) {
    if (progress) progress->advance();
    step = s;
    const int firstNew = row.dropped;
    double c0 = processCpuSeconds();
    Clock::time_point t0 = Clock::now();
    while (row.dropped < bodies && scene.bodies[row.dropped].dropStep <= s) {
      engine.drop(row.dropped++);
    }
    if (row.dropped > firstNew) {
      wall += Clock::now() - t0;
      cpu += processCpuSeconds() - c0;
      readPoses();
      meter.excludeDropOverlaps(poses, firstNew);
      c0 = processCpuSeconds();
      t0 = Clock::now();
    }
    engine.step();
    wall += Clock::now() - t0;
    cpu += processCpuSeconds() - c0;

    readPoses();
    if ((s + 1) % measureEvery == 0 || s + 1 == steps) meter.measure(poses);
    if (s + 1 == steps - windowSteps) {
      rest.begin(positions);
    } else if (s + 1 > steps - windowSteps) {
      rest.add(positions);
    }
  }
  if (progress) progress->finish();
  row.steps = steps;
  row.wallSeconds = std::chrono::duration<double>(wall).count();
  row.cpuSeconds = cpu;
  row.penetration = meter.stats();
  row.rest = rest.finish();
  for (const Pose& p : poses) row.escaped += insideBounds(p.p, scene.base) ? 0 : 1;
  row.warnings = engine.warnings();
  row.settings = engine.settings();
}

void printRow(const EngineRow& r, double dt) {
  if (!r.unavailable.empty()) {
    std::printf("%-15s %s\n", r.name.c_str(), r.unavailable.c_str());
    return;
  }
  const double cpuRate = r.cpuSeconds > 0.0 ? r.steps / r.cpuSeconds : 0.0;
  const double wallRate = r.wallSeconds > 0.0 ? r.steps / r.wallSeconds : 0.0;
  std::printf("%-15s %9.1f %9.2f %9.1f %9.3f %9.2f %10.1f %5d/%-5d %9.2f %9.2f %7d\n",
              r.name.c_str(), cpuRate, cpuRate * dt, wallRate, 1000.0 * r.penetration.meanDepth(),
              1000.0 * r.penetration.maxDepth, r.penetration.overlapsPerSample(), r.rest.settled,
              r.rest.candidates, 1000.0 * r.rest.meanJitter, 1000.0 * r.rest.maxJitter, r.escaped);
}

void printTable(const std::vector<EngineRow>& rows, const sim::SimScene& scene) {
  const double dt = scene.base.dt;
  const char* format = "%-15s %9s %9s %9s %9s %9s %10s %11s %9s %9s %7s\n";
  std::printf("\n");
  std::printf(format, "engine", "steps/s", "realtime", "steps/s", "pen mean", "pen max", "overlaps",
              "settled", "jitter", "jitter", "escaped");
  std::printf(format, "", "cpu", "factor", "wall", "mm", "mm", "per sample", "of present",
              "mean mm/s", "max mm/s", "");
  for (const EngineRow& r : rows) printRow(r, dt);
  std::printf("\nsettings:\n");
  for (const EngineRow& r : rows) {
    if (r.unavailable.empty()) std::printf("  %s\n", r.settings.c_str());
  }
  for (const EngineRow& r : rows) {
    for (const std::string& w : r.warnings)
      std::printf("warning (%s): %s\n", r.name.c_str(), w.c_str());
    if (r.penetration.dropOverlaps > 0) {
      std::printf(
          "note (%s): %d pair(s) overlapped when one of them was dropped (deepest %.1f mm), "
          "left out of the penetration columns until they first came apart\n",
          r.name.c_str(), r.penetration.dropOverlaps, 1000.0 * r.penetration.dropOverlapMaxDepth);
    }
    if (r.penetration.failedQueries > 0) {
      std::printf("warning (%s): %ld penetration queries did not converge and were left out\n",
                  r.name.c_str(), r.penetration.failedQueries);
    }
  }
}

nlohmann::json rowJson(const EngineRow& r, double dt) {
  nlohmann::json out = {{"engine", r.name}};
  if (!r.unavailable.empty()) {
    out["unavailable"] = r.unavailable;
    return out;
  }
  const double cpuRate = r.cpuSeconds > 0.0 ? r.steps / r.cpuSeconds : 0.0;
  out.update({{"steps", r.steps},
              {"cpu_s", r.cpuSeconds},
              {"wall_s", r.wallSeconds},
              {"steps_per_cpu_s", cpuRate},
              {"realtime_factor", cpuRate * dt},
              {"penetration_mean_mm", 1000.0 * r.penetration.meanDepth()},
              {"penetration_max_mm", 1000.0 * r.penetration.maxDepth},
              {"overlaps_per_sample", r.penetration.overlapsPerSample()},
              {"settled", r.rest.settled},
              {"settle_candidates", r.rest.candidates},
              {"jitter_mean_mm_s", 1000.0 * r.rest.meanJitter},
              {"jitter_max_mm_s", 1000.0 * r.rest.maxJitter},
              {"escaped", r.escaped},
              {"settings", r.settings},
              {"warnings", r.warnings}});
  return out;
}

/// What the engines cannot share for this scene, said before the table.
void printMaterialNotes(const sim::SimScene& scene) {
  bool frictionsDiffer = false;
  double maxRestitution = scene.staticMaterial.restitution;
  for (const sim::SimBody& b : scene.bodies) {
    frictionsDiffer |= b.material.friction != scene.staticMaterial.friction;
    maxRestitution = std::max(maxRestitution, b.material.restitution);
  }
  if (frictionsDiffer) {
    std::printf(
        "note: frictions differ between materials: heavyball and Bullet combine them by their "
        "geometric mean, MuJoCo by their maximum\n");
  }
  if (maxRestitution > 0.0) {
    std::printf("note: restitution up to %g in the scene: MuJoCo has none (soft contacts)\n",
                maxRestitution);
  }
}

}  // namespace

void runSimBench(const SimBenchConfig& config) {
  if (!(config.seconds > 0.0) || !std::isfinite(config.seconds)) {
    throw std::invalid_argument("--seconds must be a positive number");
  }
  if (config.measureEvery < 1) throw std::invalid_argument("--measure-every must be at least 1");
  std::set<std::string> seen;
  for (const std::string& name : config.peers) {
    sim::simPeerUnavailable(name);  // throws for an unknown name
    if (!seen.insert(name).second)
      throw std::invalid_argument("engine '" + name + "' listed twice");
  }

  SceneDescription scene = loadScene(config.scene);
  if (config.objects >= 0 || config.seed >= 0) {
    if (!scene.spawner) throw std::invalid_argument("--objects/--seed: the scene has no spawner");
    if (config.objects >= 0) scene.spawner->count = config.objects;
    if (config.seed >= 0) scene.spawner->seed = static_cast<unsigned>(config.seed);
  }
  const sim::SimScene simScene = sim::buildSimScene(scene);
  const double dt = scene.dt;
  const long steps = stepsFor(config.seconds, dt);
  const long windowSteps = std::min(steps, std::lround(kWindowSeconds / dt));

  int droppedInRun = 0;
  for (const sim::SimBody& b : simScene.bodies) droppedInRun += b.dropStep < steps ? 1 : 0;
  BenchReport report("sim", config.json);
  report.text(
      "heavyball bench sim: scene %s, %zu bodies, %d of them dropped within the run; %ld steps "
      "of %.6g s (%.2f s simulated) per engine, engines run one after the other in this "
      "process\n",
      scene.name.c_str(), simScene.bodies.size(), droppedInRun, steps, dt, steps * dt);
  report.text(
      "speed: the engine's drops and steps only, in CPU time of all its threads (realtime "
      "factor: simulated time / CPU time) and in wall time; penetration: heavyball's narrow "
      "phase (GJK, EPA) on each engine's poses of the exact shapes, after every %d step(s) and "
      "at the end, every overlapping body-body and body-static pair with its depth (mean over "
      "all of them), except pairs a drop put into overlap, until they come apart\n",
      config.measureEvery);
  report.text(
      "settled: in the scene for the whole final %.2f s, centre of mass moved less than %g mm "
      "over it, inside the bounds; jitter: a settled body's mean speed over that window from its "
      "per-step displacements; escaped: centre of mass outside the scene bounds at the end\n",
      windowSteps * dt, 1000.0 * kSettleDistance);
  if (!config.json) printMaterialNotes(simScene);
  std::fflush(stdout);

  std::vector<std::string> engines = {"heavyball"};
  engines.insert(engines.end(), config.peers.begin(), config.peers.end());
  std::vector<EngineRow> rows;
  std::string failure;
  for (const std::string& name : engines) {
    EngineRow row;
    row.name = name;
    if (name != "heavyball") {
      if (const auto missing = sim::simPeerUnavailable(name)) {
        row.unavailable = "not built: " + *missing;
        rows.push_back(row);
        continue;
      }
    }
    std::fprintf(stderr, "bench sim: %s\n", name.c_str());
    try {
      const std::unique_ptr<sim::SimPeer> engine =
          name == "heavyball" ? sim::makeHeavyballSim(simScene, config.threads)
                              : sim::makeSimPeer(name, simScene);
      runEngine(*engine, simScene, steps, config.measureEvery, row);
    } catch (const sim::SimDiverged& e) {
      row.unavailable = std::string("diverged: ") + e.what();
    } catch (const std::runtime_error& e) {
      row.unavailable = std::string("failed: ") + e.what();
      if (failure.empty()) failure = name + ": " + e.what();
    }
    rows.push_back(row);
  }
  if (config.json) {
    report["scene"] = scene.name;
    report["bodies"] = simScene.bodies.size();
    report["dropped_in_run"] = droppedInRun;
    report["steps"] = steps;
    report["dt"] = dt;
    report["measure_every"] = config.measureEvery;
    report["threads"] = config.threads;
    report["engines"] = nlohmann::json::array();
    for (const EngineRow& r : rows) report["engines"].push_back(rowJson(r, dt));
    report.finish();
  } else {
    printTable(rows, simScene);
  }
  if (!failure.empty()) throw std::runtime_error("bench sim: " + failure);
}

}  // namespace hb::bench

namespace hb::cli {

void addBenchSimCommand(CLI::App& bench) {
  auto config = std::make_shared<bench::SimBenchConfig>();
  auto peers = std::make_shared<std::string>("bullet,mujoco,mujoco-implicit");
  CLI::App* command = bench.add_subcommand(
      "sim",
      "The same scene in heavyball, Bullet and MuJoCo (semi-implicit Euler and implicit "
      "integrators): speed, penetration (measured by heavyball's narrow phase), bodies at rest "
      "and their jitter, escaped bodies");
  command->add_option("--scene", config->scene, "Scene file (JSON, see docs/scenes.md)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--objects", config->objects, "Number of objects the spawner drops")
      ->check(spawnCount());
  command->add_option("--seconds", config->seconds, "Simulated time per engine")
      ->check(simulatedSeconds())
      ->capture_default_str();
  command
      ->add_option("--peers", *peers,
                   "Other engines, comma-separated (bullet; mujoco: semi-implicit Euler, "
                   "MuJoCo's default; mujoco-implicit: its implicit integrator; empty: "
                   "heavyball only)")
      ->capture_default_str();
  command->add_option("--seed", config->seed, "Spawner seed")->check(spawnerSeed());
  command
      ->add_option("--threads", config->threads,
                   "heavyball's worker threads (0: one per core); the peers run on one")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command
      ->add_option("--measure-every", config->measureEvery,
                   "Measure penetration after every this many steps (and at the end)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_flag("--json", config->json,
                    "Print one JSON object (the scene, then one entry per engine) instead of the "
                    "notes and the table");
  command->callback([config, peers] {
    config->peers = splitNames(*peers);
    bench::runSimBench(*config);
  });
}

}  // namespace hb::cli
