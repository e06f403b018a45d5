// End-to-end tests of `heavyball batch` and `heavyball batch-merge`: a batch killed with SIGKILL
// and resumed equals an uninterrupted one; refusals and incomplete merges exit non-zero with a
// message naming the problem.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using CliRun = hb::test::CommandRun;

using hb::test::runCli;

class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::temp_directory_path() /
              ("hb-test-batch-cli-" + std::to_string(::getpid()) + "-" + name)) {
    fs::remove_all(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& child) const { return (path_ / child).string(); }

 private:
  fs::path path_;
};

std::string batchArgs(const std::string& out, int runs, const std::string& extra = "") {
  return "batch --scene '" + hb::test::kBatchScene + "' --runs " + std::to_string(runs) +
         " --seconds 1 --out '" + out + "' " + extra;
}

int completedRuns(const fs::path& dir) {
  int n = 0;
  if (!fs::is_directory(dir / "runs")) return 0;
  for (const auto& e : fs::directory_iterator(dir / "runs")) {
    n += e.path().extension() == ".json" ? 1 : 0;
  }
  return n;
}

/// Run index -> (state hash, summary without wall-clock fields) from a batch's run files.
std::map<int, json> results(const fs::path& dir) {
  std::map<int, json> runs;
  for (const auto& e : fs::directory_iterator(dir / "runs")) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    json j = json::parse(in);
    // The checksum covers the wall-clock fields too.
    for (const char* wall :
         {"wall_s", "steps_per_s", "real_time_factor", "stage_ms", "setup_wall_s", "checksum"}) {
      j.erase(wall);
    }
    runs[j.at("run").get<int>()] = j;
  }
  return runs;
}

std::vector<std::string> lines(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// Index rows without the wall_s, setup_wall_s and checksum columns (the run file's checksum
/// covers its wall-clock fields).
std::vector<std::string> withoutWallClock(const std::vector<std::string>& rows) {
  std::vector<std::string> out;
  for (const std::string& row : rows) {
    std::vector<std::string> fields;
    std::istringstream in(row);
    for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
    std::string kept;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i != 15 && i != 16 && i != 17) kept += fields[i] + ",";
    }
    out.push_back(kept);
  }
  return out;
}

/// Runs `batch --jobs 2 --record` in a child process and SIGKILLs it once `completed` runs are
/// done; returns the runs complete after the kill (kRuns if the batch finished first).
int killBatchAfter(const std::string& scene, int runs, const std::string& seconds,
                   const std::string& out, int completed) {
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    std::freopen("/dev/null", "w", stderr);
    std::freopen("/dev/null", "w", stdout);
    ::execl(HB_CLI_PATH, HB_CLI_PATH, "batch", "--scene", scene.c_str(), "--runs",
            std::to_string(runs).c_str(), "--seconds", seconds.c_str(), "--out", out.c_str(),
            "--jobs", "2", "--record", static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (completedRuns(out) < completed && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status)) << "the batch finished before it could be killed";
  return completedRuns(out);
}

/// Run index -> FNV-1a hash of its recording's bytes.
std::map<int, std::uint64_t> recordingHashes(const fs::path& dir) {
  std::map<int, std::uint64_t> hashes;
  for (const auto& e : fs::directory_iterator(dir / "runs")) {
    if (e.path().extension() != ".h5") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::uint64_t h = 14695981039346656037ull;
    for (std::istreambuf_iterator<char> c(in), end; c != end; ++c) {
      h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
    }
    hashes[std::stoi(e.path().stem().string().substr(4))] = h;
  }
  return hashes;
}

TEST(BatchCli, KilledBatchResumesToTheUninterruptedResult) {
  TempDir dir("kill");
  constexpr int kRuns = 12;
  const CliRun whole = runCli(batchArgs(dir / "whole", kRuns, "--jobs 1 --record"));
  ASSERT_EQ(whole.exitCode, 0) << whole.out;

  // Start the same batch and SIGKILL it once a couple of runs are complete.
  const std::string out = dir / "killed";
  const int before = killBatchAfter(hb::test::kBatchScene, kRuns, "1", out, 2);
  ASSERT_LT(before, kRuns) << "the batch finished before it could be killed";
  EXPECT_FALSE(fs::exists(fs::path(out) / "index.csv"));  // written at the end only

  const CliRun resumed = runCli(batchArgs(out, kRuns, "--jobs 2 --record"));
  ASSERT_EQ(resumed.exitCode, 0) << resumed.out;
  EXPECT_NE(resumed.out.find(std::to_string(kRuns - before) + " to do"), std::string::npos)
      << resumed.out;
  EXPECT_EQ(results(out), results(dir / "whole"));
  for (const auto& e : fs::directory_iterator(fs::path(out) / "runs")) {
    EXPECT_NE(e.path().extension(), ".part") << e.path();
  }
  const auto index = lines(fs::path(out) / "index.csv");
  ASSERT_EQ(index.size(), 1u + kRuns);
  EXPECT_EQ(index[0].rfind("run,seed,state_hash,", 0), 0u) << index[0];
  EXPECT_EQ(withoutWallClock(index), withoutWallClock(lines(dir / "whole/index.csv")));
}

// Recordings are the same bytes for the same runs: recorded twice, on one thread or two, and
// killed and resumed. The scene drops six objects in 0.3 s, so new hulls reach the recordings'
// shape tables between flushes (the chunks that are written more than once).
TEST(BatchCli, RecordingsAreByteIdenticalWhateverJobsAndInterruptions) {
  TempDir dir("bytes");
  const std::string scene = std::string(HB_APPS_TEST_DATA) + "/batch-drops.json";
  constexpr int kRuns = 100;
  const auto batch = [&](const std::string& name, const std::string& jobs) {
    const CliRun run =
        runCli("batch --scene '" + scene + "' --runs " + std::to_string(kRuns) +
               " --seconds 0.5 --record --jobs " + jobs + " --out '" + dir / name + "'");
    EXPECT_EQ(run.exitCode, 0) << run.out;
    const auto hashes = recordingHashes(dir / name);
    fs::remove_all(dir / name);  // ~1 MB per recording
    return hashes;
  };
  const auto reference = batch("one", "1");
  ASSERT_EQ(reference.size(), static_cast<size_t>(kRuns));
  EXPECT_EQ(batch("again", "1"), reference);
  EXPECT_EQ(batch("two", "2"), reference);

  const int before = killBatchAfter(scene, kRuns, "0.5", dir / "killed", 20);
  ASSERT_LT(before, kRuns) << "the batch finished before it could be killed";
  const CliRun resumed = runCli("batch --scene '" + scene + "' --runs " + std::to_string(kRuns) +
                                " --seconds 0.5 --record --jobs 2 --out '" + dir / "killed" + "'");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.out;
  EXPECT_EQ(recordingHashes(dir / "killed"), reference);
}

TEST(BatchCli, ShardsMergeAndMissingRunsAreReported) {
  TempDir dir("shards");
  ASSERT_EQ(runCli(batchArgs(dir / "a", 5, "--shard 0/2")).exitCode, 0);
  ASSERT_EQ(runCli(batchArgs(dir / "whole", 5, "--jobs 2")).exitCode, 0);

  const CliRun incomplete = runCli("batch-merge '" + dir / "a" + "'");
  EXPECT_EQ(incomplete.exitCode, 2);
  EXPECT_NE(incomplete.out.find("2 of 5 runs missing: 1, 3"), std::string::npos) << incomplete.out;

  ASSERT_EQ(runCli(batchArgs(dir / "b", 5, "--shard 1/2")).exitCode, 0);
  const CliRun merged =
      runCli("batch-merge '" + dir / "a" + "' '" + dir / "b" + "' --out '" + dir / "merged" + "'");
  ASSERT_EQ(merged.exitCode, 0) << merged.out;
  auto shards = results(dir / "a");
  shards.merge(results(dir / "b"));
  EXPECT_EQ(shards, results(dir / "whole"));
  const auto index = lines(fs::path(dir / "merged") / "index.csv");
  ASSERT_EQ(index.size(), 6u);
  EXPECT_NE(index[2].find("../b/runs/run-000001.json"), std::string::npos) << index[2];

  const CliRun twice =
      runCli("batch-merge '" + dir / "a" + "' '" + dir / "b" + "' '" + dir / "whole" + "'");
  EXPECT_EQ(twice.exitCode, 2);
  EXPECT_NE(twice.out.find("5 runs are in more than one directory: 0-4"), std::string::npos)
      << twice.out;
}

// Finished runs whose files were damaged afterwards (a recording truncated or with a flipped
// bit, a run file with a flipped digit) are not done: resume redoes them, merge refuses them.
TEST(BatchCli, DamagedRunsAreRedoneOnResumeAndRefusedByMerge) {
  TempDir dir("damaged");
  const std::string out = dir / "b";
  ASSERT_EQ(runCli(batchArgs(out, 4, "--record")).exitCode, 0);
  const auto before = results(out);
  const fs::path runs = fs::path(out) / "runs";
  fs::resize_file(runs / "run-000000.h5", 1000);  // truncated
  {
    std::fstream h5(runs / "run-000001.h5", std::ios::in | std::ios::out | std::ios::binary);
    h5.seekg(2000);
    const char byte = static_cast<char>(h5.get() ^ 0x10);
    h5.seekp(2000);
    h5.put(byte);  // one bit flipped
  }
  {
    std::ifstream in(runs / "run-000002.json");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const size_t steps = text.find("\"steps\": ") + 9;
    text[steps] = text[steps] == '9' ? '8' : static_cast<char>(text[steps] + 1);  // a digit
    std::ofstream(runs / "run-000002.json") << text;
  }
  const CliRun merge = runCli("batch-merge '" + out + "'");
  EXPECT_NE(merge.exitCode, 0) << merge.out;
  for (const char* what : {"run-000000.json: recording", "(truncated?)",
                           "run-000001.json: recording", "does not match its checksum",
                           "run-000002.json: its contents do not match their checksum"}) {
    EXPECT_NE(merge.out.find(what), std::string::npos) << what << "\n" << merge.out;
  }
  const CliRun resumed = runCli(batchArgs(out, 4, "--record"));
  ASSERT_EQ(resumed.exitCode, 0) << resumed.out;
  EXPECT_NE(resumed.out.find("3 to do"), std::string::npos) << resumed.out;
  EXPECT_EQ(results(out), before);
  EXPECT_EQ(runCli("batch-merge '" + out + "'").exitCode, 0);
}

TEST(BatchCli, OtherParametersAreRefused) {
  TempDir dir("parameters");
  ASSERT_EQ(runCli(batchArgs(dir / "b", 2)).exitCode, 0);
  const CliRun other = runCli(batchArgs(dir / "b", 2, "--seed 9"));
  EXPECT_EQ(other.exitCode, 1);
  EXPECT_NE(other.out.find("seed: 9 requested, 4 in"), std::string::npos) << other.out;
  const CliRun badShard = runCli(batchArgs(dir / "b", 2, "--shard 2/2"));
  EXPECT_NE(badShard.exitCode, 0);
  EXPECT_NE(badShard.out.find("--shard"), std::string::npos) << badShard.out;
  // Threads and shard may change.
  EXPECT_EQ(runCli(batchArgs(dir / "b", 2, "--jobs 2 --shard 1/2")).exitCode, 0);
}

}  // namespace
