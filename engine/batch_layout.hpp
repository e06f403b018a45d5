#pragma once
// Where a batch keeps its files (docs/batch.md):
//   DIR/batch.json             the batch parameters, written by the first invocation
//   DIR/index.csv              one row per completed run, rebuilt from the run files
//   DIR/runs/run-000123.json   run 123's summary; its presence marks the run complete
//   DIR/runs/run-000123.h5     run 123's recording (with recording on)
// Every file is written under a temporary name ending in ".part" in the same directory and
// renamed when complete, so a killed batch leaves no truncated file under a final name.

#include <filesystem>
#include <optional>
#include <string>

namespace hb::batch_layout {

namespace fs = std::filesystem;

inline constexpr const char* kParametersFile = "batch.json";
inline constexpr const char* kIndexFile = "index.csv";
inline constexpr const char* kRunsDir = "runs";
inline constexpr const char* kTemporarySuffix = ".part";

/// "run-000123" (six digits at least, more for run indices past 999999).
std::string runStem(int run);
inline fs::path runsDir(const fs::path& dir) {
  return dir / kRunsDir;
}
inline fs::path runJson(const fs::path& dir, int run) {
  return runsDir(dir) / (runStem(run) + ".json");
}
inline fs::path runRecording(const fs::path& dir, int run) {
  return runsDir(dir) / (runStem(run) + ".h5");
}
/// The lock a batch holds on its shard of the directory while it runs ("shard-0-of-1.lock"):
/// a second batch of the same shard would delete the first's unfinished files and redo its runs.
inline fs::path shardLock(const fs::path& dir, int index, int count) {
  return dir / ("shard-" + std::to_string(index) + "-of-" + std::to_string(count) + ".lock");
}
/// The temporary name a file is written under before the rename that completes it.
inline fs::path temporary(const fs::path& file) {
  return fs::path(file.string() + kTemporarySuffix);
}

/// The run index of a file named "run-<digits>.<extension>" (extension "json" or "h5", possibly
/// followed by ".part"), or nothing for other names.
struct RunFileName {
  int run = -1;
  std::string extension;  ///< "json" or "h5"
  bool temporary = false;
};
std::optional<RunFileName> parseRunFileName(const std::string& fileName);

}  // namespace hb::batch_layout
