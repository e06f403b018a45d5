// Options outside their ranges are refused by every command that takes them, with a message
// naming the option, instead of running for no step or with a truncated value.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace {

struct Case {
  std::string args;
  std::string message;
};

TEST(CliRanges, EveryCommandRefusesTimesCountsAndSeedsOutOfRange) {
  const std::string scene = " --scene '" + hb::test::kBatchScene + "'";
  const std::string seconds = "expected seconds in (0, 1e+07]";
  std::vector<Case> cases;
  for (const std::string& command :
       {"simulate" + scene, "batch --runs 2 --out /nonexistent/never" + scene,
        "bench sim --peers ''" + scene, "bench record --runs 1" + scene}) {
    for (const char* bad : {"nan", "inf", "-1", "0", "1e20"}) {
      cases.push_back({command + " --seconds " + bad, seconds});
    }
    cases.push_back({command + " --seed 4294967296", "--seed"});
  }
  for (const std::string& command : {"simulate" + scene, "bench sim --peers ''" + scene}) {
    cases.push_back({command + " --objects 1000001", "--objects"});
  }
  // NaN passes every comparison: refused rather than ignored.
  for (const char* bad : {"nan", "inf", "-1"}) {
    cases.push_back({"simulate" + scene + " --drop-interval " + bad, "a finite number >= 0"});
    cases.push_back({std::string("bench broadphase --density ") + bad, "a finite number > 0"});
  }
  for (const Case& c : cases) {
    const hb::test::CommandRun run = hb::test::runCommand(hb::test::heavyball(c.args) + " 2>&1");
    EXPECT_NE(run.exitCode, 0) << c.args << "\n" << run.out;
    EXPECT_NE(run.out.find(c.message), std::string::npos) << c.args << "\n" << run.out;
    EXPECT_EQ(run.out.find("steps/s"), std::string::npos) << "it ran: " << c.args;
  }
}

}  // namespace

TEST(CliRanges, ARunThatLosesABodySaysSoInItsExitStatus) {
  // A ball thrown at 60 m/s leaves a scene whose bounds end 10 m up: the summary counts it and
  // the run exits with 3, as a blow-up does (docs/simulation.md).
  const std::string dir = ::testing::TempDir();
  const std::string scene = dir + "/thrown.json";
  {
    std::FILE* f = std::fopen(scene.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(R"({"name": "thrown", "bounds": {"min": [-10, -10, -1], "max": [10, 10, 10]},
                  "statics": [{"type": "ground"}],
                  "bodies": [{"shape": {"type": "sphere", "radius": 0.1},
                              "pose": {"p": [0, 0, 1]},
                              "linear_velocity": [0, 0, 60]}]})",
               f);
    std::fclose(f);
  }
  const hb::test::CommandRun run = hb::test::runCommand(
      hb::test::heavyball("simulate --seconds 1 --scene '" + scene + "'") + " 2>&1");
  EXPECT_EQ(run.exitCode, 3) << run.out;
  EXPECT_NE(run.out.find("escaped bodies 1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("1 bodies left the scene's bounds"), std::string::npos) << run.out;
  // Thrown upwards it trades speed for height: no energy from nowhere.
  EXPECT_NE(run.out.find("largest gain over what the bodies brought in 0 J"), std::string::npos)
      << run.out;
}
