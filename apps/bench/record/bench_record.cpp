// `heavyball bench record`: paired runs without and with a recorder, and the overhead table.

#include "apps/bench/record/bench_record.hpp"
#include "apps/cli/cli_checks.hpp"
#include "apps/cli/json_output.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "engine/asset_library.hpp"
#include "engine/recording/recorder.hpp"
#include "engine/recording/recording_metadata.hpp"
#include "engine/recording/warm_start_study_summary.hpp"
#include "engine/run_summary.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb::bench {

namespace {

namespace fs = std::filesystem;

// CPU time of every thread of the process: the recorder compresses and writes on its own.
double processCpuMilliseconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

double wallMilliseconds() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Cost {
  double cpuMs = 0.0;
  double wallMs = 0.0;
};

/// One run of `steps` steps from a new world; with a recorder writing to `file` when given.
Cost timedRun(const SceneDescription& scene, long steps, const RecordingMetadata& meta,
              const fs::path* file) {
  const double cpu = processCpuMilliseconds();
  const double wall = wallMilliseconds();
  {
    World world(scene, 1);  // as a batch runs each world: the recorder's cost against one thread
    std::unique_ptr<Recorder> recorder;
    if (file) {
      recorder = std::make_unique<Recorder>(*file, world, meta);
      world.addObserver([r = recorder.get()](const World& w) { r->record(w); });
    }
    runSteps(world, steps);
    if (recorder) recorder->close();
  }
  return {processCpuMilliseconds() - cpu, wallMilliseconds() - wall};
}

struct Quartiles {
  double q1 = 0.0, median = 0.0, q3 = 0.0;
};

Quartiles quartiles(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {sortedQuantile(v, 0.25), sortedQuantile(v, 0.5), sortedQuantile(v, 0.75)};
}

double sum(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

/// The recordings' folder: the one asked for, or a temporary one removed at the end.
class RecordingDir {
 public:
  explicit RecordingDir(const fs::path& asked)
      : path_(asked.empty() ? fs::temp_directory_path() /
                                  ("heavyball-bench-record-" + std::to_string(::getpid()))
                            : asked),
        temporary_(asked.empty()) {
    fs::create_directories(path_);
  }
  ~RecordingDir() {
    std::error_code ignored;
    if (temporary_) fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool temporary_;
};

void printRow(const char* name, const Quartiles& cpu, const Quartiles& wall, const char* unit) {
  std::printf("%-22s %8.2f%s [%6.2f, %6.2f]   %8.2f%s [%6.2f, %6.2f]\n", name, cpu.median, unit,
              cpu.q1, cpu.q3, wall.median, unit, wall.q1, wall.q3);
}

}  // namespace

void runRecordBench(const RecordBenchConfig& config) {
  if (config.runs < 1 || config.repeats < 1) {
    throw std::invalid_argument("bench record needs at least one run and one repeat");
  }
  if (!(config.seconds > 0.0) || !std::isfinite(config.seconds)) {
    throw std::invalid_argument("bench record: the simulated time per run must be positive");
  }
  const SceneDescription base = loadScene(config.scene);
  if (!base.spawner) {
    throw std::invalid_argument(config.scene.string() +
                                ": the scene has no spawner, so every run would be the same");
  }
  const long steps = stepsFor(config.seconds, base.dt);
  const unsigned firstSeed = config.seed != 0 ? config.seed : base.spawner->seed;
  const RecordingMetadata sceneMeta = recordingMetadata(config.scene, base);
  const RecordingDir dir(config.dir);

  auto sceneFor = [&](unsigned seed) {
    SceneDescription scene = base;
    scene.spawner->seed = seed;
    return scene;
  };
  // Untimed: every asset the spawner may draw, and the recorder's types, built once.
  preloadAssets(base.assetDir, base.spawner->assets, base.defaultDensity, base.hullTolerance, 1);
  {
    const fs::path warm = dir.path() / "warm-up.h5";
    for (int r = 0; r < std::min(config.runs, 5); ++r) {
      timedRun(sceneFor(firstSeed + r), steps, sceneMeta, &warm);
    }
    fs::remove(warm);
  }

  std::vector<double> plainCpu, plainWall, recordedCpu, recordedWall, cpuOverhead, wallOverhead;
  std::vector<double> fileKiB;
  for (int repeat = 0; repeat < config.repeats; ++repeat) {
    for (int r = 0; r < config.runs; ++r) {
      const unsigned seed = firstSeed + static_cast<unsigned>(r);
      const SceneDescription scene = sceneFor(seed);
      RecordingMetadata meta = sceneMeta;
      meta.seed = seed;
      const fs::path file = dir.path() / ("run-" + std::to_string(r) + ".h5");
      Cost plain, recorded;
      if ((r + repeat) % 2 == 0) {
        plain = timedRun(scene, steps, meta, nullptr);
        recorded = timedRun(scene, steps, meta, &file);
      } else {
        recorded = timedRun(scene, steps, meta, &file);
        plain = timedRun(scene, steps, meta, nullptr);
      }
      plainCpu.push_back(plain.cpuMs);
      plainWall.push_back(plain.wallMs);
      recordedCpu.push_back(recorded.cpuMs);
      recordedWall.push_back(recorded.wallMs);
      cpuOverhead.push_back(100.0 * (recorded.cpuMs - plain.cpuMs) / plain.cpuMs);
      wallOverhead.push_back(100.0 * (recorded.wallMs - plain.wallMs) / plain.wallMs);
      if (repeat == 0) fileKiB.push_back(static_cast<double>(fs::file_size(file)) / 1024.0);
    }
  }

  if (config.json) {
    const auto stats = [](const Quartiles& q) {
      return nlohmann::json{{"median", q.median}, {"q1", q.q1}, {"q3", q.q3}};
    };
    const Quartiles size = quartiles(fileKiB);
    const nlohmann::json out = {
        {"bench", "record"},
        {"scene", config.scene.string()},
        {"runs", config.runs},
        {"seconds", config.seconds},
        {"steps", steps},
        {"first_seed", firstSeed},
        {"repeats", config.repeats},
        {"without_recording_ms",
         {{"cpu", stats(quartiles(plainCpu))}, {"wall", stats(quartiles(plainWall))}}},
        {"with_recording_ms",
         {{"cpu", stats(quartiles(recordedCpu))}, {"wall", stats(quartiles(recordedWall))}}},
        {"overhead_percent",
         {{"cpu", stats(quartiles(cpuOverhead))}, {"wall", stats(quartiles(wallOverhead))}}},
        {"overhead_of_sums_percent",
         {{"cpu", 100.0 * (sum(recordedCpu) / sum(plainCpu) - 1.0)},
          {"wall", 100.0 * (sum(recordedWall) / sum(plainWall) - 1.0)}}},
        {"recording_kib", stats(size)},
    };
    std::printf("%s\n", jsonLine(out).c_str());
    return;
  }
  std::printf("bench record: %s, %d runs of %g s (%ld steps) from seed %u, %d repeats\n",
              config.scene.string().c_str(), config.runs, config.seconds, steps, firstSeed,
              config.repeats);
  std::printf("%-22s %-27s   %-27s\n", "", "CPU, all threads", "wall");
  std::printf("%-22s %-27s   %-27s\n", "per run", "median [q1, q3]", "median [q1, q3]");
  printRow("without recording", quartiles(plainCpu), quartiles(plainWall), " ms");
  printRow("with recording", quartiles(recordedCpu), quartiles(recordedWall), " ms");
  printRow("overhead", quartiles(cpuOverhead), quartiles(wallOverhead), " %");
  std::printf("%-22s %8.2f %%                       %8.2f %%\n", "overhead, all runs",
              100.0 * (sum(recordedCpu) / sum(plainCpu) - 1.0),
              100.0 * (sum(recordedWall) / sum(plainWall) - 1.0));
  const Quartiles size = quartiles(fileKiB);
  std::printf("recording size per run: median %.0f KiB [%.0f, %.0f], %.1f MiB for %d runs\n",
              size.median, size.q1, size.q3, sum(fileKiB) / 1024.0, config.runs);
}

}  // namespace hb::bench

namespace hb::cli {

void addBenchRecordCommand(CLI::App& bench) {
  auto config = std::make_shared<bench::RecordBenchConfig>();
  CLI::App* command = bench.add_subcommand(
      "record",
      "Recording overhead: each seed run without and with a recorder, CPU (all threads) and "
      "wall time per run");
  command->add_option("--scene", config->scene, "Scene file with a spawner")
      ->check(CLI::ExistingFile)
      ->capture_default_str();
  command->add_option("--runs", config->runs, "Seeds per repeat")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--seconds", config->seconds, "Simulated time per run")
      ->check(simulatedSeconds())
      ->capture_default_str();
  command->add_option("--repeats", config->repeats, "Passes over the seeds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--seed", config->seed, "First seed (default: the scene's spawner seed)")
      ->check(spawnerSeed());
  command->add_option("--dir", config->dir,
                      "Keep the recordings (one per seed) in this folder (default: a temporary "
                      "folder, removed at the end)");
  command->add_flag("--json", config->json, "Print one JSON object instead of the table");
  command->callback([config] { bench::runRecordBench(*config); });
}

}  // namespace hb::cli
