// `heavyball batch`: many runs of one scene with consecutive spawner seeds, over worker threads,
// resumable and splittable into shards (docs/batch.md).

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <climits>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "apps/cli/cli_checks.hpp"
#include "apps/cli/progress_display.hpp"
#include "apps/cli/slurm_shard.hpp"
#include "apps/heavyball/commands.hpp"
#include "engine/recording/batch_runner.hpp"

namespace hb::cli {
namespace {

struct BatchCommandOptions {
  std::string scene;
  int runs = 0;
  double seconds = 1.0;
  std::string out;
  int jobs = 0;
  long long seed = -1;
  std::string shard = "0/1";
  bool record = false;
};

int parseCount(std::string_view text) {
  int value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() ? value : -1;
}

/// "i/N" with 0 <= i < N, or "slurm": the shard of this Slurm array task.
BatchShard parseShard(const std::string& text) {
  if (text == "slurm") {
    try {
      return slurmShard(processEnvironment());
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError("--shard", e.what());
    }
  }
  const std::size_t slash = text.find('/');
  BatchShard shard;
  if (slash != std::string::npos) {
    shard.index = parseCount(std::string_view(text).substr(0, slash));
    shard.count = parseCount(std::string_view(text).substr(slash + 1));
  }
  if (slash == std::string::npos || shard.index < 0 || shard.count < 1 ||
      shard.index >= shard.count) {
    throw CLI::ValidationError("--shard", "expected i/N with 0 <= i < N, got '" + text + "'");
  }
  return shard;
}

void run(const BatchCommandOptions& o) {
  BatchOptions options;
  options.scene = o.scene;
  options.outDir = o.out;
  options.runs = o.runs;
  options.seconds = o.seconds;
  if (o.seed >= 0) options.seed = static_cast<unsigned>(o.seed);
  options.record = o.record;
  // Workers: --jobs, else the CPUs Slurm gave the task, else every hardware thread.
  const std::optional<int> slurmCpus = slurmCpusPerTask(processEnvironment());
  options.jobs = o.jobs > 0  ? o.jobs
                 : slurmCpus ? *slurmCpus
                             : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options.shard = parseShard(o.shard);

  BatchRunner runner(options);
  const BatchPlan& plan = runner.plan();
  spdlog::info("batch {}: {} runs of {} s from seed {}{}; shard {}/{}: {} runs, {} to do, {} jobs",
               o.out, plan.parameters.runs, plan.parameters.seconds, plan.parameters.seed,
               plan.parameters.record ? ", recorded" : "", options.shard.index, options.shard.count,
               plan.shardRuns, plan.toRun, options.jobs);

  ProgressDisplay progress("runs", plan.shardRuns, plan.shardRuns - plan.toRun);
  BatchReport report;
  try {
    report = runner.run([&progress](const BatchRunResult&) { progress.advance(); });
  } catch (...) {
    progress.finish();
    throw;
  }
  progress.finish();
  spdlog::info(
      "batch {}: {} runs now ({:.1f} s, {:.2f} runs/s), {} done before; index.csv lists "
      "{} runs",
      o.out, report.completed, report.wallSeconds,
      report.wallSeconds > 0 ? report.completed / report.wallSeconds : 0.0, report.skipped,
      report.indexedRuns);
  if (report.nonFinite > 0) {
    spdlog::warn("{} runs ended with a non-finite state (\"nan\": true in their run files)",
                 report.nonFinite);
  }
  if (report.blownUp > 0) {
    spdlog::warn(
        "{} runs blew up (\"energy_grew\": true or \"escaped_bodies\" > 0 in their run files)",
        report.blownUp);
  }
}

}  // namespace

void addBatchCommand(CLI::App& app) {
  auto options = std::make_shared<BatchCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "batch",
      "Run a scene many times with consecutive spawner seeds (resumable, see docs/batch.md)");
  cmd->add_option("--scene", options->scene, "Scene file (JSON, with a spawner)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--runs", options->runs, "Number of runs in the batch")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seconds", options->seconds, "Simulated time per run")
      ->check(simulatedSeconds())
      ->capture_default_str();
  cmd->add_option("--out", options->out, "Batch directory (created; resumed if it exists)")
      ->required();
  cmd->add_option("--jobs", options->jobs,
                  "Worker threads (default: SLURM_CPUS_PER_TASK in a Slurm job, else one per "
                  "hardware thread)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", options->seed,
                  "Spawner seed of run 0; run r uses seed + r (default: the scene's seed)")
      ->check(spawnerSeed());
  cmd->add_option("--shard", options->shard,
                  "Only the runs r with r % N == i, given as i/N; or 'slurm': this Slurm array "
                  "task's shard (SLURM_ARRAY_TASK_ID among SLURM_ARRAY_TASK_COUNT tasks; "
                  "scripts/slurm)")
      ->capture_default_str();
  cmd->add_flag("--record", options->record, "Also write each run's HDF5 recording");
  cmd->callback([options] { run(*options); });
}

}  // namespace hb::cli
