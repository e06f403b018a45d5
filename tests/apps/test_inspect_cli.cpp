// End-to-end test of recordings from the command line: `heavyball simulate --record` writes a
// file that `heavyball inspect` summarises, and inspect rejects a file that is not a recording.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.hpp"
#include "tests/process_temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using CliRun = hb::test::CommandRun;

using hb::test::runCli;

fs::path tempDir() {
  return hb::test::processTempDir("heavyball-test-inspect-");
}

/// The funnel-pair scene with two given assets (loading every YCB asset would take seconds).
fs::path writeScene() {
  std::ifstream in(fs::path(HB_SOURCE_DIR) / "assets/scenes/funnel-pair.json");
  json scene = json::parse(in);
  scene["asset_dir"] = (fs::path(HB_SOURCE_DIR) / "assets/ycb").string();
  scene["spawner"]["assets"] = {"061_foam_brick", "048_hammer"};
  scene["solver"]["convex_radius"] = 0.002;  // the summary names the rounding
  const fs::path file = tempDir() / "scene.json";
  std::ofstream(file) << scene.dump(2);
  return file;
}

TEST(InspectCli, SummarisesARecordedRun) {
  const fs::path scene = writeScene();
  const fs::path recording = tempDir() / "run.h5";
  const CliRun simulate = runCli("simulate --scene '" + scene.string() +
                                 "' --seconds 0.5 --seed 7 --record '" + recording.string() + "'");
  ASSERT_EQ(simulate.exitCode, 0) << simulate.out;
  EXPECT_NE(simulate.out.find("recorded to"), std::string::npos) << simulate.out;
  // The two commands count the same bodies, each saying which it counts.
  EXPECT_NE(simulate.out.find("2 dynamic bodies"), std::string::npos) << simulate.out;

  const CliRun inspectJson = runCli("inspect --json '" + recording.string() + "'");
  ASSERT_EQ(inspectJson.exitCode, 0) << inspectJson.out;
  const json summary = json::parse(inspectJson.out);
  EXPECT_EQ(summary["format_version"], 10);
  EXPECT_EQ(summary["max_substeps"], 4);
  EXPECT_EQ(summary["convex_radius"], 0.002);
  EXPECT_EQ(summary["scene"], "funnel-pair");
  EXPECT_EQ(summary["seed"], 7);
  EXPECT_EQ(summary["steps"], 60);
  // The drops tumble on the funnel: some steps were split (steps.substeps).
  EXPECT_GT(summary["split_steps"].get<long>(), 0);
  EXPECT_NEAR(summary["dt"].get<double>(), 1.0 / 120.0, 1e-15);
  EXPECT_EQ(summary["gjk_variant"], "nesterov");
  EXPECT_EQ(summary["warm_start"], "obb");
  ASSERT_EQ(summary["bodies"].size(), 3u);  // the static body and the two drops
  EXPECT_EQ(summary["bodies"][0]["name"], "static");
  EXPECT_GT(summary["bodies"][1]["mass_kg"].get<double>(), 0.0);
  EXPECT_GT(summary["problems"].get<long>(), 0);
  EXPECT_GT(summary["gjk_mean_iterations"].get<double>(), 1.0);
  EXPECT_EQ(summary["file_bytes"].get<std::uintmax_t>(), fs::file_size(recording));

  const CliRun inspectText = runCli("inspect '" + recording.string() + "'");
  ASSERT_EQ(inspectText.exitCode, 0) << inspectText.out;
  for (const char* expected :
       {"format 10", "up to 4 substeps per step", "rounded by a convex radius of 0.002 m",
        "scene funnel-pair", "seed 7", "steps: 60", "split into substeps",
        "bodies: 3, the statics (body 0) and 2 dynamic", "problems:", "colliding",
        "GJK iterations on average"}) {
    EXPECT_NE(inspectText.out.find(expected), std::string::npos) << expected << "\n"
                                                                 << inspectText.out;
  }
  fs::remove(recording);
  fs::remove(scene);
}

// File names are bytes: one that is not UTF-8 is written with U+FFFD in the JSON summaries of
// simulate and inspect, rather than failing them.
TEST(InspectCli, FileNamesThatAreNotUtf8StillGiveJson) {
  const fs::path scene = writeScene();
  const fs::path recording = tempDir() / "run-\xff.h5";
  const CliRun simulate = runCli("simulate --json --scene '" + scene.string() +
                                 "' --seconds 0.1 --record '" + recording.string() + "'");
  ASSERT_EQ(simulate.exitCode, 0) << simulate.out;
  EXPECT_EQ(json::parse(simulate.out)["recording"], (tempDir() / "run-\xef\xbf\xbd.h5").string());
  const CliRun inspect = runCli("inspect --json '" + recording.string() + "'");
  ASSERT_EQ(inspect.exitCode, 0) << inspect.out;
  EXPECT_EQ(json::parse(inspect.out)["file"], (tempDir() / "run-\xef\xbf\xbd.h5").string());
  fs::remove(recording);
  fs::remove(scene);
}

TEST(InspectCli, RejectsAFileThatIsNotARecording) {
  const fs::path file = tempDir() / "not-a-recording.h5";
  std::ofstream(file) << "hello\n";
  const CliRun run = runCli("inspect '" + file.string() + "'");
  EXPECT_EQ(run.exitCode, 1) << run.out;
  EXPECT_NE(run.out.find("not an HDF5 file"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(file.string()), std::string::npos) << run.out;
  fs::remove(file);
}

}  // namespace
