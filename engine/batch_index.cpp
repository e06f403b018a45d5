#include "engine/batch_index.hpp"

#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "engine/atomic_file.hpp"
#include "engine/batch_layout.hpp"
#include "engine/input_file.hpp"
#include "engine/run_file_checksum.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::uintmax_t kMaxRunFileBytes = std::uintmax_t{1} << 20;

// Summary fields copied into the index, in column order (run file keys).
constexpr const char* kSummaryColumns[] = {"run",
                                           "seed",
                                           "state_hash",
                                           "steps",
                                           "simulated_s",
                                           "bodies",
                                           "gjk_calls",
                                           "gjk_mean_iterations",
                                           "epa_calls",
                                           "contacts_mean",
                                           "contacts_max",
                                           "max_penetration_m",
                                           "escaped_bodies",
                                           "nan",
                                           "kinetic_energy_final",
                                           "wall_s",
                                           "setup_wall_s",
                                           "checksum",
                                           "recording_fnv1a64"};

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csvValue(const json& summary, const char* key) {
  const auto it = summary.find(key);
  if (it == summary.end() || it->is_null()) return "";
  // Numbers as JSON prints them: the shortest text that reads back to the same double.
  return csvField(it->is_string() ? it->get<std::string>() : it->dump());
}

fs::path relativeTo(const fs::path& file, const fs::path& dir) {
  return fs::absolute(file).lexically_normal().lexically_relative(
      fs::absolute(dir).lexically_normal());
}

/// Why `file` does not hold completed run `run` of the batch, or empty if it does.
std::string checkRunFile(const json& j, int run, const BatchParameters& p) {
  if (!j.is_object()) return "not a JSON object";
  if (run >= p.runs) return "run index past the batch's " + std::to_string(p.runs) + " runs";
  if (!j.contains("run") || j["run"] != run) return "\"run\" does not match the file name";
  if (!j.contains("seed") || j["seed"] != p.runSeed(run)) {
    return "\"seed\" is not the batch seed + run index (" + std::to_string(p.runSeed(run)) + ")";
  }
  if (!j.contains("state_hash") || !j["state_hash"].is_string()) return "no \"state_hash\"";
  return "";
}

}  // namespace

BatchScan scanBatchRuns(const fs::path& dir, const BatchParameters& parameters) {
  BatchScan scan;
  const fs::path runsDir = batch_layout::runsDir(dir);
  if (!fs::is_directory(runsDir)) return scan;
  for (const fs::directory_entry& entry : fs::directory_iterator(runsDir)) {
    const auto name = batch_layout::parseRunFileName(entry.path().filename().string());
    if (!name) continue;
    if (name->temporary) {
      scan.temporaries.push_back(entry.path());
      continue;
    }
    if (name->extension != "json") continue;
    BatchRunFile file;
    file.run = name->run;
    file.json = entry.path();
    std::string problem;
    try {
      // A run file is a page of JSON: 1 MiB bounds what a damaged one can cost.
      file.summary = json::parse(readInputFile(entry.path(), kMaxRunFileBytes));
      problem = checkRunFile(file.summary, file.run, parameters);
    } catch (const json::exception& e) {
      problem = std::string("unreadable JSON: ") + e.what();
    } catch (const InputFileError& e) {
      problem = e.what();
    }
    if (problem.empty() && parameters.record) {
      file.recording = batch_layout::runRecording(dir, file.run);
      if (!fs::exists(file.recording))
        problem = "recording " + file.recording.string() + " missing";
    }
    if (problem.empty()) problem = runFileDamage(file.summary, file.recording);
    if (problem.empty()) {
      scan.runs.push_back(std::move(file));
    } else {
      scan.problems.push_back(entry.path().string() + ": " + problem);
    }
  }
  std::sort(scan.runs.begin(), scan.runs.end(),
            [](const BatchRunFile& a, const BatchRunFile& b) { return a.run < b.run; });
  std::sort(scan.problems.begin(), scan.problems.end());
  std::sort(scan.temporaries.begin(), scan.temporaries.end());
  return scan;
}

void writeBatchIndex(const fs::path& indexDir, const std::vector<BatchRunFile>& runs) {
  std::ostringstream csv;
  for (const char* column : kSummaryColumns) csv << column << ",";
  csv << "json,h5\n";
  for (const BatchRunFile& r : runs) {
    for (const char* column : kSummaryColumns) csv << csvValue(r.summary, column) << ",";
    csv << csvField(relativeTo(r.json, indexDir).string()) << ","
        << (r.recording.empty() ? "" : csvField(relativeTo(r.recording, indexDir).string()))
        << "\n";
  }
  const fs::path file = indexDir / batch_layout::kIndexFile;
  // Shards sharing a directory may write the index at the same time: one temporary each.
  const fs::path temporary =
      file.string() + "." + std::to_string(::getpid()) + batch_layout::kTemporarySuffix;
  writeFileAtomically(file, temporary, csv.str());
}

}  // namespace hb
