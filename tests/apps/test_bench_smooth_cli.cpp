// End-to-end tests of `heavyball bench smooth`: all 36 pairs of the eight shapes, RTR converging
// on every pose with a depth no shallower than EPA's (whose polytope lies inside the bodies'
// difference) and an optimality measure far below EPA's, the CSV's rows, and bad options.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;

using hb::test::runCli;

/// The table's rows, as the numbers after the two shape names (names may hold a blank).
std::vector<std::vector<double>> tableNumbers(const std::string& out) {
  std::vector<std::vector<double>> rows;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() < 34 || line.find("rtr us") != std::string::npos) continue;
    std::istringstream words(line.substr(32));
    std::vector<double> row;
    for (double x; words >> x;) row.push_back(x);
    if (row.size() >= 9) rows.push_back(row);
  }
  return rows;
}

TEST(BenchSmoothCli, RtrConvergesEverywhereAndBeatsEpaOnOptimality) {
  const fs::path csv =
      fs::temp_directory_path() / ("hb-test-bench-smooth-" + std::to_string(::getpid()) + ".csv");
  const auto run = runCli("bench smooth --poses 6 --repeats 1 --ycb-poses 0 --peers '' --csv '" +
                          csv.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const auto rows = tableNumbers(run.out);
  ASSERT_EQ(rows.size(), 36u) << run.out;
  for (const auto& row : rows) {
    // rtr us, iter, optim, epa us, iter, optim, depth mm, rtr - epa, rtr ok
    EXPECT_EQ(row[8], 6.0) << run.out;     // every pose converged
    EXPECT_LT(row[2], 1e-5) << run.out;    // RTR's optimality
    EXPECT_LT(row[2], row[5]) << run.out;  // better than EPA's
    EXPECT_GT(row[7], -1e-6) << run.out;   // no shallower than EPA (median)
    EXPECT_GT(row[6], 1.0);                // pushed 1 to 50 mm in
    EXPECT_LT(row[6], 50.0);
  }
  std::ifstream in(csv);
  std::string line;
  int lines = -1;  // header
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 36 * 6 * 2);  // RTR's rows and GJK + EPA's
  fs::remove(csv);
}

// The YCB experiment: five hulls fitted with 20 points within 1 mm (root mean square), and a
// row per pair of them.
TEST(BenchSmoothCli, TheYcbExperimentFitsAndTimesEveryPair) {
  const auto run = runCli("bench smooth --poses 1 --repeats 1 --ycb-poses 2 --peers ''");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const size_t at = run.out.find("YCB: prescribed support functions of 20 points");
  ASSERT_NE(at, std::string::npos) << run.out;
  std::istringstream lines(run.out.substr(at));
  int fits = 0, pairs = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    // Object names hold an underscore: a fit row names one object, a pair row two.
    const auto named = [&](size_t i) {
      return w.size() > i && w[i].find('_') != std::string::npos;
    };
    if (named(0) && named(1)) {
      ++pairs;
    } else if (named(0) && w.size() == 5) {
      ++fits;
      EXPECT_LT(std::stod(w[2]), 1.0) << line;  // rms mm
    }
  }
  EXPECT_EQ(fits, 5) << run.out;
  EXPECT_EQ(pairs, 15) << run.out;
}

TEST(BenchSmoothCli, JsonHasTheTablesRows) {
  const auto run = hb::test::runCommand(
      hb::test::heavyball("bench smooth --poses 4 --repeats 1 --ycb-poses 0 --peers '' --json") +
      " 2>/dev/null");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const nlohmann::json out = nlohmann::json::parse(run.out);  // one object, nothing else
  EXPECT_EQ(out["bench"], "smooth");
  const nlohmann::json& rows = out["tables"]["table_one"];
  ASSERT_EQ(rows.size(), 36u);  // the 8 shapes' pairs, as the text table
  for (const nlohmann::json& row : rows) {
    EXPECT_EQ(row["rtr_ok"], 4) << row;  // RTR converges on every pose
    EXPECT_GT(row["rtr_us"].get<double>(), 0.0);
  }
}

TEST(BenchSmoothCli, BadOptionsAreRefused) {
  const auto depth = runCli("bench smooth --max-depth 1 --peers ''");
  EXPECT_EQ(depth.exitCode, 2) << depth.out;
  EXPECT_NE(depth.out.find("--max-depth must be in"), std::string::npos) << depth.out;
  const auto peer = runCli("bench smooth --peers nosuch");
  EXPECT_EQ(peer.exitCode, 2) << peer.out;
  EXPECT_NE(peer.out.find("peer 'nosuch' is not built in"), std::string::npos) << peer.out;
}

}  // namespace
