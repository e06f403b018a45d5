#include "engine/batch_merge.hpp"

#include <map>
#include <sstream>

namespace hb {

namespace fs = std::filesystem;

BatchMerge collectBatch(const std::vector<fs::path>& dirs) {
  if (dirs.empty()) throw BatchError("no batch directories to merge");
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      std::error_code ec;
      if (fs::equivalent(dirs[i], dirs[j], ec)) {
        throw BatchError(dirs[i].string() + " is given twice");
      }
    }
  }
  BatchMerge merge;
  merge.parameters = readBatchParameters(dirs.front());
  for (std::size_t i = 1; i < dirs.size(); ++i) {
    const std::vector<std::string> d = readBatchParameters(dirs[i]).differences(
        merge.parameters, "in " + dirs[i].string(), "in " + dirs.front().string());
    if (d.empty()) continue;
    std::ostringstream message;
    message << dirs[i].string() << " and " << dirs.front().string() << " hold different batches:";
    for (const std::string& line : d) message << "\n  " << line;
    throw BatchError(message.str());
  }

  std::map<int, std::vector<BatchRunFile>> found;
  for (const fs::path& dir : dirs) {
    BatchScan scan = scanBatchRuns(dir, merge.parameters);
    for (BatchRunFile& f : scan.runs) found[f.run].push_back(std::move(f));
    merge.problems.insert(merge.problems.end(), scan.problems.begin(), scan.problems.end());
  }
  for (int r = 0; r < merge.parameters.runs; ++r) {
    auto it = found.find(r);
    if (it == found.end()) {
      merge.missing.push_back(r);
    } else if (it->second.size() > 1) {
      std::vector<fs::path> files;
      for (const BatchRunFile& f : it->second) files.push_back(f.json);
      merge.duplicates.emplace_back(r, std::move(files));
    } else {
      merge.runs.push_back(std::move(it->second.front()));
    }
  }
  return merge;
}

void writeMergedIndex(const fs::path& outDir, const BatchMerge& merge) {
  ensureBatchParameters(outDir, merge.parameters);
  writeBatchIndex(outDir, merge.runs);
}

std::string describeRuns(const std::vector<int>& runs) {
  std::ostringstream text;
  for (std::size_t i = 0; i < runs.size();) {
    std::size_t j = i;
    while (j + 1 < runs.size() && runs[j + 1] == runs[j] + 1) ++j;
    if (i > 0) text << ", ";
    text << runs[i];
    if (j > i) text << "-" << runs[j];
    i = j + 1;
  }
  return text.str();
}

}  // namespace hb
