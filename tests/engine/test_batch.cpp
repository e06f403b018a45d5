// Batches: results independent of the number of threads, of interruptions and of sharding;
// parameters fixed once a batch directory exists. Tiny batches of a two-body funnel scene.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "engine/batch_layout.hpp"
#include "engine/batch_merge.hpp"
#include "engine/recording/batch_runner.hpp"
#include "engine/run_summary_json.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kRuns = 6;
constexpr double kSeconds = 0.5;

const fs::path kScene = fs::path(HB_SOURCE_DIR) / "tests/apps/data/batch-funnel.json";

/// A fresh directory for one test, removed afterwards.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::temp_directory_path() /
              ("hb-test-batch-" + std::to_string(::getpid()) + "-" + name)) {
    fs::remove_all(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& child) const { return path_ / child; }

 private:
  fs::path path_;
};

BatchOptions options(const fs::path& out, int jobs = 1) {
  BatchOptions o;
  o.scene = kScene;
  o.outDir = out;
  o.runs = kRuns;
  o.seconds = kSeconds;
  o.jobs = jobs;
  return o;
}

/// Run index -> run file without its wall-clock fields (what must be bit-identical).
std::map<int, json> readRuns(const fs::path& dir) {
  std::map<int, json> runs;
  for (const auto& entry : fs::directory_iterator(batch_layout::runsDir(dir))) {
    const auto name = batch_layout::parseRunFileName(entry.path().filename().string());
    if (!name || name->temporary || name->extension != "json") continue;
    std::ifstream in(entry.path());
    json j = json::parse(in);
    for (std::string_view field : kWallClockFields) j.erase(std::string(field));
    j.erase("checksum");  // it covers the wall-clock fields too
    runs[name->run] = j;
  }
  return runs;
}

std::string fileBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// An uninterrupted single-threaded batch, run once for every test to compare with.
class Batch : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    reference_ = new TempDir("reference");
    const BatchReport report = BatchRunner(options(reference_->path())).run();
    ASSERT_EQ(report.completed, kRuns);
    runs_ = readRuns(reference_->path());
  }
  static void TearDownTestSuite() {
    delete reference_;
    reference_ = nullptr;
  }
  static const std::map<int, json>& reference() { return runs_; }

 private:
  static inline TempDir* reference_ = nullptr;
  static inline std::map<int, json> runs_;
};

TEST_F(Batch, RunsDifferBySeedAndAreComplete) {
  ASSERT_EQ(reference().size(), static_cast<size_t>(kRuns));
  for (const auto& [run, j] : reference()) {
    EXPECT_EQ(j["run"], run);
    EXPECT_EQ(j["seed"], 4 + run);  // the scene's seed + run
    EXPECT_EQ(j["steps"], 60);
    EXPECT_FALSE(j["nan"].get<bool>());
  }
  // Different seeds drop different objects differently: the final states differ.
  EXPECT_NE(reference().at(0)["state_hash"], reference().at(1)["state_hash"]);
  EXPECT_GT(reference().at(0)["gjk_calls"].get<long>(), 0);  // the objects did collide
}

TEST_F(Batch, ThreadsDoNotChangeResults) {
  TempDir dir("jobs2");
  const BatchReport report = BatchRunner(options(dir.path(), 2)).run();
  EXPECT_EQ(report.completed, kRuns);
  EXPECT_EQ(report.indexedRuns, kRuns);
  const auto runs = readRuns(dir.path());
  ASSERT_EQ(runs.size(), reference().size());
  for (const auto& [run, j] : runs) {
    EXPECT_EQ(j["state_hash"], reference().at(run)["state_hash"]) << "run " << run;
    EXPECT_EQ(j, reference().at(run)) << "run " << run;
  }
}

TEST_F(Batch, InterruptedBatchResumesToTheSameResults) {
  TempDir dir("resume");
  BatchOptions first = options(dir.path(), 2);
  first.maxNewRuns = 2;
  const BatchReport stopped = BatchRunner(first).run();
  EXPECT_EQ(stopped.completed, 2);
  EXPECT_EQ(stopped.remaining, kRuns - 2);
  // What a kill leaves besides: runs in progress under their temporary names.
  std::ofstream(batch_layout::temporary(batch_layout::runJson(dir.path(), 4))) << "{\"run\": 4, ";
  std::ofstream(batch_layout::temporary(batch_layout::runRecording(dir.path(), 5))) << "HDF";

  {
    BatchRunner resumed(options(dir.path(), 2));
    EXPECT_EQ(resumed.plan().toRun, kRuns - 2);
    const BatchReport report = resumed.run();
    EXPECT_EQ(report.skipped, 2);
    EXPECT_EQ(report.completed, kRuns - 2);
    EXPECT_EQ(readRuns(dir.path()), reference());
    EXPECT_TRUE(scanBatchRuns(dir.path(), report.parameters).temporaries.empty());
  }  // releases the shard's lock

  // Nothing left to do: a third invocation only rebuilds the index.
  EXPECT_EQ(BatchRunner(options(dir.path(), 1)).run().completed, 0);
  std::ifstream index(dir / batch_layout::kIndexFile);
  int lines = 0;
  for (std::string line; std::getline(index, line);) ++lines;
  EXPECT_EQ(lines, 1 + kRuns);
}

TEST_F(Batch, ShardsMergeToTheWholeBatch) {
  TempDir dir("shards");
  BatchOptions first = options(dir / "shard0");
  first.shard = {0, 2};
  BatchOptions second = options(dir / "shard1");
  second.shard = {1, 2};
  EXPECT_EQ(BatchRunner(first).run().completed, kRuns / 2);

  const BatchMerge partial = collectBatch({dir / "shard0"});
  EXPECT_FALSE(partial.complete());
  EXPECT_EQ(describeRuns(partial.missing), "1, 3, 5");

  EXPECT_EQ(BatchRunner(second).run().completed, kRuns / 2);
  const BatchMerge merge = collectBatch({dir / "shard0", dir / "shard1"});
  ASSERT_TRUE(merge.complete());
  writeMergedIndex(dir / "merged", merge);
  EXPECT_TRUE(fs::exists(dir / "merged" / batch_layout::kIndexFile));
  EXPECT_EQ(readBatchParameters(dir / "merged").runs, kRuns);
  std::map<int, json> merged = readRuns(dir / "shard0");
  merged.merge(readRuns(dir / "shard1"));
  EXPECT_EQ(merged, reference());

  // The same run twice is refused too.
  BatchOptions whole = options(dir / "whole");
  whole.maxNewRuns = 1;
  BatchRunner(whole).run();
  const BatchMerge twice = collectBatch({dir / "shard0", dir / "shard1", dir / "whole"});
  ASSERT_EQ(twice.duplicates.size(), 1u);
  EXPECT_EQ(twice.duplicates.front().first, 0);
}

TEST_F(Batch, OtherParametersAreRefused) {
  TempDir dir("parameters");
  BatchOptions o = options(dir.path());
  o.maxNewRuns = 1;
  BatchRunner(o).run();

  BatchOptions seconds = o;
  seconds.seconds = 0.25;
  EXPECT_THROW(BatchRunner{seconds}, BatchError);
  BatchOptions seed = o;
  seed.seed = 100;
  EXPECT_THROW(BatchRunner{seed}, BatchError);
  BatchOptions record = o;
  record.record = true;
  EXPECT_THROW(BatchRunner{record}, BatchError);
  BatchOptions runs = o;
  runs.runs = kRuns + 1;
  EXPECT_THROW(BatchRunner{runs}, BatchError);
  // The same scene with its asset directory spelled differently is another scene file.
  const fs::path scene = dir / "scene.json";
  std::ifstream in(kScene);
  json text = json::parse(in);
  text["asset_dir"] = (kScene.parent_path() / text["asset_dir"].get<std::string>()).string();
  std::ofstream(scene) << text.dump(2);
  BatchOptions changedScene = o;
  changedScene.scene = scene;
  try {
    BatchRunner{changedScene};
    ADD_FAILURE() << "a changed scene was accepted";
  } catch (const BatchError& e) {
    EXPECT_NE(std::string(e.what()).find("scene file content"), std::string::npos) << e.what();
  }

  // Threads and shards are not parameters; the scene's own seed is the default seed.
  BatchOptions same = o;
  same.jobs = 2;
  same.shard = {1, 3};
  same.seed = 4;
  EXPECT_NO_THROW(BatchRunner{same});
}

// A second batch of the same shard in the same directory would delete the first's unfinished
// files and redo its runs: it is refused while the first runs, naming the lock; other shards
// share the directory freely, and the lock goes with the runner that held it.
TEST_F(Batch, ASecondBatchOfTheSameShardIsRefusedWhileTheFirstRuns) {
  TempDir dir("lock");
  BatchOptions o = options(dir.path());
  o.shard = {1, 2};
  o.lockWaitSeconds = 0.3;
  std::optional<BatchRunner> first(std::in_place, o);
  try {
    BatchRunner second(o);
    ADD_FAILURE() << "two batches ran shard 1/2 at once";
  } catch (const BatchError& e) {
    EXPECT_NE(
        std::string(e.what()).find("another batch is running shard 1/2 in " + dir.path().string() +
                                   " (it holds " + (dir / "shard-1-of-2.lock").string() + ")"),
        std::string::npos)
        << e.what();
  }
  BatchOptions other = o;
  other.shard = {0, 2};
  EXPECT_NO_THROW(BatchRunner{other});
  EXPECT_EQ(first->run().completed, kRuns / 2);
  first.reset();
  EXPECT_EQ(BatchRunner(o).run().skipped, kRuns / 2);
}

TEST_F(Batch, RecordingsAreCompleteFilesBesideTheRuns) {
  TempDir dir("record");
  BatchOptions o = options(dir.path(), 2);
  o.record = true;
  o.runs = 2;
  const BatchReport report = BatchRunner(o).run();
  EXPECT_EQ(report.completed, 2);
  for (int run = 0; run < 2; ++run) {
    EXPECT_GT(fs::file_size(batch_layout::runRecording(dir.path(), run)), 0u);
  }
  // Recording changes nothing in the simulation.
  const auto runs = readRuns(dir.path());
  for (const auto& [run, j] : runs) {
    EXPECT_EQ(j["state_hash"], reference().at(run)["state_hash"]);
    EXPECT_EQ(j["recording"], batch_layout::runStem(run) + ".h5");
  }
  // A summary whose recording is gone is not a complete run: it is redone, to the same bytes (a
  // recording holds no time stamps).
  const fs::path recording = batch_layout::runRecording(dir.path(), 1);
  const std::string bytes = fileBytes(recording);
  fs::remove(recording);
  BatchRunner resumed(o);
  EXPECT_EQ(resumed.plan().toRun, 1);
  EXPECT_EQ(resumed.run().completed, 1);
  EXPECT_TRUE(fileBytes(recording) == bytes) << recording;
}

TEST_F(Batch, AFailedRunStopsTheBatchNamingItAndKeepsTheRunsBefore) {
  // Run 1's recording cannot take its final name (a folder holds it): committing it fails, on
  // the thread that commits while the next run simulates, and the error names run 1.
  TempDir dir("failure");
  BatchOptions o = options(dir.path());
  o.record = true;
  o.runs = 3;
  BatchRunner runner(o);
  fs::create_directories(batch_layout::runRecording(dir.path(), 1) / "occupied");
  try {
    runner.run();
    FAIL() << "the batch should have failed";
  } catch (const BatchError& e) {
    EXPECT_NE(std::string(e.what()).find("run 1 (seed"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::exists(batch_layout::runJson(dir.path(), 0)));
  EXPECT_TRUE(fs::exists(batch_layout::runRecording(dir.path(), 0)));
  EXPECT_FALSE(fs::exists(batch_layout::runJson(dir.path(), 1)));
  // The index is rebuilt from what completed (it was stale before: written at success only).
  std::ifstream index(dir.path() / batch_layout::kIndexFile);
  std::vector<std::string> rows;
  for (std::string line; std::getline(index, line);) rows.push_back(line);
  ASSERT_GE(rows.size(), 2u);
  EXPECT_EQ(rows[1].rfind("0,", 0), 0u) << rows[1];
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_NE(rows[i].rfind("1,", 0), 0u) << rows[i];
}

TEST_F(Batch, RunsThatBlowUpAreCounted) {
  // Drops thrown at up to 60 m/s in a scene 2 m wide: bodies leave its bounds, and the report
  // counts the runs (their run files say "escaped_bodies"); the runs still complete.
  TempDir dir("blow-up");
  fs::create_directories(dir.path());
  const fs::path scene = dir / "thrown.json";
  std::ofstream(scene) << R"({"name": "thrown", "asset_dir": ")" << HB_SOURCE_DIR
                       << R"(/assets/ycb", "bounds": {"min": [-1, -1, -1], "max": [1, 1, 3]},
      "statics": [{"type": "ground"}],
      "spawner": {"count": 3, "seed": 1, "center": [0, 0, 1], "interval": 0,
                  "max_linear_speed": 60}})";
  BatchOptions o = options(dir / "out");
  o.scene = scene;
  o.runs = 3;
  const BatchReport report = BatchRunner(o).run();
  EXPECT_EQ(report.completed, 3);
  EXPECT_EQ(report.nonFinite, 0);
  int escaped = 0;
  for (const auto& [run, j] : readRuns(dir / "out")) escaped += j["escaped_bodies"].get<int>() > 0;
  EXPECT_GT(escaped, 0);
  EXPECT_EQ(report.blownUp, escaped);
}

TEST(BatchLayout, RunFileNames) {
  EXPECT_EQ(batch_layout::runStem(123), "run-000123");
  EXPECT_EQ(batch_layout::runStem(1234567), "run-1234567");
  const auto json = batch_layout::parseRunFileName("run-000123.json");
  ASSERT_TRUE(json);
  EXPECT_EQ(json->run, 123);
  EXPECT_FALSE(json->temporary);
  const auto part = batch_layout::parseRunFileName("run-000007.h5.part");
  ASSERT_TRUE(part);
  EXPECT_EQ(part->run, 7);
  EXPECT_EQ(part->extension, "h5");
  EXPECT_TRUE(part->temporary);
  EXPECT_FALSE(batch_layout::parseRunFileName("run-12.json"));
  EXPECT_FALSE(batch_layout::parseRunFileName("run-000012.csv"));
  EXPECT_FALSE(batch_layout::parseRunFileName("index.csv"));
  EXPECT_FALSE(batch_layout::parseRunFileName("run--00012.json"));
}

TEST(BatchMergeText, RunRanges) {
  EXPECT_EQ(describeRuns({}), "");
  EXPECT_EQ(describeRuns({3}), "3");
  EXPECT_EQ(describeRuns({1, 2, 3, 7, 9, 10}), "1-3, 7, 9-10");
}

}  // namespace
}  // namespace hb
