#include "engine/recording/batch_runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <exception>
#include <functional>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "engine/asset_library.hpp"
#include "engine/atomic_file.hpp"
#include "engine/batch_index.hpp"
#include "engine/batch_layout.hpp"
#include "engine/file_lock.hpp"
#include "engine/recording/recorder.hpp"
#include "engine/recording/recording_metadata.hpp"
#include "engine/run_file_checksum.hpp"
#include "engine/run_summary.hpp"
#include "engine/run_summary_json.hpp"
#include "engine/scene.hpp"
#include "engine/state_hash.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void validate(const BatchOptions& o) {
  if (o.runs < 1) throw BatchError("a batch needs at least one run");
  if (!(o.seconds > 0.0) || !std::isfinite(o.seconds)) {
    throw BatchError("the simulated time per run must be positive");
  }
  if (o.jobs < 1) throw BatchError("a batch needs at least one job");
  if (o.shard.count < 1 || o.shard.index < 0 || o.shard.index >= o.shard.count) {
    throw BatchError("shard " + std::to_string(o.shard.index) + "/" +
                     std::to_string(o.shard.count) + " does not exist");
  }
}

/// The recording metadata of one run: the batch's, with the run's seed written into the scene.
RecordingMetadata runMetadata(const RecordingMetadata& batch, unsigned seed) {
  RecordingMetadata meta = batch;
  meta.seed = seed;
  nlohmann::json scene = nlohmann::json::parse(batch.sceneJson, nullptr, false);
  if (scene.is_object() && scene.contains("spawner") && scene["spawner"].is_object()) {
    scene["spawner"]["seed"] = seed;
    meta.sceneJson = scene.dump(2);
  }
  return meta;
}

}  // namespace

struct BatchRunner::Impl {
  SceneDescription scene;       // shared read-only by the workers; each run copies it
  RecordingMetadata recording;  // the scene file as run, for recordings
  long steps = 0;
  std::vector<int> toRun;        // incomplete runs of the shard, in order
  std::optional<FileLock> lock;  // on the shard, while this runner lives
};

BatchRunner::BatchRunner(BatchOptions options)
    : options_(std::move(options)), impl_(std::make_unique<Impl>()) {
  validate(options_);
  impl_->scene = loadScene(options_.scene);
  if (!impl_->scene.spawner) {
    throw BatchError(options_.scene.string() +
                     ": the scene has no spawner, so every run of a batch would be the same");
  }
  impl_->steps = stepsFor(options_.seconds, impl_->scene.dt);
  if (options_.record) impl_->recording = recordingMetadata(options_.scene, impl_->scene);

  BatchParameters& p = plan_.parameters;
  p.scene = options_.scene.string();
  p.sceneHash = fileHash(options_.scene);
  p.runs = options_.runs;
  p.seconds = options_.seconds;
  p.seed = options_.seed.value_or(impl_->scene.spawner->seed);
  p.record = options_.record;
  if (static_cast<unsigned long long>(p.seed) + (p.runs - 1) > UINT_MAX) {
    throw BatchError("seeds past " + std::to_string(UINT_MAX) + ": lower --seed or --runs");
  }
  ensureBatchParameters(options_.outDir, p);
  fs::create_directories(batch_layout::runsDir(options_.outDir));
  const fs::path lock =
      batch_layout::shardLock(options_.outDir, options_.shard.index, options_.shard.count);
  impl_->lock = FileLock::tryAcquire(lock);
  if (!impl_->lock && options_.lockWaitSeconds > 0.0) {
    spdlog::info("waiting up to {} s for the batch that holds {} to end", options_.lockWaitSeconds,
                 lock.string());
    impl_->lock = FileLock::acquireWithin(lock, options_.lockWaitSeconds);
  }
  if (!impl_->lock) {
    throw BatchError("another batch is running shard " + std::to_string(options_.shard.index) +
                     "/" + std::to_string(options_.shard.count) + " in " +
                     options_.outDir.string() + " (it holds " + lock.string() +
                     "): let it end, or give this one another directory");
  }

  const BatchScan scan = scanBatchRuns(options_.outDir, p);
  for (const std::string& problem : scan.problems) {
    spdlog::warn("{} (the run will be redone)", problem);
  }
  std::vector<char> done(p.runs, 0);
  for (const BatchRunFile& f : scan.runs) done[f.run] = 1;
  for (int r = 0; r < p.runs; ++r) {
    if (!options_.shard.contains(r)) continue;
    ++plan_.shardRuns;
    if (!done[r]) impl_->toRun.push_back(r);
  }
  plan_.toRun = static_cast<int>(impl_->toRun.size());

  // Files of runs killed in progress: their runs are redone, from scratch. Runs of other shards
  // may be in progress in the same directory right now, so their files stay.
  int removed = 0;
  for (const fs::path& file : scan.temporaries) {
    const auto name = batch_layout::parseRunFileName(file.filename().string());
    if (name && options_.shard.contains(name->run) && !(name->run < p.runs && done[name->run])) {
      removed += fs::remove(file) ? 1 : 0;
    }
  }
  if (removed > 0) spdlog::info("removed {} temporary files of interrupted runs", removed);
}

BatchRunner::~BatchRunner() = default;

namespace {

/// A run whose simulation is over and whose files are not yet committed.
struct SimulatedRun {
  BatchRunResult result;
  std::unique_ptr<Recorder> recorder;  // still writing in the background, when recording
  std::filesystem::path recording;
  std::filesystem::path json;
  nlohmann::json summary;  // the run's JSON summary, checksums still to add
};

/// Simulates one run; everything it touches is its own.
SimulatedRun simulateRun(const SceneDescription& base, const RecordingMetadata& metadata,
                         long steps, const BatchParameters& p, const fs::path& dir, int run) {
  SimulatedRun out;
  BatchRunResult& result = out.result;
  result.run = run;
  result.seed = p.runSeed(run);
  SceneDescription scene = base;
  scene.spawner->seed = result.seed;

  const auto setupStart = Clock::now();
  World world(scene, 1);  // the batch's workers run one world each
  const double setupSeconds = secondsSince(setupStart);

  if (p.record) {
    out.recording = batch_layout::runRecording(dir, run);
    out.recorder = std::make_unique<Recorder>(batch_layout::temporary(out.recording), world,
                                              runMetadata(metadata, result.seed));
    world.addObserver([r = out.recorder.get()](const World& w) { r->record(w); });
  }
  const RunSummary summary = runSteps(world, steps);

  result.stateHash = stateHash(world);
  result.nonFinite = summary.nonFinite;
  result.blewUp = summary.blewUp();
  nlohmann::json j = runSummaryJson(summary, scene);
  j["run"] = run;
  j["seed"] = result.seed;
  j["state_hash"] = hashHex(result.stateHash);
  j["setup_wall_s"] = setupSeconds;
  if (p.record) j["recording"] = out.recording.filename().string();
  out.json = batch_layout::runJson(dir, run);
  out.summary = std::move(j);
  return out;
}

/// Closes the run's recording, flushes its files to disk and commits them. The summary goes
/// last: its presence is what marks the run complete.
BatchRunResult commitRun(SimulatedRun run) {
  if (run.recorder) {
    run.recorder->close();
    commitFile(batch_layout::temporary(run.recording), run.recording);
    const FileDigest digest = digestFile(run.recording);
    run.summary["recording_bytes"] = digest.bytes;
    run.summary["recording_fnv1a64"] = hashHex(digest.fnv1a64);
  }
  addSummaryChecksum(run.summary);
  writeFileAtomically(run.json, batch_layout::temporary(run.json), run.summary.dump(2) + "\n");
  return run.result;
}

/// What the workers of one batch share: the next run to take, the first failure and the report
/// (under the mutex).
struct SharedBatch {
  SharedBatch(const BatchParameters& parameters,
              const std::function<void(const BatchRunResult&)>& onRunDone, BatchReport& report)
      : parameters(parameters), onRunDone(onRunDone), report(report) {}

  const BatchParameters& parameters;
  const std::function<void(const BatchRunResult&)>& onRunDone;
  BatchReport& report;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex mutex;

  /// Records the first failure, naming run `r`, from inside a catch block: an exception leaving
  /// a worker would end the process.
  void fail(int r) {
    std::string what = "unknown error";
    try {
      throw;
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    std::lock_guard lock(mutex);
    if (!error) {
      error =
          std::make_exception_ptr(BatchError("run " + std::to_string(r) + " (seed " +
                                             std::to_string(parameters.runSeed(r)) + "): " + what));
    }
    failed = true;
  }

  /// Counts a committed run.
  void tally(const BatchRunResult& result) {
    std::lock_guard lock(mutex);
    ++report.completed;
    if (result.nonFinite) {
      ++report.nonFinite;
      spdlog::warn("run {} (seed {}) produced a non-finite state", result.run, result.seed);
    } else if (result.blewUp) {
      ++report.blownUp;
      spdlog::warn("run {} (seed {}) blew up: energy from nowhere or a body out of bounds",
                   result.run, result.seed);
    }
    if (onRunDone) onRunDone(result);
  }
};

/// One worker: takes the runs toRun[next] while any of the first `count` is left and none has
/// failed. It commits each run (closing the recording, waiting for the disk) on another thread
/// while it simulates the next one, so at most one run per worker is committing.
void runWorker(SharedBatch& shared, const std::vector<int>& toRun, std::size_t count,
               const std::function<SimulatedRun(int)>& simulate) {
  int committing = -1;  // the run whose commit is under way
  std::future<BatchRunResult> commit;
  const auto finishCommit = [&] {
    if (!commit.valid()) return;
    try {
      shared.tally(commit.get());
    } catch (...) {
      shared.fail(committing);
    }
  };
  while (!shared.failed.load()) {
    const std::size_t i = shared.next.fetch_add(1);
    if (i >= count) break;
    const int r = toRun[i];
    try {
      SimulatedRun run = simulate(r);
      finishCommit();
      committing = r;
      commit = std::async(std::launch::async, commitRun, std::move(run));
    } catch (...) {
      shared.fail(r);
    }
  }
  finishCommit();
}

}  // namespace

BatchReport BatchRunner::run(const std::function<void(const BatchRunResult&)>& onRunDone) {
  const auto start = Clock::now();
  const BatchParameters& p = plan_.parameters;
  const std::vector<int>& toRun = impl_->toRun;
  std::size_t count = toRun.size();
  if (options_.maxNewRuns >= 0) count = std::min<std::size_t>(count, options_.maxNewRuns);

  if (count > 0) {
    const SceneDescription& scene = impl_->scene;
    preloadAssets(scene.assetDir, scene.spawner->assets, scene.defaultDensity, scene.hullTolerance,
                  options_.jobs);
  }

  BatchReport report;
  report.parameters = p;
  report.shardRuns = plan_.shardRuns;
  report.skipped = plan_.shardRuns - plan_.toRun;

  // Workers take the next run from a shared counter; nothing else is shared but the report.
  SharedBatch shared(p, onRunDone, report);
  const auto simulate = [&](int r) {
    return simulateRun(impl_->scene, impl_->recording, impl_->steps, p, options_.outDir, r);
  };
  const int jobs =
      static_cast<int>(std::min<std::size_t>(options_.jobs, std::max<std::size_t>(count, 1)));
  {
    std::vector<std::jthread> workers;
    for (int j = 1; j < jobs; ++j) {
      workers.emplace_back([&] { runWorker(shared, toRun, count, simulate); });
    }
    runWorker(shared, toRun, count, simulate);
  }  // joins the workers
  // The index lists what is complete, also when the batch stops on an error: an index left from
  // an earlier invocation would describe another state of the folder.
  const auto rebuildIndex = [&] {
    const BatchScan scan = scanBatchRuns(options_.outDir, p);
    writeBatchIndex(options_.outDir, scan.runs);
    return static_cast<int>(scan.runs.size());
  };
  if (shared.error) {
    try {
      rebuildIndex();
    } catch (const std::exception& e) {  // the run's own error comes first
      spdlog::warn("batch: index not rewritten after the failure: {}", e.what());
    }
    std::rethrow_exception(shared.error);
  }

  report.remaining = plan_.toRun - report.completed;
  report.indexedRuns = rebuildIndex();
  report.wallSeconds = secondsSince(start);
  return report;
}

}  // namespace hb
