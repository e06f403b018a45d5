#pragma once
// Joins the directories of one batch's shards: checks that they hold the same batch and, between
// them, every run exactly once, then writes one index over all of them.

#include <filesystem>
#include <string>
#include <vector>

#include "engine/batch_index.hpp"
#include "engine/batch_parameters.hpp"

namespace hb {

struct BatchMerge {
  BatchParameters parameters;
  std::vector<BatchRunFile> runs;  ///< complete runs, by run index, each once
  std::vector<int> missing;        ///< runs found in no directory
  /// Runs found in more than one directory, each with every file that holds it.
  std::vector<std::pair<int, std::vector<std::filesystem::path>>> duplicates;
  /// Run files that do not hold a completed run of the batch, with the reason.
  std::vector<std::string> problems;

  bool complete() const { return missing.empty() && duplicates.empty() && problems.empty(); }
};

/// Reads the batch directories. Throws BatchError when one is not a batch directory or when their
/// parameters differ (listing the differences).
BatchMerge collectBatch(const std::vector<std::filesystem::path>& dirs);

/// Writes `outDir`/index.csv over the merged runs (paths relative to `outDir`) and, when `outDir`
/// is not a batch directory yet, its batch.json. Throws BatchError if it holds another batch.
void writeMergedIndex(const std::filesystem::path& outDir, const BatchMerge& merge);

/// Run indices as ranges: "3, 7-9, 12".
std::string describeRuns(const std::vector<int>& runs);

}  // namespace hb
