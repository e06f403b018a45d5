// End-to-end tests of `heavyball study warmstart`: on a recording and on a batch directory, the
// CSV holds one row per problem and combination with the documented columns, the table lists
// every combination, and unreadable recordings and failing plots give clear errors.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kHeader =
    "recording,problem,step,body_a,body_b,method,warm_start,fallback,collide,iterations,time_us";

using hb::test::runCli;

std::string quoted(const fs::path& p) {
  return "'" + p.string() + "'";
}

struct CsvRow {
  std::string recording, method, warmStart;
  long problem = 0, step = 0;
  int bodyA = 0, bodyB = 0, fallback = 0, collide = 0, iterations = 0;
  double timeUs = 0.0;
};

/// The rows of a study CSV; the header must be the documented one.
std::vector<CsvRow> readCsv(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, kHeader);
  std::vector<CsvRow> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string field; std::getline(ss, field, ',');) f.push_back(field);
    EXPECT_EQ(f.size(), 11u) << line;
    if (f.size() != 11u) continue;
    CsvRow r;
    r.recording = f[0];
    r.problem = std::stol(f[1]);
    r.step = std::stol(f[2]);
    r.bodyA = std::stoi(f[3]);
    r.bodyB = std::stoi(f[4]);
    r.method = f[5];
    r.warmStart = f[6];
    r.fallback = std::stoi(f[7]);
    r.collide = std::stoi(f[8]);
    r.iterations = std::stoi(f[9]);
    r.timeUs = std::stod(f[10]);
    rows.push_back(r);
  }
  return rows;
}

long problemCount(const fs::path& recording) {
  const hb::test::CommandRun inspect = runCli("inspect --json " + quoted(recording));
  EXPECT_EQ(inspect.exitCode, 0) << inspect.out;
  return json::parse(inspect.out)["problems"].get<long>();
}

class StudyCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() /
                        ("heavyball-test-study-cli-" + std::to_string(::getpid())));
    fs::create_directories(*dir_);
    // The funnel-pair scene with two given assets (loading every YCB asset would take seconds).
    std::ifstream in(fs::path(HB_SOURCE_DIR) / "assets/scenes/funnel-pair.json");
    json scene = json::parse(in);
    scene["asset_dir"] = (fs::path(HB_SOURCE_DIR) / "assets/ycb").string();
    scene["spawner"]["assets"] = {"061_foam_brick", "048_hammer"};
    const fs::path sceneFile = *dir_ / "scene.json";
    std::ofstream(sceneFile) << scene.dump(2);
    recording_ = new fs::path(*dir_ / "run.h5");
    const hb::test::CommandRun simulate = runCli("simulate --scene " + quoted(sceneFile) +
                                                 " --seconds 0.4 --record " + quoted(*recording_));
    ASSERT_EQ(simulate.exitCode, 0) << simulate.out;
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete recording_;
    delete dir_;
  }

  static fs::path* dir_;
  static fs::path* recording_;
};

fs::path* StudyCliTest::dir_ = nullptr;
fs::path* StudyCliTest::recording_ = nullptr;

TEST_F(StudyCliTest, OneCsvRowPerProblemAndCombination) {
  const fs::path csv = *dir_ / "study.csv";
  const hb::test::CommandRun study =
      runCli("study warmstart " + quoted(*recording_) + " --repeats 3 --csv " + quoted(csv));
  ASSERT_EQ(study.exitCode, 0) << study.out;
  const long problems = problemCount(*recording_);
  ASSERT_GT(problems, 20);

  const std::vector<CsvRow> rows = readCsv(csv);
  ASSERT_EQ(static_cast<long>(rows.size()), 12 * problems);
  std::map<long, std::vector<CsvRow>> byProblem;
  for (const CsvRow& r : rows) byProblem[r.problem].push_back(r);
  ASSERT_EQ(static_cast<long>(byProblem.size()), problems);
  EXPECT_EQ(byProblem.begin()->first, 0);
  EXPECT_EQ(byProblem.rbegin()->first, problems - 1);
  const std::set<std::string> methods = {"gjk", "polyak", "nesterov"};
  const std::set<std::string> warmStarts = {"none", "obb", "previous", "transformed"};
  long fallbacks = 0;
  for (const auto& [problem, group] : byProblem) {
    ASSERT_EQ(group.size(), 12u) << "problem " << problem;
    std::set<std::pair<std::string, std::string>> combinations;
    std::set<int> previousFallbacks;
    for (const CsvRow& r : group) {
      EXPECT_EQ(r.recording, recording_->string());
      EXPECT_EQ(r.step, group.front().step);
      EXPECT_EQ(r.bodyA, group.front().bodyA);
      EXPECT_LT(r.bodyA, r.bodyB);
      EXPECT_TRUE(methods.count(r.method)) << r.method;
      EXPECT_TRUE(warmStarts.count(r.warmStart)) << r.warmStart;
      combinations.insert({r.method, r.warmStart});
      EXPECT_GT(r.iterations, 0);
      EXPECT_GE(r.timeUs, 0.0);
      if (r.warmStart == "none" || r.warmStart == "obb") {
        EXPECT_EQ(r.fallback, 0);
      } else {
        previousFallbacks.insert(r.fallback);  // one answer per problem: is there a previous?
        fallbacks += r.fallback;
      }
    }
    EXPECT_EQ(combinations.size(), 12u);
    EXPECT_EQ(previousFallbacks.size(), 1u) << "problem " << problem;
  }
  EXPECT_GT(fallbacks, 0);  // the first step of every pair

  // The table: one line per combination, the baseline's ratio 1, the verdict line.
  for (const std::string m : {"gjk", "polyak", "nesterov"}) {
    for (const std::string w : {"none", "obb", "previous", "transformed"}) {
      EXPECT_NE(study.out.find("\n" + m + "/" + w + " "), std::string::npos) << m << "/" << w;
    }
  }
  EXPECT_NE(study.out.find("1.000"), std::string::npos) << study.out;
  EXPECT_NE(study.out.find("verdicts: "), std::string::npos) << study.out;
  EXPECT_NE(study.out.find(std::to_string(problems) + " problems x 12 combinations"),
            std::string::npos)
      << study.out;
}

TEST_F(StudyCliTest, BatchDirectoriesAndSubsets) {
  const fs::path batch = *dir_ / "batch";
  const hb::test::CommandRun run =
      runCli("batch --scene '" + std::string(HB_APPS_TEST_DATA) +
             "/batch-funnel.json' --runs 2 --seconds 0.3 --jobs 1 --record --out " + quoted(batch));
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const long problems =
      problemCount(batch / "runs/run-000000.h5") + problemCount(batch / "runs/run-000001.h5");

  const fs::path csv = *dir_ / "batch.csv";
  const hb::test::CommandRun study =
      runCli("study warmstart " + quoted(batch) +
             " --repeats 1 --methods nesterov,gjk --warm-starts previous --csv " + quoted(csv));
  ASSERT_EQ(study.exitCode, 0) << study.out;
  const std::vector<CsvRow> rows = readCsv(csv);
  EXPECT_EQ(static_cast<long>(rows.size()), 2 * problems);
  std::set<std::string> recordings;
  for (const CsvRow& r : rows) {
    recordings.insert(fs::path(r.recording).filename().string());
    EXPECT_TRUE(r.method == "nesterov" || r.method == "gjk");
    EXPECT_EQ(r.warmStart, "previous");
  }
  EXPECT_EQ(recordings, (std::set<std::string>{"run-000000.h5", "run-000001.h5"}));
  EXPECT_NE(study.out.find("gjk/none was not measured"), std::string::npos) << study.out;

  // The first problems only, across the recordings.
  const hb::test::CommandRun first = runCli("study warmstart " + quoted(batch) +
                                            " --repeats 1 --max-problems 5 --csv " + quoted(csv));
  ASSERT_EQ(first.exitCode, 0) << first.out;
  EXPECT_EQ(readCsv(csv).size(), 5u * 12u);
}

TEST_F(StudyCliTest, ASummaryByDefaultAndNoFileWritten) {
  const fs::path folder = *dir_ / "summary-only";
  fs::create_directories(folder);
  const hb::test::CommandRun run = hb::test::runCommand(
      "cd " + quoted(folder) + " && " +
      hb::test::heavyball("study warmstart " + quoted(*recording_) + " --repeats 1") + " 2>&1");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  for (const char* expected : {"median", "q1", "q3", "fallbacks", "nesterov", "transformed"}) {
    EXPECT_NE(run.out.find(expected), std::string::npos) << expected << "\n" << run.out;
  }
  EXPECT_TRUE(fs::is_empty(folder)) << "the per-problem CSV is written only with --csv";
}

TEST_F(StudyCliTest, ACsvNamedGzIsCompressedWithTheSameRows) {
  const fs::path plain = *dir_ / "subset.csv", packed = *dir_ / "subset.csv.gz";
  const std::string common =
      "study warmstart " + quoted(*recording_) + " --repeats 1 --max-problems 8";
  ASSERT_EQ(runCli(common + " --csv " + quoted(plain)).exitCode, 0);
  ASSERT_EQ(runCli(common + " --csv " + quoted(packed)).exitCode, 0);
  std::ifstream in(packed, std::ios::binary);
  EXPECT_EQ(in.get(), 0x1f);  // gzip's magic number
  EXPECT_EQ(in.get(), 0x8b);
  const fs::path unpacked = *dir_ / "unpacked.csv";
  ASSERT_EQ(hb::test::runCommand("gzip -dc " + quoted(packed) + " > " + quoted(unpacked)).exitCode,
            0);
  const std::vector<CsvRow> a = readCsv(plain), b = readCsv(unpacked);
  ASSERT_EQ(a.size(), 8u * 12u);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {  // all but the times, which are measured again
    EXPECT_EQ(a[i].problem, b[i].problem);
    EXPECT_EQ(a[i].method + a[i].warmStart, b[i].method + b[i].warmStart);
    EXPECT_EQ(a[i].iterations, b[i].iterations);
    EXPECT_EQ(a[i].collide, b[i].collide);
  }
  EXPECT_LT(fs::file_size(packed), fs::file_size(plain) / 3);
}

TEST_F(StudyCliTest, UnreadableRecordingsNameTheFile) {
  const fs::path cut = *dir_ / "truncated.h5";
  fs::copy_file(*recording_, cut, fs::copy_options::overwrite_existing);
  fs::resize_file(cut, fs::file_size(*recording_) / 2);
  const hb::test::CommandRun truncated = runCli("study warmstart " + quoted(cut));
  EXPECT_EQ(truncated.exitCode, 1) << truncated.out;
  EXPECT_NE(truncated.out.find(cut.string()), std::string::npos) << truncated.out;
  EXPECT_NE(truncated.out.find("truncated"), std::string::npos) << truncated.out;

  // A good recording first does not hide the bad one after it.
  const hb::test::CommandRun mixed =
      runCli("study warmstart " + quoted(*recording_) + " " + quoted(cut));
  EXPECT_EQ(mixed.exitCode, 1) << mixed.out;
  EXPECT_NE(mixed.out.find(cut.string()), std::string::npos) << mixed.out;

  const fs::path missing = *dir_ / "missing.h5";
  const hb::test::CommandRun absent = runCli("study warmstart " + quoted(missing));
  EXPECT_EQ(absent.exitCode, 2) << absent.out;  // a path that does not exist: a usage error
  EXPECT_NE(absent.out.find(missing.string()), std::string::npos) << absent.out;

  const fs::path notBatch = *dir_ / "not-a-batch";
  fs::create_directories(notBatch);
  const hb::test::CommandRun directory = runCli("study warmstart " + quoted(notBatch));
  EXPECT_EQ(directory.exitCode, 1) << directory.out;
  EXPECT_NE(directory.out.find("not a batch directory"), std::string::npos) << directory.out;
}

/// Files of the temporary directory named like the CSV the study writes for a plot.
std::set<std::string> studyTemporaries() {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path())) {
    const std::string name = e.path().filename().string();
    if (name.rfind("heavyball-study-", 0) == 0) names.insert(name);
  }
  return names;
}

TEST_F(StudyCliTest, PlotWritesAPngOrSaysWhyNot) {
  const fs::path png = *dir_ / "fig13.png";
  const std::set<std::string> before = studyTemporaries();
  const hb::test::CommandRun study = runCli("study warmstart " + quoted(*recording_) +
                                            " --repeats 1 --max-problems 10 --plot " + quoted(png));
  // The table comes first either way.
  EXPECT_NE(study.out.find("verdicts: "), std::string::npos) << study.out;
  if (study.exitCode == 0) {
    ASSERT_TRUE(fs::exists(png)) << study.out;
    EXPECT_GT(fs::file_size(png), 1000u);
  } else {
    // The plotting script is missing or failed (no matplotlib): the command says which one.
    EXPECT_EQ(study.exitCode, 1);
    EXPECT_NE(study.out.find("tools/plot.py"), std::string::npos) << study.out;
    EXPECT_TRUE(study.out.find("plot failed") != std::string::npos ||
                study.out.find("cannot plot") != std::string::npos)
        << study.out;
  }
  // The CSV written for the plot does not outlive the command.
  EXPECT_EQ(studyTemporaries(), before);
}

}  // namespace
