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

#include <nlohmann/json.hpp>

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
  int converged = 0;
  double referenceDistance = 0.0;
  int verticesA = 0, verticesB = 0;
};

// The first ten columns are read by plotting scripts: their names and order never change.
constexpr const char* kHeader =
    "shapes,pair,pose,distance_bucket,mode,method,iterations,time_us,distance,collide,"
    "converged,reference_distance,vertices_a,vertices_b";

/// Reads the CSV; every data row must have the header's fourteen fields.
std::vector<Row> readCsv(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  EXPECT_TRUE(std::getline(in, line)) << path;
  EXPECT_EQ(line, kHeader);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = splitCsv(line);
    EXPECT_EQ(f.size(), 14u) << line;
    if (f.size() != 14) continue;
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
    r.converged = std::stoi(f[10]);
    r.referenceDistance = std::stod(f[11]);
    r.verticesA = std::stoi(f[12]);
    r.verticesB = std::stoi(f[13]);
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

bool isFrankWolfe(const std::string& method) {
  return method == "fw" || method == "fw_active_set";
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
    EXPECT_FALSE(isFrankWolfe(r.method)) << "the Frank-Wolfe baselines run only when named";
    EXPECT_EQ(r.verticesA, 0);
    EXPECT_EQ(r.verticesB, 0);
    // Exact placement: the reference signed distance is the target.
    EXPECT_NEAR(r.referenceDistance, r.bucket, 1e-5);
    if (isHeavyball(r.method)) {
      EXPECT_EQ(r.converged, 1) << r.method;
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
    if (mode == "boolean") {
      EXPECT_EQ(byMethod.size(), methods.size()) << pair << " " << pose;
    }
    for (const char* m : {"gjk", "polyak", "nesterov", "auto"}) {
      ASSERT_TRUE(byMethod.count(m)) << m << " missing for " << pair << " " << mode;
      const Row& r = *byMethod.at(m);
      EXPECT_EQ(r.collide, byMethod.at("gjk")->collide) << m << " " << pair << " " << bucket;
      if (bucket != 0.0) {
        EXPECT_EQ(r.collide, bucket < 0.0 ? 1 : 0) << m << " " << bucket;
      }
      if (mode == "distance" && bucket > 0.0) {
        EXPECT_NEAR(r.distance, bucket, 1e-4) << m << " " << pair << " " << pose;
      }
    }
  }
}

TEST(BenchGjkCli, JsonHasTheSettingsAndTheTablesRows) {
  const BenchRun run = runBench(
      "bench gjk --shapes ellipsoids --pairs 2 --poses 2 --repeats 2 --methods gjk,nesterov "
      "--distances -0.01,0.01,1 --json");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const nlohmann::json out = nlohmann::json::parse(run.out);  // one object, nothing else
  EXPECT_EQ(out["bench"], "gjk");
  EXPECT_EQ(out["methods"], nlohmann::json::array({"gjk", "nesterov"}));
  // One bucket row per distance, mode and method; every problem found its place.
  EXPECT_EQ(out["tables"]["buckets"].size(), 3u * 2u * 2u);
  for (const nlohmann::json& row : out["tables"]["buckets"]) {
    EXPECT_EQ(row["problems"], 4) << row;
    EXPECT_GT(row["median_us"].get<double>(), 0.0) << row;
  }
  EXPECT_EQ(out["variants_disagreeing"]["disagreeing"], 0);
  EXPECT_EQ(out["placement"]["beyond_1e-5_m"], 0);
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

TEST(BenchGjkCli, FwTableOnCubesCountsIterationsOfTheBaselines) {
  const fs::path csv = tempCsv("fw");
  const BenchRun run = runBench(
      "bench gjk --shapes cubes --table fw --pairs 2 --poses 2 --distances=-0.01,0.05,1 "
      "--fw-max-iterations 20000 --csv '" +
      csv.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  EXPECT_NE(run.out.find("Table II"), std::string::npos) << run.out;
  for (const char* row : {"overlapping <0", "close 0..0.1m", "distant >=1m", "not converged"}) {
    EXPECT_NE(run.out.find(row), std::string::npos) << row;
  }

  const std::vector<Row> rows = readCsv(csv);
  fs::remove(csv);
  ASSERT_FALSE(rows.empty());
  std::map<std::string, int> perMethod;
  std::map<std::tuple<std::string, int, double>, int> gjkIterations;  // pair, pose, bucket
  for (const Row& r : rows) {
    EXPECT_EQ(r.shapes, "cubes");
    EXPECT_EQ(r.mode, "distance");  // Table II is about distance queries
    ++perMethod[r.method];
    EXPECT_GE(r.iterations, 1) << r.method;
    if (r.converged == 0) {
      EXPECT_TRUE(isFrankWolfe(r.method)) << r.method;
      EXPECT_EQ(r.iterations, 20000) << r.method;  // stopped by the cap, and says so
      continue;
    }
    EXPECT_LE(r.iterations, 20000);
    // The duality gap bounds the error: |d - d*| <= sqrt(eps) = 1e-4 m.
    if (r.bucket > 0.0) {
      EXPECT_NEAR(r.distance, r.referenceDistance, 1e-4) << r.method;
    }
    EXPECT_EQ(r.collide, r.bucket < 0.0 ? 1 : 0) << r.method << " " << r.bucket;
    if (r.method == "gjk") gjkIterations[{r.pair, r.pose, r.bucket}] = r.iterations;
  }
  const std::set<std::string> expected = {"fw", "fw_active_set", "gjk", "nesterov"};
  EXPECT_EQ(perMethod.size(), expected.size());
  for (const std::string& m : expected) {
    EXPECT_EQ(perMethod[m], perMethod["gjk"]) << m;
  }
  // Polytopes: GJK identifies the optimal simplex in a handful of iterations.
  for (const auto& [key, iterations] : gjkIterations) EXPECT_LE(iterations, 20);
}

TEST(BenchGjkCli, FrankWolfeBaselinesReportATinyIterationCap) {
  const fs::path csv = tempCsv("fwcap");
  const BenchRun run = runBench(
      "bench gjk --shapes cubes --table fw --methods fw,fw_active_set --pairs 2 --poses 2 "
      "--distances 0.05 --fw-max-iterations 1 --csv '" +
      csv.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const std::vector<Row> rows = readCsv(csv);
  fs::remove(csv);
  ASSERT_EQ(rows.size(), 8u);  // 2 pairs x 2 poses x 1 distance x 2 methods
  for (const Row& r : rows) {
    EXPECT_EQ(r.converged, 0) << r.method;
    EXPECT_EQ(r.iterations, 1) << r.method;
    // The last iterate is a point of the Minkowski difference: an upper bound.
    EXPECT_GE(r.distance, r.referenceDistance - 1e-9) << r.method;
  }
  EXPECT_NE(run.out.find(">"), std::string::npos) << "capped means are marked as lower bounds";
}

TEST(BenchGjkCli, MeshesTablePairsEveryChosenMeshWithItselfAndTheOthers) {
  const fs::path csv = tempCsv("meshes");
  const BenchRun run = runBench(
      "bench gjk --table meshes --meshes 061_foam_brick,025_mug --poses 1 --repeats 2 --csv '" +
      csv.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  EXPECT_NE(run.out.find("Table I"), std::string::npos) << run.out;
  const std::vector<Row> rows = readCsv(csv);
  fs::remove(csv);
  std::map<std::string, std::pair<int, int>> vertices;
  std::set<std::string> methods, modes;
  for (const Row& r : rows) {
    vertices[r.pair] = {r.verticesA, r.verticesB};
    methods.insert(r.method);
    modes.insert(r.mode);
    EXPECT_LE(std::abs(r.bucket), 0.01) << "Table I keeps -0.01 <= d <= 0.01 m";
  }
  ASSERT_EQ(vertices.size(), 3u);  // brick+brick, brick+mug, mug+mug
  ASSERT_TRUE(vertices.count("061_foam_brick+061_foam_brick"));
  ASSERT_TRUE(vertices.count("061_foam_brick+025_mug"));
  ASSERT_TRUE(vertices.count("025_mug+025_mug"));
  const int brick = vertices["061_foam_brick+061_foam_brick"].first;
  const int mug = vertices["025_mug+025_mug"].first;
  EXPECT_GT(brick, 8);
  EXPECT_GT(mug, 8);
  EXPECT_EQ(vertices["061_foam_brick+025_mug"], std::make_pair(brick, mug));
  EXPECT_EQ(vertices["061_foam_brick+061_foam_brick"].second, brick);
  // Each mesh is labelled with its hull vertex count.
  EXPECT_NE(run.out.find("025_mug (N=" + std::to_string(mug) + ")"), std::string::npos);
  EXPECT_EQ(methods, (std::set<std::string>{"gjk", "polyak", "nesterov"}));
  EXPECT_EQ(modes, (std::set<std::string>{"distance", "boolean"}));
}

TEST(BenchGjkCli, PeersTableTimesBooleanQueriesPerCategory) {
  const fs::path csv = tempCsv("peers");
  const BenchRun run = runBench(
      "bench gjk --table peers --meshes 042_adjustable_wrench,061_foam_brick --pairs 1 "
      "--poses 2 --repeats 2 --distances=-0.01,0.05,1 --csv '" +
      csv.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  for (const char* text : {"distant >=1m", "close 0..0.1m", "overlapping <0", "ratio"}) {
    EXPECT_NE(run.out.find(text), std::string::npos) << text;
  }
  const std::vector<Row> rows = readCsv(csv);
  fs::remove(csv);
  std::set<std::string> methods;
  for (const Row& r : rows) {
    EXPECT_EQ(r.mode, "boolean");  // Fig. 12 times Boolean queries
    EXPECT_EQ(r.pair, "042_adjustable_wrench+061_foam_brick");
    methods.insert(r.method);
  }
  for (const char* m : {"gjk", "polyak", "nesterov"}) EXPECT_TRUE(methods.count(m)) << m;
  EXPECT_FALSE(methods.count("auto"));
  EXPECT_FALSE(methods.count("fcl_indep"));
}

TEST(BenchGjkCli, RejectsUnknownMethodsAndBadOptions) {
  EXPECT_NE(runBench("bench gjk --methods no_such_method --pairs 1 --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --methods gjk,gjk --pairs 1 --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --shapes spheres").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --pairs 0").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --mesh-dir /nonexistent --pairs 1 --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --table nope").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --table meshes --shapes ellipsoids --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --shapes cubes --meshes 025_mug --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --meshes no_such_mesh,025_mug --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --meshes 025_mug,025_mug --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --meshes 025_mug --poses 1").exitCode, 0);  // no pair to draw
  EXPECT_NE(runBench("bench gjk --modes sideways --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --modes distance,distance --poses 1").exitCode, 0);
  EXPECT_NE(runBench("bench gjk --fw-max-iterations 0 --poses 1").exitCode, 0);
}

TEST(BenchGjkCli, ListsItsMethods) {
  const BenchRun run = runBench("bench gjk --list-methods");
  ASSERT_EQ(run.exitCode, 0);
  for (const char* m : {"gjk\n", "polyak\n", "nesterov\n", "auto\n", "\nfw (", "fw_active_set ("}) {
    EXPECT_NE(run.out.find(m), std::string::npos) << m;
  }
}

}  // namespace
