// End-to-end tests of `heavyball bench physics`: a scenario's table has a row per measured
// quantity with a cell per engine (measured value, ok or x, or why the engine has none), the
// tally counts them, and unknown names are errors.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace {

using hb::test::CommandRun;

TEST(BenchPhysicsCli, HeadOnScenarioInEveryEngine) {
  const CommandRun run = hb::test::runCliInSource("bench physics --scenarios head-on", true);
  ASSERT_EQ(run.exitCode, 0) << run.out;
  EXPECT_NE(run.out.find("head-on: pairs of spheres"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("e = 0.5: relative velocity after / before"), std::string::npos);
  // Three pairs, two quantities each: heavyball meets every one.
  EXPECT_NE(run.out.find("heavyball 6/6"), std::string::npos) << run.out;
  for (const char* engine : {"bullet", "mujoco", "mujoco-implicit"}) {
    EXPECT_NE(run.out.find(engine), std::string::npos) << engine;
  }
  EXPECT_EQ(run.out.find("free-rotation"), std::string::npos);  // only the one asked for
}

TEST(BenchPhysicsCli, JsonHasEveryCheckWithEachEnginesVerdict) {
  const CommandRun run = hb::test::runCommand(
      std::string("cd '") + HB_SOURCE_DIR + "' && " +
      hb::test::heavyball("bench physics --scenarios head-on --peers bullet --json") +
      " 2>/dev/null");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const nlohmann::json out = nlohmann::json::parse(run.out);  // one object, nothing else
  EXPECT_EQ(out["engines"], nlohmann::json::array({"heavyball", "bullet"}));
  ASSERT_EQ(out["scenarios"].size(), 1u);
  const nlohmann::json& headOn = out["scenarios"][0];
  EXPECT_EQ(headOn["name"], "head-on");
  ASSERT_EQ(headOn["checks"].size(), 6u);
  int passed = 0;
  for (const nlohmann::json& check : headOn["checks"]) {
    const nlohmann::json& mine = check["engines"]["heavyball"];
    const double error = mine["measured"].get<double>() - check["expected"].get<double>();
    EXPECT_EQ(mine["passed"].get<bool>(), std::abs(error) <= check["tolerance"].get<double>());
    passed += mine["passed"].get<bool>();
    EXPECT_TRUE(check["engines"].contains("bullet"));
  }
  EXPECT_EQ(out["within_tolerance"]["heavyball"]["passed"], passed);
  EXPECT_EQ(out["within_tolerance"]["heavyball"]["checks"], 6);
}

TEST(BenchPhysicsCli, UnknownNamesAreErrors) {
  const CommandRun scenario =
      hb::test::runCliInSource("bench physics --scenarios head-on,nosuch --peers ''", true);
  EXPECT_NE(scenario.exitCode, 0);
  EXPECT_NE(scenario.out.find("unknown scenario 'nosuch'"), std::string::npos) << scenario.out;
  const CommandRun engine =
      hb::test::runCliInSource("bench physics --scenarios head-on --peers havok", true);
  EXPECT_NE(engine.exitCode, 0);
  EXPECT_NE(engine.out.find("havok"), std::string::npos) << engine.out;
}

}  // namespace
