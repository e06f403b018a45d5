// TeamChoice: the team until both ways are timed, then the cheaper way per item, trying the
// other one call in kTryTheOtherEvery, and following the costs when the host's load changes.

#include "dynamics/team_choice.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace hb {
namespace {

// Runs `calls` calls whose cost per item is `teamCost` on the team and `aloneCost` alone;
// returns how many of them ran alone.
int runCalls(TeamChoice& choice, int calls, double teamCost, double aloneCost) {
  int alone = 0;
  for (int c = 0; c < calls; ++c) {
    const bool team = choice.team();
    if (!team) ++alone;
    choice.record(team, 100.0, 100.0 * (team ? teamCost : aloneCost));
  }
  return alone;
}

TEST(TeamChoice, TimesTheTeamFirstThenOneThreadOnce) {
  TeamChoice choice;
  EXPECT_TRUE(choice.team());
  choice.record(true, 10.0, 1e-5);
  EXPECT_FALSE(choice.team());
  EXPECT_FALSE(choice.team());  // still not timed alone: nothing was recorded
  choice.record(false, 10.0, 2e-5);
  EXPECT_EQ(choice.aloneCalls(), 2);
}

TEST(TeamChoice, KeepsTheCheaperWayAndTriesTheOtherOnceInAWhile) {
  TeamChoice choice;
  const int calls = 32 * TeamChoice::kTryTheOtherEvery;
  // The team at half the cost: alone only for its first timing and its periodic tries.
  const int alone = runCalls(choice, calls, 1e-6, 2e-6);
  EXPECT_GE(alone, calls / TeamChoice::kTryTheOtherEvery - 1);
  EXPECT_LE(alone, calls / TeamChoice::kTryTheOtherEvery + 2);
  // One thread at half the cost: on the team only for the tries.
  TeamChoice slowTeam;
  const int aloneWhenTheTeamIsSlow = runCalls(slowTeam, calls, 2e-6, 1e-6);
  EXPECT_GE(calls - aloneWhenTheTeamIsSlow, calls / TeamChoice::kTryTheOtherEvery - 1);
  EXPECT_LE(calls - aloneWhenTheTeamIsSlow, calls / TeamChoice::kTryTheOtherEvery + 2);
}

TEST(TeamChoice, FollowsTheCostsWhenTheyChange) {
  TeamChoice choice;
  runCalls(choice, 200, 1e-6, 2e-6);  // the team wins
  runCalls(choice, 200, 4e-6, 2e-6);  // the host takes a core: the team now costs twice as much
  // By now the team's tries have shown it: the next calls run alone, but for the tries.
  const int calls = 4 * TeamChoice::kTryTheOtherEvery;
  EXPECT_GE(runCalls(choice, calls, 4e-6, 2e-6), calls - 5);
  runCalls(choice, 400, 1e-6, 2e-6);  // the core is back
  EXPECT_LE(runCalls(choice, calls, 1e-6, 2e-6), 5);
}

TEST(TeamChoice, RunCallsTheChosenWayOnceAndSaysWhichItWas) {
  TeamChoice choice;
  int onTeam = 0, alone = 0;
  // Each way takes a little time, so that its timing is recorded.
  const auto pause = [] { std::this_thread::sleep_for(std::chrono::microseconds(10)); };
  const auto once = [&] {
    return choice.run([&] { ++onTeam, pause(); }, [&] { ++alone, pause(); }, [] { return 1.0; });
  };
  EXPECT_FALSE(once());  // the team first
  EXPECT_TRUE(once());   // then one thread, to time it
  EXPECT_EQ(onTeam, 1);
  EXPECT_EQ(alone, 1);
  EXPECT_EQ(choice.aloneCalls(), 1);
}

TEST(TeamChoice, IgnoresCallsWithNothingTimed) {
  TeamChoice choice;
  choice.record(true, 0.0, 1.0);
  choice.record(true, 10.0, 0.0);
  EXPECT_TRUE(choice.team());  // still never timed on the team
  EXPECT_TRUE(choice.team());
  EXPECT_EQ(choice.aloneCalls(), 0);
}

}  // namespace
}  // namespace hb
