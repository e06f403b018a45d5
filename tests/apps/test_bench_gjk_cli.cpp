// End-to-end tests of `heavyball bench gjk`: run the built binary on a few small problems and check
// the CSV it writes (columns, one row per problem, mode and method, agreement between heavyball's
// variants and with the placed signed distances). Never asserts on timings beyond "positive".

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;

using BenchRun = hb::test::CommandRun;

/// Runs `heavyball <args>` in the repository root; stdout captured, stderr (progress) dropped.
BenchRun runBench(const std::string& args) {
  return hb::test::runCommand(std::string("cd '") + HB_SOURCE_DIR + "' && " +
                              hb::test::heavyball(args) + " 2>/dev/null");
}

std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
  return fields;
}

struct Row {
  std::string shapes, pair;
  int pose = 0;
  double bucket = 0.0;
  std::string mode, method;
  int iterations = 0;
  double timeUs = 0.0;
  double distance = 0.0;
  int collide = 0;
};

constexpr const char* kHeader =
    "shapes,pair,pose,distance_bucket,mode,method,iterations,time_us,distance,collide";

/// Reads the CSV; every data row must have the header's ten fields.
std::vector<Row> readCsv(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  EXPECT_TRUE(std::getline(in, line)) << path;
  EXPECT_EQ(line, kHeader);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = splitCsv(line);
    EXPECT_EQ(f.size(), 10u) << line;
    if (f.size() != 10) continue;
    Row r;
    r.shapes = f[0];
    r.pair = f[1];
    r.pose = std::stoi(f[2]);
    r.bucket = std::stod(f[3]);
    r.mode = f[4];
    r.method = f[5];
    r.iterations = std::stoi(f[6]);
    r.timeUs = std::stod(f[7]);
    r.distance = std::stod(f[8]);  // "nan" parses to NaN
    r.collide = std::stoi(f[9]);
    rows.push_back(r);
  }
  return rows;
}

fs::path tempCsv(const std::string& name) {
  return fs::temp_directory_path() /
         ("hb_bench_" + name + "_" + std::to_string(::getpid()) + ".csv");
}

bool isHeavyball(const std::string& method) {
  return method == "gjk" || method == "polyak" || method == "nesterov" || method == "auto";
}

TEST(BenchGjkCli, EllipsoidCsvHasOneConsistentRowPerProblemModeAndMethod) {
  const fs::path csv = tempCsv("ellipsoids");
  const BenchRun run = runBench(
      "bench gjk --shapes ellipsoids --pairs 3 --poses 3 --repeats 3 "
      "--distances=-0.01,0,0.001,0.1,1 --csv '" +
      csv.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  EXPECT_NE(run.out.find("speedup_vs_gjk"), std::string::npos);
  EXPECT_NE(run.out.find("sanity checks"), std::string::npos);

  const std::vector<Row> rows = readCsv(csv);
  fs::remove(csv);
  ASSERT_FALSE(rows.empty());

  using Key = std::tuple<std::string, int, double, std::string>;  // pair, pose, bucket, mode
  std::map<Key, std::map<std::string, const Row*>> problems;
  std::set<std::string> methods;
  for (const Row& r : rows) {
    EXPECT_EQ(r.shapes, "ellipsoids");
    EXPECT_TRUE(r.mode == "distance" || r.mode == "boolean") << r.mode;
    EXPECT_TRUE(std::isfinite(r.timeUs) && r.timeUs > 0.0) << r.method << " " << r.timeUs;
    EXPECT_TRUE(r.collide == 0 || r.collide == 1);
    if (isHeavyball(r.method)) {
      EXPECT_GE(r.iterations, 0) << r.method;
    } else {
      EXPECT_EQ(r.iterations, -1) << r.method;  // peers do not report iterations
    }
    auto& byMethod = problems[{r.pair, r.pose, r.bucket, r.mode}];
    EXPECT_EQ(byMethod.count(r.method), 0u) << "duplicate row for " << r.method;
    byMethod[r.method] = &r;
    methods.insert(r.method);
  }
  for (const char* m : {"gjk", "polyak", "nesterov", "auto"}) EXPECT_TRUE(methods.count(m)) << m;

  // 3 pairs x 3 poses x 5 distances, minus depths out of reach, in both modes.
  EXPECT_LE(problems.size(), 3u * 3u * 5u * 2u);
  EXPECT_GE(problems.size(), 3u * 3u * 4u * 2u);

  for (const auto& [key, byMethod] : problems) {
    const auto& [pair, pose, bucket, mode] = key;
    // Every Boolean problem is answered by every method; heavyball answers both modes.
    if (mode == "boolean") EXPECT_EQ(byMethod.size(), methods.size()) << pair << " " << pose;
    for (const char* m : {"gjk", "polyak", "nesterov", "auto"}) {
      ASSERT_TRUE(byMethod.count(m)) << m << " missing for " << pair << " " << mode;
      const Row& r = *byMethod.at(m);
      EXPECT_EQ(r.collide, byMethod.at("gjk")->collide) << m << " " << pair << " " << bucket;
      if (bucket != 0.0) EXPECT_EQ(r.collide, bucket < 0.0 ? 1 : 0) << m << " " << bucket;
      if (mode == "distance" && bucket > 0.0) {
        EXPECT_NEAR(r.distance, bucket, 1e-4) << m << " " << pair << " " << pose;
      }
    }
  }
}

TEST(BenchGjkCli, MethodSelectionAndYcbPairNames) {
  const fs::path csv = tempCsv("ycb");
  const BenchRun run =
      runBench("bench gjk --pairs 1 --poses 2 --repeats 2 --distances 0.05 --methods gjk --csv '" +
               csv.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const std::vector<Row> rows = readCsv(csv);
  fs::remove(csv);
  ASSERT_EQ(rows.size(), 4u);  // 2 poses x 1 distance x 2 modes x 1 method
  for (const Row& r : rows) {
    EXPECT_EQ(r.shapes, "ycb");
    EXPECT_EQ(r.method, "gjk");
    EXPECT_NE(r.pair.find('+'), std::string::npos) << r.pair;  // "meshA+meshB"
    EXPECT_DOUBLE_EQ(r.bucket, 0.05);
    EXPECT_EQ(r.collide, 0);
  }
}

TEST(BenchGjkCli, RejectsUnknownMethodsAndBadOptions) {
  EXPECT_NE(runBench("bench gjk --methods no_such_method --pairs 1 --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --methods gjk,gjk --pairs 1 --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --shapes spheres").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --pairs 0").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --mesh-dir /nonexistent --pairs 1 --poses 1").exitCode, 0);
}

TEST(BenchGjkCli, ListsItsMethods) {
  const BenchRun run = runBench("bench gjk --list-methods");
  ASSERT_EQ(run.exitCode, 0);
  for (const char* m : {"gjk\n", "polyak\n", "nesterov\n", "auto\n"}) {
    EXPECT_NE(run.out.find(m), std::string::npos) << m;
  }
}

}  // namespace
