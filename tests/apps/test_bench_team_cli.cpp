// End-to-end tests of `heavyball bench team`: the table of what sharing a step among workers
// costs, its JSON, and clear usage errors.

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace {

using hb::test::runCli;

TEST(BenchTeamCli, PrintsEveryFigureOfTheTable) {
  const auto run = runCli("bench team --phases 200 --repeats 1");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  for (const char* row : {"bench team: 2 workers, phases of 16 items, 1 repeats",
                          "round trip of a cache line", "team phase, one worker",
                          "team phase, all workers at once", "pool start, after 200 us alone"}) {
    EXPECT_NE(run.out.find(row), std::string::npos) << row << "\n" << run.out;
  }
}

TEST(BenchTeamCli, JsonHasTheTablesNumbers) {
  const auto run = hb::test::runCommand(
      hb::test::heavyball("bench team --phases 200 --repeats 3 --workers 3 --items 5 --json"));
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const nlohmann::json out = nlohmann::json::parse(run.out);
  EXPECT_EQ(out["bench"], "team");
  EXPECT_EQ(out["workers"], 3);
  EXPECT_EQ(out["items_per_phase"], 5);
  for (const nlohmann::json& figure :
       {out["round_trip_ns"], out["phase_us"]["one_worker"], out["phase_us"]["workers"],
        out["pool_start_us"]["after_0_us"], out["pool_start_us"]["after_200_us"]}) {
    EXPECT_GT(figure["min"].get<double>(), 0.0) << figure;
    EXPECT_LE(figure["min"].get<double>(), figure["median"].get<double>()) << figure;
    EXPECT_LE(figure["median"].get<double>(), figure["max"].get<double>()) << figure;
  }
  // A phase's items on one worker cost at least their own work, and no more than a
  // millisecond each even on a loaded machine.
  EXPECT_LT(out["phase_us"]["one_worker"]["median"].get<double>(), 1000.0);
}

TEST(BenchTeamCli, RefusesOneWorkerAndBadCounts) {
  for (const char* args : {"--workers 1", "--phases 0", "--items -3", "--repeats x"}) {
    const auto run = runCli(std::string("bench team ") + args);
    EXPECT_EQ(run.exitCode, 2) << args << "\n" << run.out;
  }
}

}  // namespace
