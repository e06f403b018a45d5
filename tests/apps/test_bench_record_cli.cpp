// End-to-end tests of `heavyball bench record`: the overhead table from paired runs, and a clear
// error for a scene every run of which would be the same.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;

using hb::test::runCli;

/// The first number after `label` at the start of a line of `out` (NaN if none).
double firstNumberAfter(const std::string& out, const std::string& label) {
  const std::regex line("(^|\n)" + label + " +(-?[0-9.]+)");
  std::smatch m;
  return std::regex_search(out, m, line) ? std::stod(m[2]) : std::nan("");
}

TEST(BenchRecordCli, PrintsTheOverheadOfPairedRunsAndKeepsTheRecordings) {
  const fs::path dir =
      fs::temp_directory_path() / ("hb-test-bench-record-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const auto run = runCli("bench record --scene '" + hb::test::kBatchScene +
                          "' --runs 2 --repeats 2 --seconds 0.25 --dir '" + dir.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  EXPECT_NE(run.out.find("2 runs of 0.25 s (30 steps)"), std::string::npos) << run.out;
  const double without = firstNumberAfter(run.out, "without recording");
  const double with = firstNumberAfter(run.out, "with recording");
  const double overhead = firstNumberAfter(run.out, "overhead");
  EXPECT_GT(without, 0.0) << run.out;
  EXPECT_GT(with, 0.0) << run.out;
  EXPECT_TRUE(std::isfinite(overhead)) << run.out;
  EXPECT_TRUE(std::isfinite(firstNumberAfter(run.out, "overhead, all runs"))) << run.out;
  // One recording per seed, each a complete file of its seed that the inspect command reads.
  for (int r = 0; r < 2; ++r) {
    const fs::path file = dir / ("run-" + std::to_string(r) + ".h5");
    ASSERT_TRUE(fs::exists(file)) << file;
    const auto inspect = runCli("inspect '" + file.string() + "'");
    EXPECT_EQ(inspect.exitCode, 0) << inspect.out;
    EXPECT_NE(inspect.out.find("seed " + std::to_string(4 + r)), std::string::npos) << inspect.out;
    EXPECT_NE(inspect.out.find("steps: 30 (0.250 s simulated)"), std::string::npos) << inspect.out;
  }
  EXPECT_FALSE(fs::exists(dir / "warm-up.h5"));
  fs::remove_all(dir);
}

TEST(BenchRecordCli, JsonHasTheTablesNumbers) {
  const auto run =
      hb::test::runCommand(hb::test::heavyball("bench record --scene '" + hb::test::kBatchScene +
                                               "' --runs 2 --repeats 1 --seconds 0.25 --json"));
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const nlohmann::json out = nlohmann::json::parse(run.out);
  EXPECT_EQ(out["bench"], "record");
  EXPECT_EQ(out["runs"], 2);
  EXPECT_EQ(out["steps"], 30);
  for (const char* part : {"without_recording_ms", "with_recording_ms", "overhead_percent"}) {
    for (const char* clock : {"cpu", "wall"}) {
      const nlohmann::json& q = out[part][clock];
      EXPECT_LE(q["q1"].get<double>(), q["median"].get<double>()) << part << " " << clock;
      EXPECT_LE(q["median"].get<double>(), q["q3"].get<double>()) << part << " " << clock;
    }
  }
  EXPECT_GT(out["without_recording_ms"]["cpu"]["median"].get<double>(), 0.0);
  EXPECT_GT(out["recording_kib"]["median"].get<double>(), 0.0);
}

TEST(BenchRecordCli, ASceneWithoutSpawnerIsRefused) {
  const fs::path scene =
      fs::temp_directory_path() / ("hb-test-bench-record-" + std::to_string(::getpid()) + ".json");
  std::ofstream(scene) << R"({"name": "still", "statics": [{"type": "ground", "height": 0.0}]})";
  const auto run = runCli("bench record --scene '" + scene.string() + "' --runs 1");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_NE(run.out.find("no spawner"), std::string::npos) << run.out;
  fs::remove(scene);
}

}  // namespace
