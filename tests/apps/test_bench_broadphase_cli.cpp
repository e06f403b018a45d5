// `heavyball bench broadphase`: its JSON output has a row per size for both layouts, and the
// broad phase matches brute force on every checked update.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "run_command.hpp"

namespace {

TEST(BenchBroadphaseCli, JsonHasARowPerSizeAndBruteForceAgrees) {
  const hb::test::CommandRun run = hb::test::runCommand(
      hb::test::heavyball("bench broadphase --max-bodies 100 --repeats 3 --json") + " 2>/dev/null");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const nlohmann::json out = nlohmann::json::parse(run.out);  // one object, nothing else
  EXPECT_EQ(out["bench"], "broadphase");
  for (const char* layout : {"open", "funnel_like"}) {
    SCOPED_TRACE(layout);
    const nlohmann::json& rows = out[layout];
    ASSERT_EQ(rows.size(), 2u);  // 10 and 100 bodies
    EXPECT_EQ(rows[0]["n"], 10);
    EXPECT_EQ(rows[1]["n"], 100);
    for (const nlohmann::json& row : rows) {
      EXPECT_GT(row["warm_us"].get<double>(), 0.0);
      EXPECT_LE(row["pairs"].get<double>(), row["aabb_pairs"].get<double>() + 1e-9);
      EXPECT_EQ(row["brute_matched"]["matched"], row["brute_matched"]["checked"]);
    }
  }
}

}  // namespace
