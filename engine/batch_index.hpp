#pragma once
// The completed runs of a batch directory, read back from the run files (the source of truth),
// and the index that lists them: DIR/index.csv, one row per run in run order, columns in
// docs/batch.md. The index is derived data: it can always be rebuilt from the run files.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/batch_parameters.hpp"

namespace hb {

/// One completed run: its summary file (and recording).
struct BatchRunFile {
  int run = -1;
  nlohmann::json summary;  ///< the run file's contents
  std::filesystem::path json;
  std::filesystem::path recording;  ///< empty without recording
};

struct BatchScan {
  std::vector<BatchRunFile> runs;  ///< valid completed runs, by run index
  /// Run files that exist but do not hold a completed run of this batch, each with the reason.
  std::vector<std::string> problems;
  std::vector<std::filesystem::path> temporaries;  ///< files left by runs in progress
};

/// Reads every run file of DIR/runs. A run is complete when its .json parses, names its run index
/// and seed as `parameters` say it should, (with recording) its .h5 exists, and both match their
/// checksums (engine/run_file_checksum.hpp).
BatchScan scanBatchRuns(const std::filesystem::path& dir, const BatchParameters& parameters);

/// Writes `indexDir`/index.csv (atomically) listing `runs`; file columns hold paths relative to
/// `indexDir`.
void writeBatchIndex(const std::filesystem::path& indexDir, const std::vector<BatchRunFile>& runs);

}  // namespace hb
