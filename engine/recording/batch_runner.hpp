#pragma once
// Runs a batch: the same scene many times with spawner seeds seed, seed + 1, ..., each run in its
// own World on one of several worker threads, each run's results in its own files (layout in
// engine/batch_layout.hpp, usage in docs/batch.md). A run's result depends on its seed only: not
// on the number of threads, the shard or the order in which runs happen, so a batch can be killed
// and resumed, or split over machines, and still give bit-identical run files.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/batch_parameters.hpp"

namespace hb {

/// The runs r with r % count == index (one machine's share of a batch).
struct BatchShard {
  int index = 0;
  int count = 1;
  bool contains(int run) const { return run % count == index; }
};

/// A run just completed (passed to BatchOptions::onRunDone).
struct BatchRunResult {
  int run = -1;
  unsigned seed = 0;
  std::uint64_t stateHash = 0;
  bool nonFinite = false;
  bool blewUp = false;  ///< RunSummary::blewUp(): non-finite, energy from nowhere or escaped
};

struct BatchOptions {
  std::filesystem::path scene;  ///< scene file; needs a spawner
  std::filesystem::path outDir;
  int runs = 0;
  double seconds = 1.0;
  /// Seed of run 0; unset: the scene's spawner seed (so run 0 is the scene as written).
  std::optional<unsigned> seed;
  bool record = false;
  int jobs = 1;  ///< worker threads
  BatchShard shard;
  /// How long to wait for another batch of the same shard in the same directory to end (a
  /// requeued cluster task may start while the cancelled one still finishes) before refusing.
  double lockWaitSeconds = 60.0;
  /// Stop starting new runs after this many (negative: no limit). Leaves the batch as a kill
  /// would, minus the temporary files; for tests of resuming.
  int maxNewRuns = -1;
};

struct BatchReport {
  BatchParameters parameters;
  int shardRuns = 0;    ///< runs of the batch in this shard
  int skipped = 0;      ///< of those, complete before this invocation
  int completed = 0;    ///< run by this invocation
  int remaining = 0;    ///< still to run in this shard (after maxNewRuns)
  int nonFinite = 0;    ///< runs completed now whose state became NaN or infinite
  int blownUp = 0;      ///< runs completed now that blew up otherwise (energy, escaped bodies)
  int indexedRuns = 0;  ///< rows of DIR/index.csv
  double wallSeconds = 0.0;
};

/// The runs of the shard that are not complete yet, known before starting (for progress).
struct BatchPlan {
  BatchParameters parameters;
  int shardRuns = 0;
  int toRun = 0;
};

class BatchRunner {
 public:
  /// Loads the scene and opens (or creates) the batch directory, locking its shard there while
  /// the runner lives (batch_layout::shardLock). Throws BatchError when the directory holds a
  /// batch with other parameters or another runner holds the shard, JsonError / MeshLoadError
  /// for bad scenes.
  explicit BatchRunner(BatchOptions options);
  ~BatchRunner();
  BatchRunner(const BatchRunner&) = delete;
  BatchRunner& operator=(const BatchRunner&) = delete;

  const BatchPlan& plan() const { return plan_; }

  /// Runs every incomplete run of the shard, then rewrites DIR/index.csv from the run files.
  /// `onRunDone` is called from the worker threads, one call at a time, after each run's files
  /// are complete. Rethrows the first run's exception (recording I/O, bad assets) after the
  /// workers stop.
  BatchReport run(const std::function<void(const BatchRunResult&)>& onRunDone = {});

 private:
  struct Impl;
  BatchOptions options_;
  BatchPlan plan_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hb
