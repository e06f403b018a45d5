// End-to-end tests of `heavyball bench cast`: every cast of heavyball's GJK ray cast agrees with
// the bench's referee (signed distances by GJK and EPA at the answer), the lattice polyhedra have
// the vertex count their rings and meridians give, the CSV has a row per query and method, and
// bad options give clear errors.

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

/// The table's rows: lines that start with a vertex count, split on blanks.
std::vector<std::vector<std::string>> tableRows(const std::string& out) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> row;
    for (std::string w; words >> w;) row.push_back(w);
    if (row.size() > 8 && std::isdigit(static_cast<unsigned char>(row[0][0]))) rows.push_back(row);
  }
  return rows;
}

TEST(BenchCastCli, EveryCastAgreesWithTheRefereeAndTheCsvHasEveryQuery) {
  const fs::path csv =
      fs::temp_directory_path() / ("hb-test-bench-cast-" + std::to_string(::getpid()) + ".csv");
  const auto run = runCli(
      "bench cast --sizes 50,200 --configurations 8 --sequences 1 --sequence-length 10 "
      "--repeats 1 --peers '' --csv '" +
      csv.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const auto rows = tableRows(run.out);
  // Two sizes, each: collide, four misses, two coherences.
  ASSERT_EQ(rows.size(), 14u) << run.out;
  int queries = 0, warm = 0;
  for (const auto& row : rows) {
    // 50 vertices: 5 rings of 12 meridians, and the poles (the hull keeps every point); 200: 10
    // rings of 22.
    EXPECT_TRUE(row[0] == "62" || row[0] == "222") << row[0];
    // case names with a blank ("miss 0.005D", "seq 1%D") take two words.
    const size_t offset = row[1] == "collide" ? 0 : 1;
    const int casts = std::stoi(row[2 + offset]);
    const int hits = std::stoi(row[3 + offset]);
    const int wrong = std::stoi(row[6 + offset]);
    EXPECT_EQ(wrong, 0) << "row: " << row[0] << " " << row[1];
    // CTA's columns follow the GJK cast's warm ones: steps, time, ratio, wrong, error.
    const int ctaWrong = std::stoi(row[13 + offset]);
    EXPECT_EQ(ctaWrong, 0) << "CTA, row: " << row[0] << " " << row[1];
    if (row[1] == "collide") {
      EXPECT_EQ(hits, casts);
    }
    if (row[1] == "miss") {
      EXPECT_EQ(hits, 0);
    }
    queries += casts;
    if (row[1] == "seq") warm += casts;
  }
  std::ifstream in(csv);
  std::string line;
  int lines = -1;  // header
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 2 * (queries + warm));  // the GJK cast's rows and CTA's
  EXPECT_NE(run.out.find("growth of the median time"), std::string::npos) << run.out;
  fs::remove(csv);
}

TEST(BenchCastCli, JsonHasTheTablesRows) {
  const auto run = hb::test::runCommand(
      hb::test::heavyball("bench cast --sizes 200,800 --configurations 3 --sequences 1 --json") +
      " 2>/dev/null");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const nlohmann::json out = nlohmann::json::parse(run.out);  // one object, nothing else
  EXPECT_EQ(out["bench"], "cast");
  const nlohmann::json& rows = out["tables"]["casts"];
  ASSERT_FALSE(rows.empty());
  for (const nlohmann::json& row : rows) {
    EXPECT_EQ(row["gjk_wrong"], 0) << row;  // heavyball's casts agree with the referee
    EXPECT_EQ(row["cta_wrong"], 0) << row;
    EXPECT_GT(row["gjk_us"].get<double>(), 0.0);
  }
  EXPECT_FALSE(out["tables"]["growth"].empty());  // two sizes: a slope per case and method
}

TEST(BenchCastCli, BadOptionsAreRefused) {
  const auto small = runCli("bench cast --sizes 4 --peers ''");
  EXPECT_EQ(small.exitCode, 2) << small.out;
  EXPECT_NE(small.out.find("sizes must be in [8, 2000000]"), std::string::npos) << small.out;
  const auto peer = runCli("bench cast --sizes 50 --peers nosuch");
  EXPECT_EQ(peer.exitCode, 2) << peer.out;
  EXPECT_NE(peer.out.find("peer 'nosuch' is not built in"), std::string::npos) << peer.out;
}

}  // namespace
