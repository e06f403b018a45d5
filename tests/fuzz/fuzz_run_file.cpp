// libFuzzer target: a batch's run file (runs/run-000000.json) as resuming and batch-merge read
// it: scanned against the batch's parameters, its checksum checked, then indexed and merged when
// it passed. Every input is a completed run or a problem naming the file, never a crash.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/batch_index.hpp"
#include "engine/batch_layout.hpp"
#include "engine/batch_merge.hpp"
#include "engine/batch_parameters.hpp"

namespace {

namespace fs = std::filesystem;

/// The batch of the seed corpus: `heavyball batch --scene tests/apps/data/batch-funnel.json
/// --runs 2 --seconds 0.05 --seed 10`.
hb::BatchParameters batch() {
  hb::BatchParameters p;
  p.scene = "batch-funnel.json";
  p.sceneHash = "0";
  p.runs = 2;
  p.seconds = 0.05;
  p.seed = 10;
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fs::path dir =
      fs::temp_directory_path() / ("hb-fuzz-run-file-" + std::to_string(::getpid()));
  static const hb::BatchParameters parameters = batch();
  static const bool ready = [] {
    fs::create_directories(hb::batch_layout::runsDir(dir));
    hb::ensureBatchParameters(dir, parameters);
    return true;
  }();
  (void)ready;
  {
    std::ofstream out(hb::batch_layout::runJson(dir, 0), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const hb::BatchScan scan = hb::scanBatchRuns(dir, parameters);
  if (scan.runs.size() + scan.problems.size() != 1) __builtin_trap();
  if (!scan.runs.empty()) hb::writeBatchIndex(dir, scan.runs);
  const hb::BatchMerge merge = hb::collectBatch({dir});
  if (merge.runs.size() != scan.runs.size()) __builtin_trap();
  return 0;
}
