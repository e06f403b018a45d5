// `heavyball batch-merge`: joins the shard directories of one batch and indexes them together
// (docs/batch.md).

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "apps/heavyball/commands.hpp"
#include "engine/batch_merge.hpp"

namespace hb::cli {
namespace {

// Exit status when runs are missing or duplicated: the merge is refused, nothing is written.
constexpr int kIncompleteExit = 2;

struct BatchMergeOptions {
  std::vector<std::string> dirs;
  std::string out;
};

void run(const BatchMergeOptions& o) {
  std::vector<std::filesystem::path> dirs(o.dirs.begin(), o.dirs.end());
  const BatchMerge merge = collectBatch(dirs);
  const int runs = merge.parameters.runs;
  if (!merge.complete()) {
    if (!merge.missing.empty()) {
      spdlog::error("{} of {} runs missing: {}", merge.missing.size(), runs,
                    describeRuns(merge.missing));
    }
    if (!merge.duplicates.empty()) {
      std::vector<int> duplicated;
      for (const auto& [run, files] : merge.duplicates) duplicated.push_back(run);
      spdlog::error("{} runs are in more than one directory: {}", duplicated.size(),
                    describeRuns(duplicated));
      const auto& [run, files] = merge.duplicates.front();
      for (const auto& f : files) spdlog::error("  run {}: {}", run, f.string());
    }
    for (const std::string& problem : merge.problems) spdlog::error("{}", problem);
    spdlog::error(
        "not merged: every run must be in exactly one directory (a shard's batch command, run "
        "again, completes its missing runs)");
    throw CLI::RuntimeError(kIncompleteExit);
  }
  const std::filesystem::path out = o.out.empty() ? dirs.front() : std::filesystem::path(o.out);
  writeMergedIndex(out, merge);
  spdlog::info("merged {} runs from {} directories into {}", runs, dirs.size(),
               (out / "index.csv").string());
}

}  // namespace

void addBatchMergeCommand(CLI::App& app) {
  auto options = std::make_shared<BatchMergeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "batch-merge", "Check that shard directories hold a whole batch and index them together");
  cmd->add_option("dirs", options->dirs, "Batch directories (the shards)")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--out", options->out,
                  "Where to write the merged index.csv (default: the first directory)");
  cmd->callback([options] { run(*options); });
}

}  // namespace hb::cli
