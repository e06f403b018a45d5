// End-to-end tests of `heavyball bench sim`: a short run of the funnel has a table row per
// engine, with numbers for the engines of this build and "not built" for the others; the pile
// scene starts with every body in and none overlapping; bad engine lists are errors. Never asserts
// on timings beyond "positive".

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace {

using hb::test::CommandRun;

/// The table line of an engine (first word), or "" when there is none.
std::string rowOf(const std::string& out, const std::string& engine) {
  std::istringstream in(out);
  bool inTable = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("engine ", 0) == 0) inTable = true;
    if (line.rfind("settings:", 0) == 0) break;
    if (inTable && line.rfind(engine + " ", 0) == 0) return line;
  }
  return "";
}

std::vector<std::string> fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

const char* kShortRun = "bench sim --scene assets/scenes/funnel.json --objects 3 --seconds 1";

TEST(BenchSimCli, ShortFunnelRunHasARowPerEngine) {
  const CommandRun run = hb::test::runCliInSource(kShortRun);
  ASSERT_EQ(run.exitCode, 0) << run.out;
  EXPECT_NE(run.out.find("3 bodies"), std::string::npos) << run.out;
  for (const char* engine : {"heavyball", "bullet", "mujoco", "mujoco-implicit"}) {
    SCOPED_TRACE(engine);
    const std::string row = rowOf(run.out, engine);
    ASSERT_FALSE(row.empty()) << run.out;
    if (row.find("not built:") != std::string::npos) continue;
    // engine, steps/s cpu, realtime, steps/s wall, pen mean, pen max, overlaps,
    // settled/present, jitter mean, jitter max, escaped
    const std::vector<std::string> f = fields(row);
    ASSERT_EQ(f.size(), 11u) << row;
    EXPECT_GT(std::stod(f[1]), 0.0);
    EXPECT_NEAR(std::stod(f[2]), std::stod(f[1]) / 120.0, 0.01 + 1e-3 * std::stod(f[2]));
    EXPECT_GT(std::stod(f[3]), 0.0);
    EXPECT_GE(std::stod(f[4]), 0.0);
    EXPECT_GE(std::stod(f[5]) + 0.005, std::stod(f[4]));  // max printed to 0.01 mm, mean 0.001
    EXPECT_NE(f[7].find('/'), std::string::npos);
    EXPECT_LE(std::stod(f[8]), std::stod(f[9]));
    EXPECT_EQ(f[10], "0");  // nothing leaves the scene in one second
    EXPECT_NE(run.out.find("settings:"), std::string::npos);
  }
  // heavyball is always built, and its settings line is printed.
  EXPECT_EQ(rowOf(run.out, "heavyball").find("not built"), std::string::npos);
  EXPECT_NE(run.out.find("heavyball " HB_VERSION), std::string::npos);
}

TEST(BenchSimCli, JsonHasTheSceneAndOneEntryPerEngine) {
  const CommandRun run =
      hb::test::runCliInSource(std::string(kShortRun) + " --peers bullet --json");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const nlohmann::json out = nlohmann::json::parse(run.out);  // one object, nothing else
  EXPECT_EQ(out["bench"], "sim");
  EXPECT_EQ(out["bodies"], 3);
  EXPECT_EQ(out["steps"], 120);
  ASSERT_EQ(out["engines"].size(), 2u);
  const nlohmann::json& heavyball = out["engines"][0];
  EXPECT_EQ(heavyball["engine"], "heavyball");
  EXPECT_EQ(heavyball["steps"], 120);
  EXPECT_GT(heavyball["steps_per_cpu_s"].get<double>(), 0.0);
  EXPECT_NEAR(heavyball["realtime_factor"].get<double>(),
              heavyball["steps_per_cpu_s"].get<double>() / 120.0, 1e-9);
  EXPECT_GE(heavyball["penetration_max_mm"].get<double>(),
            heavyball["penetration_mean_mm"].get<double>());
  EXPECT_EQ(heavyball["escaped"], 0);
  EXPECT_EQ(out["engines"][1]["engine"], "bullet");  // with numbers, or why it has none
}

TEST(BenchSimCli, EmptyPeerListRunsHeavyballAlone) {
  const CommandRun run = hb::test::runCliInSource(
      "bench sim --scene assets/scenes/funnel.json --objects 2 --seconds 0.5 --peers ''");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  EXPECT_FALSE(rowOf(run.out, "heavyball").empty()) << run.out;
  EXPECT_TRUE(rowOf(run.out, "bullet").empty());
  EXPECT_TRUE(rowOf(run.out, "mujoco").empty());
  EXPECT_TRUE(rowOf(run.out, "mujoco-implicit").empty());
}

TEST(BenchSimCli, PileStartsWithEveryBodyInAndNoneOverlapping) {
  // A tenth of a second: the pile falls freely, so no engine has any overlap yet.
  const CommandRun run = hb::test::runCliInSource(
      "bench sim --scene assets/scenes/funnel-pile.json --seconds 0.1 --peers mujoco-implicit");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  EXPECT_NE(run.out.find("100 bodies, 100 of them dropped within the run"), std::string::npos)
      << run.out;
  for (const char* engine : {"heavyball", "mujoco-implicit"}) {
    SCOPED_TRACE(engine);
    const std::string row = rowOf(run.out, engine);
    ASSERT_FALSE(row.empty()) << run.out;
    if (row.find("not built:") != std::string::npos) continue;
    const std::vector<std::string> f = fields(row);
    ASSERT_EQ(f.size(), 11u) << row;
    EXPECT_EQ(f[6], "0.0");  // overlaps per sample
    EXPECT_EQ(f[10], "0");   // escaped
  }
  EXPECT_TRUE(rowOf(run.out, "mujoco").empty());
  if (rowOf(run.out, "mujoco-implicit").find("not built:") == std::string::npos) {
    EXPECT_NE(run.out.find(", implicit integrator:"), std::string::npos) << run.out;
  }
}

TEST(BenchSimCli, RejectsUnknownOrRepeatedEnginesAndBadOptions) {
  const CommandRun unknown = hb::test::runCliInSource(
      "bench sim --scene assets/scenes/funnel.json --objects 1 --seconds 0.1 --peers physx", true);
  EXPECT_NE(unknown.exitCode, 0);
  EXPECT_NE(unknown.out.find("unknown engine 'physx' (known: bullet, mujoco, mujoco-implicit)"),
            std::string::npos)
      << unknown.out;
  EXPECT_NE(hb::test::runCliInSource(
                "bench sim --scene assets/scenes/funnel.json --objects 1 --seconds 0.1 "
                "--peers bullet,bullet")
                .exitCode,
            0);
  EXPECT_NE(
      hb::test::runCliInSource("bench sim --scene assets/scenes/stack.json --objects 3").exitCode,
      0);
  EXPECT_NE(
      hb::test::runCliInSource("bench sim --scene assets/scenes/funnel.json --seconds 0").exitCode,
      0);
  EXPECT_NE(hb::test::runCliInSource("bench sim --scene no/such/scene.json").exitCode, 0);
}

}  // namespace
