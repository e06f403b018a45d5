// Options outside their ranges are refused by every command that takes them, with a message
// naming the option, instead of running for no step or with a truncated value.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run_command.hpp"

namespace {

const std::string kScene = std::string(HB_APPS_TEST_DATA) + "/batch-funnel.json";

struct Case {
  std::string args;
  std::string message;
};

TEST(CliRanges, EveryCommandRefusesTimesCountsAndSeedsOutOfRange) {
  const std::string scene = " --scene '" + kScene + "'";
  const std::string seconds = "expected seconds in (0, 1e+07]";
  std::vector<Case> cases;
  for (const std::string command :
       {"simulate" + scene, "batch --runs 2 --out /nonexistent/never" + scene,
        "bench sim --peers ''" + scene, "bench record --runs 1" + scene}) {
    for (const char* bad : {"nan", "inf", "-1", "0", "1e20"}) {
      cases.push_back({command + " --seconds " + bad, seconds});
    }
    cases.push_back({command + " --seed 4294967296", "--seed"});
  }
  for (const std::string command : {"simulate" + scene, "bench sim --peers ''" + scene}) {
    cases.push_back({command + " --objects 1000001", "--objects"});
  }
  for (const Case& c : cases) {
    const hb::test::CommandRun run = hb::test::runCommand(hb::test::heavyball(c.args) + " 2>&1");
    EXPECT_NE(run.exitCode, 0) << c.args << "\n" << run.out;
    EXPECT_NE(run.out.find(c.message), std::string::npos) << c.args << "\n" << run.out;
    EXPECT_EQ(run.out.find("steps/s"), std::string::npos) << "it ran: " << c.args;
  }
}

}  // namespace
