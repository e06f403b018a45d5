// End-to-end tests of `heavyball query`: run the built binary on shipped problem files and check
// its JSON answers against analytic distances.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <Eigen/Core>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/input_file.hpp"
#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr double kTol = 1e-6;

using CliRun = hb::test::CommandRun;

/// Runs `heavyball <args>` in the repository root (relative mesh paths resolve there).

std::vector<json> parseLines(const std::string& text) {
  std::vector<json> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    lines.push_back(json::parse(line));  // every output line must be valid JSON
  }
  return lines;
}

void expectVector(const json& v, double x, double y, double z, const std::string& what) {
  ASSERT_TRUE(v.is_array() && v.size() == 3) << what << ": " << v;
  EXPECT_NEAR(v[0].get<double>(), x, kTol) << what;
  EXPECT_NEAR(v[1].get<double>(), y, kTol) << what;
  EXPECT_NEAR(v[2].get<double>(), z, kTol) << what;
}

std::string dataFile(const std::string& name) {
  return (fs::path(HB_APPS_TEST_DATA) / name).string();
}

/// The answers to tests/apps/data/problems.jsonl, by input line number.
class QueryProblemsFile : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    run_ = hb::test::runCliInSource("query --input '" + dataFile("problems.jsonl") + "'");
    for (const json& answer : parseLines(run_.out)) {
      answers_[answer.at("line").get<int>()] = answer;
    }
  }
  const json& answer(int line) {
    static const json missing;
    const auto it = answers_.find(line);
    if (it == answers_.end()) {
      ADD_FAILURE() << "no answer for line " << line;
      return missing;
    }
    return it->second;
  }
  void expectAnswer(int line, bool collide, double distance) {
    const json& a = answer(line);
    ASSERT_FALSE(a.contains("error")) << a;
    EXPECT_EQ(a.at("collide").get<bool>(), collide) << a;
    EXPECT_NEAR(a.at("distance").get<double>(), distance, kTol) << a;
    EXPECT_EQ(a.at("status").get<std::string>(), collide ? "intersecting" : "separated") << a;
  }
  void expectError(int line, const std::string& id, const std::string& messagePart) {
    const json& a = answer(line);
    ASSERT_TRUE(a.contains("error")) << a;
    EXPECT_FALSE(a.contains("distance")) << a;
    if (!id.empty()) {
      EXPECT_EQ(a.value("id", json()), id) << a;
    }
    EXPECT_NE(a.at("error").get<std::string>().find(messagePart), std::string::npos)
        << "line " << line << ": " << a;
  }

  static inline CliRun run_;
  static inline std::map<int, json> answers_;
};

TEST_F(QueryProblemsFile, ExitCodeIsOneAndEveryProblemLineIsAnswered) {
  EXPECT_EQ(run_.exitCode, 1);
  // 26 problem lines; lines 1, 2 and 21 are a comment, a blank line and an indented comment.
  EXPECT_EQ(answers_.size(), 26u);
  EXPECT_EQ(answers_.count(1) + answers_.count(2) + answers_.count(21), 0u);
  // Output keeps input order.
  int previous = 0;
  for (const json& a : parseLines(run_.out)) {
    EXPECT_GT(a.at("line").get<int>(), previous);
    previous = a.at("line").get<int>();
  }
}

TEST_F(QueryProblemsFile, SphereSphereSeparated) {
  expectAnswer(3, false, 1.25);
  const json& a = answer(3);
  EXPECT_EQ(a.at("id"), "sphere-sphere");
  expectVector(a.at("normal"), 1, 0, 0, "normal");
  expectVector(a.at("witness_a"), 0.5, 0, 0, "witness_a");
  expectVector(a.at("witness_b"), 1.75, 0, 0, "witness_b");
  EXPECT_GE(a.at("iterations").get<int>(), 1);
  EXPECT_FALSE(a.contains("epa_status"));
  EXPECT_EQ(a.at("epa_iterations").get<int>(), 0);
}

TEST_F(QueryProblemsFile, SphereSphereOverlappingDepthWithoutEpa) {
  expectAnswer(4, true, -0.2);
  const json& a = answer(4);
  EXPECT_EQ(a.at("id"), 4);
  expectVector(a.at("normal"), 0, 0.6, 0.8, "normal");
  expectVector(a.at("witness_a"), 0, 0.3, 0.4, "witness_a");  // deepest point of A in B
  expectVector(a.at("witness_b"), 0, 0.18, 0.24, "witness_b");
  EXPECT_FALSE(a.contains("epa_status"));  // the point cores are apart: no EPA needed
}

TEST_F(QueryProblemsFile, BoxBoxOverlappingDepthFromEpa) {
  expectAnswer(5, true, -0.1);
  const json& a = answer(5);
  expectVector(a.at("normal"), 1, 0, 0, "normal");
  ASSERT_TRUE(a.contains("epa_status")) << a;
  EXPECT_EQ(a.at("epa_status"), "converged");
  EXPECT_GE(a.at("epa_iterations").get<int>(), 1);
  // Witnesses lie on the overlap's faces along the normal: x = 0.5 on A, x = 0.4 on B.
  EXPECT_NEAR(a.at("witness_a")[0].get<double>(), 0.5, kTol);
  EXPECT_NEAR(a.at("witness_b")[0].get<double>(), 0.4, kTol);
}

TEST_F(QueryProblemsFile, RotatedBoxesEdgeToFace) {
  // B turned 45 degrees about z: its edge at x = 2 - sqrt(2)/2 faces A's face at x = 0.5.
  expectAnswer(6, false, 1.5 - std::sqrt(0.5));
  expectVector(answer(6).at("normal"), 1, 0, 0, "normal");
}

TEST_F(QueryProblemsFile, PrimitivesAgainstSpheres) {
  expectAnswer(7, false, 0.2);  // capsule turned onto x
  expectVector(answer(7).at("witness_a"), 0.6, 0, 0, "capsule witness");
  expectAnswer(8, false, 0.6);   // cylinder side
  expectAnswer(9, false, 0.75);  // cone apex
  expectVector(answer(9).at("witness_a"), 0, 0, 0.5, "cone apex");
  expectAnswer(10, false, 1.5);  // ellipsoid pole
  expectVector(answer(10).at("witness_a"), 0, 0, 3, "ellipsoid pole");
}

TEST_F(QueryProblemsFile, YcbHullAgainstFarBox) {
  // The apple's largest x is 0.038583 (file frame); the box's face is at x = 0.9.
  expectAnswer(11, false, 0.9 - 0.038583);
  expectVector(answer(11).at("normal"), 1, 0, 0, "normal");
  EXPECT_NEAR(answer(11).at("witness_b")[0].get<double>(), 0.9, kTol);
  // Turned 90 degrees about z, the apple's largest x is minus its smallest y (-0.041220).
  expectAnswer(12, false, 0.9 - 0.041220);
}

TEST_F(QueryProblemsFile, ErrorLinesNameTheProblem) {
  expectError(13, "", "invalid JSON");
  expectError(14, "unknown-key", "colour: unknown key");
  expectError(15, "unknown-nested-key", "a.centre: unknown key");
  expectError(16, "wrong-type", "a.half_extents: expected array of 3 numbers");
  expectError(17, "", "invalid JSON");  // JSON has no NaN literal
  expectError(18, "", "invalid JSON: number overflow");
  expectError(19, "non-unit-q", "pose_b.q: expected a unit quaternion");
  expectError(20, "missing-mesh", "b.path: ");
  expectError(20, "missing-mesh", "999_missing/textured.obj: no such file");
}

TEST_F(QueryProblemsFile, RunContinuesAfterErrors) {
  expectAnswer(22, false, 1.25);
  EXPECT_EQ(answer(22).at("id"), "after-errors");
}

TEST_F(QueryProblemsFile, RoundedBoxes) {
  // Faces are where they were: 0.2 m between them, the cores 0.35 m apart.
  expectAnswer(23, false, 0.2);
  expectVector(answer(23).at("normal"), 1, 0, 0, "normal");
  // Corner to corner: the core corners (0.4, 0.4, 0.4) and (1.6, 1.6, 1.6), minus both radii.
  expectAnswer(24, false, 1.2 * std::sqrt(3.0) - 0.2);
  expectVector(answer(24).at("witness_a"), 0.4 + 0.1 / std::sqrt(3.0), 0.4 + 0.1 / std::sqrt(3.0),
               0.4 + 0.1 / std::sqrt(3.0), "rounded corner");
  // Pressed 1 cm together, less than the radii: a GJK distance between cores, no EPA.
  expectAnswer(25, true, -0.01);
  EXPECT_FALSE(answer(25).contains("epa_status")) << answer(25);
}

TEST_F(QueryProblemsFile, RoundedMesh) {
  // The rounded apple lies inside the sharp one: no closer to the box. Its round side loses
  // far less than the radius (tests/collision/test_inset_hull.cpp bounds the loss by
  // r ((h(u) - u . c) / rho - 1), about r / 6 here).
  const json& a = answer(29);
  ASSERT_FALSE(a.contains("error")) << a;
  const double sharp = 0.9 - 0.038583;
  EXPECT_GE(a.at("distance").get<double>(), sharp - kTol) << a;
  EXPECT_LE(a.at("distance").get<double>(), sharp + 0.002) << a;
}

TEST_F(QueryProblemsFile, ConvexRadiusErrors) {
  expectError(26, "rounded-sphere", "a.convex_radius: only box and mesh shapes");
  expectError(27, "negative-radius", "a.convex_radius: expected a number >= 0");
  expectError(28, "radius-too-large", "a.convex_radius: expected at most 0.025 m");
}

/// A scratch directory for input and output files.
class QueryCliFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("hb_query_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

TEST_F(QueryCliFiles, StdinToOutputFileExitsZero) {
  const std::string input = write(
      "in.jsonl",
      "{\"a\": {\"type\": \"box\", \"half_extents\": [1, 1, 1]}, \"b\": {\"type\": \"sphere\", "
      "\"radius\": 0.5}, \"pose_b\": {\"p\": [0, 0, 3]}}\r\n"
      "\n"
      "{\"a\": {\"type\": \"box\", \"half_extents\": [1, 1, 1]}, \"b\": {\"type\": \"mesh\", "
      "\"path\": \"assets/ycb/013_apple/textured.obj\"}, \"pose_b\": {\"p\": [0, 0, -3]}}\n");
  const std::string output = (dir_ / "out.jsonl").string();
  const CliRun run =
      hb::test::runCliInSource("query --input - --output '" + output + "' < '" + input + "'");
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_TRUE(run.out.empty()) << run.out;
  std::ifstream in(output);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::vector<json> answers = parseLines(text);
  ASSERT_EQ(answers.size(), 2u) << text;
  EXPECT_EQ(answers[0].at("line"), 1);
  EXPECT_NEAR(answers[0].at("distance").get<double>(), 1.5, kTol);
  EXPECT_FALSE(answers[0].contains("id"));
  EXPECT_EQ(answers[1].at("line"), 3);
  // The apple's top is at z = 0.071496 in its file frame, moved 3 m down; the box's bottom is at
  // -1.
  EXPECT_NEAR(answers[1].at("distance").get<double>(), 3.0 - 0.071496 - 1.0, kTol);
}

// A hostile line is an error object for that line; the run goes on.
TEST_F(QueryCliFiles, DeepNestingInvalidUtf8AndNulAreErrorLines) {
  const std::string problem =
      "\"a\": {\"type\": \"sphere\", \"radius\": 1}, \"b\": {\"type\": \"sphere\", "
      "\"radius\": 1}, \"pose_b\": {\"p\": [3, 0, 0]}}";
  const int deep = 100000;
  const std::string nested = std::string(deep, '[') + std::string(deep, ']');
  const std::string input = write(
      "in.jsonl", "{\"id\": " + nested + ", " + problem + "\n" +      // line 1
                      "{\"id\": \"caf\xC3\", " + problem + "\n" +     // 2: truncated UTF-8
                      "{\"id\": \"[{ \\\" ok\", " + problem + "\n" +  // 3: brackets in a string
                      "{\"id\": [[[[1]]]], " + problem + "\n" +       // 4
                      "{\"a\": {\"type\": \"mesh\", \"path\": \"assets/ycb/013_apple/"
                      "textured.obj\\u0000.txt\"}, \"b\": {\"type\": \"sphere\", "
                      "\"radius\": 1}}\n");  // 5: a NUL would cut the path short
  const CliRun run = hb::test::runCliInSource("query --input '" + input + "'");
  EXPECT_EQ(run.exitCode, 1);
  const std::vector<json> answers = parseLines(run.out);
  ASSERT_EQ(answers.size(), 5u) << run.out.substr(0, 2000);
  EXPECT_NE(answers[0].value("error", "").find("nested deeper than 64"), std::string::npos)
      << answers[0];
  EXPECT_NE(answers[1].value("error", "").find("invalid JSON"), std::string::npos) << answers[1];
  for (int i : {2, 3}) {
    EXPECT_FALSE(answers[i].contains("error")) << answers[i];
    EXPECT_NEAR(answers[i].value("distance", 0.0), 1.0, kTol) << answers[i];
  }
  EXPECT_EQ(answers[2].at("id"), "[{ \" ok");
  EXPECT_EQ(answers[3].at("id"), json::parse("[[[[1]]]]"));
  EXPECT_NE(answers[4].value("error", "").find("a.path: contains a NUL character"),
            std::string::npos)
      << answers[4];
}

// Finite values beyond heavyball's ranges (docs/query.md) are error lines, not answers built on
// overflowed squares: a distance of null labelled separated, overlapping boxes called apart.
TEST_F(QueryCliFiles, ValuesOutsideTheSupportedRangesAreErrorLines) {
  const std::string sphere = "{\"type\": \"sphere\", \"radius\": 1}";
  const std::string input = write(
      "in.jsonl",
      "{\"a\": " + sphere + ", \"b\": " + sphere + ", \"pose_b\": {\"p\": [1e154, 0, 0]}}\n" +
          "{\"a\": {\"type\": \"box\", \"half_extents\": [1e13, 1e13, 1e13]}, \"b\": " + sphere +
          "}\n" + "{\"a\": " + sphere + ", \"b\": " + sphere +
          ", \"pose_b\": {\"p\": [3, 0, 0]}, \"tolerance\": 1}\n");
  const CliRun run = hb::test::runCliInSource("query --input '" + input + "'");
  EXPECT_EQ(run.exitCode, 1);
  const std::vector<json> answers = parseLines(run.out);
  ASSERT_EQ(answers.size(), 3u) << run.out;
  EXPECT_NE(answers[0].value("error", "").find("pose_b.p: expected coordinates within 1e+06 m"),
            std::string::npos)
      << answers[0];
  EXPECT_NE(answers[1].value("error", "").find("a.half_extents: expected a length in"),
            std::string::npos)
      << answers[1];
  EXPECT_NE(answers[2].value("error", "").find("tolerance: expected at most 1e-4"),
            std::string::npos)
      << answers[2];
}

// Collision translations: a hit with the touching configuration, a miss with its plane, an
// overlap, and the refused values.
TEST_F(QueryCliFiles, TranslationsAnswerHowFarAMayMove) {
  const std::string pair =
      "\"a\": {\"type\": \"box\", \"half_extents\": [0.1, 0.1, 0.1]}, \"b\": {\"type\": "
      "\"sphere\", \"radius\": 0.05}";
  const std::string input = write(
      "in.jsonl",
      "{" + pair + ", \"pose_b\": {\"p\": [1, 0, 0]}, \"translation\": [2, 0, 0]}\n" + "{" + pair +
          ", \"pose_b\": {\"p\": [1, 0, 0]}, \"translation\": [0, 0, 1]}\n" + "{" + pair +
          ", \"pose_b\": {\"p\": [0.1, 0, 0]}, \"translation\": [0, 1, 0]}\n" + "{" + pair +
          ", \"translation\": [0, 0, 0]}\n" + "{" + pair +
          ", \"translation\": [1, 0, 0], \"cast_method\": \"cta\"}\n" + "{" + pair +
          ", \"translation\": [1, 0, 0], \"cast_method\": \"lp\"}\n" +
          "{\"a\": {\"type\": \"box\", \"half_extents\": [0.1, 0.1, 0.1]}, \"b\": "
          "{\"type\": \"box\", \"half_extents\": [0.05, 0.05, 0.05]}, \"pose_b\": "
          "{\"p\": [1, 0, 0]}, \"translation\": [2, 0, 0], \"cast_method\": \"cta\"}\n" +
          "{" + pair + ", \"pose_b\": {\"p\": [1, 0, 0]}, \"translation\": [1e155, 0, 0]}\n" + "{" +
          pair + ", \"pose_b\": {\"p\": [1, 0, 0]}, \"translation\": [2e-162, 0, 0]}\n");
  const CliRun run = hb::test::runCliInSource("query --input '" + input + "'");
  EXPECT_EQ(run.exitCode, 1);
  const std::vector<json> answers = parseLines(run.out);
  ASSERT_EQ(answers.size(), 9u) << run.out;
  // Directions whose squared norm overflows or is denormal: the same answer as [2, 0, 0].
  for (const int i : {7, 8}) {
    EXPECT_EQ(answers[i].at("translation_distance"), answers[0].at("translation_distance"))
        << answers[i];
    EXPECT_EQ(answers[i].at("witness_a"), answers[0].at("witness_a")) << answers[i];
  }
  EXPECT_NEAR(answers[0].at("translation_distance").get<double>(), 0.85, 1e-6) << answers[0];
  EXPECT_EQ(answers[0].at("cast_status"), "hit");
  EXPECT_NEAR(answers[0].at("normal")[0].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR(answers[0].at("witness_a")[0].get<double>(), 0.95, 1e-6);
  EXPECT_NEAR(answers[0].at("witness_b")[0].get<double>(), 0.95, 1e-6);
  // The miss: the box's sweep upwards above the plane, the ball below it.
  EXPECT_TRUE(answers[1].at("translation_distance").is_null()) << answers[1];
  const json& plane = answers[1].at("separating_plane");
  const Eigen::Vector3d n(plane["normal"][0], plane["normal"][1], plane["normal"][2]);
  const double offset = plane["offset"];
  EXPECT_GE(n.z(), 0.0);
  for (const double x : {-0.1, 0.1}) {
    for (const double y : {-0.1, 0.1}) {
      for (const double z : {-0.1, 0.1, 1000.1}) EXPECT_GT(n.dot(Eigen::Vector3d(x, y, z)), offset);
    }
  }
  EXPECT_LT(n.dot(Eigen::Vector3d(1, 0, 0)) + 0.05, offset);
  EXPECT_EQ(answers[2].at("translation_distance"), 0.0) << answers[2];
  EXPECT_NE(answers[3].value("error", "").find("translation: expected a non-zero direction"),
            std::string::npos)
      << answers[3];
  EXPECT_NE(answers[4].value("error", "").find("\"cta\" works on polyhedra"), std::string::npos)
      << answers[4];
  EXPECT_NE(answers[5].value("error", "").find("cast_method: expected \"gjk\""), std::string::npos)
      << answers[5];
  // CTA on two boxes: the gap, exactly.
  EXPECT_NEAR(answers[6].at("translation_distance").get<double>(), 0.85, 1e-9) << answers[6];
  EXPECT_EQ(answers[6].at("cast_status"), "hit");
}

TEST_F(QueryCliFiles, MissingInputFileExitsTwo) {
  const CliRun run =
      hb::test::runCliInSource("query --input '" + (dir_ / "absent.jsonl").string() + "'");
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST_F(QueryCliFiles, AnOutputThatCannotBeWrittenIsARuntimeError) {
  // Exit 1, as simulate --record and study --csv do: the command line was right.
  const std::string input = write("in.jsonl",
                                  "{\"a\": {\"type\": \"sphere\", \"radius\": 1}, "
                                  "\"b\": {\"type\": \"sphere\", \"radius\": 1}}\n");
  const CliRun run =
      hb::test::runCliInSource("query --input '" + input + "' -o '" +
                                   (dir_ / "no-such-folder" / "answers.jsonl").string() + "'",
                               true);
  EXPECT_EQ(run.exitCode, 1) << run.out;
  EXPECT_NE(run.out.find("cannot open output file"), std::string::npos) << run.out;
}

TEST_F(QueryCliFiles, TheInputIsNeverItsOwnOutput) {
  const std::string problem =
      "{\"a\": {\"type\": \"sphere\", \"radius\": 1}, \"b\": {\"type\": \"sphere\", "
      "\"radius\": 1}, \"pose_b\": {\"p\": [3, 0, 0]}}\n";
  const std::string input = write("in.jsonl", problem);
  fs::create_symlink(input, dir_ / "link.jsonl");
  for (const std::string& output : {input, (dir_ / "link.jsonl").string()}) {
    const CliRun run =
        hb::test::runCliInSource("query --input '" + input + "' -o '" + output + "'", true);
    EXPECT_EQ(run.exitCode, 2) << output;
    EXPECT_NE(run.out.find("is the input file"), std::string::npos) << run.out;
    std::ifstream in(input);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), problem);  // left intact
  }
}

TEST_F(QueryCliFiles, DevicesAndFifosAreRefusedNotReadForever) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  for (const std::string& input : {std::string("/dev/zero"), (dir_ / "fifo").string()}) {
    const CliRun run = hb::test::runCliInSource("query --input '" + input + "'", true);
    EXPECT_EQ(run.exitCode, 2) << input;
    EXPECT_NE(run.out.find("not a regular file"), std::string::npos) << run.out;
  }
}

TEST_F(QueryCliFiles, DuplicateKeysAndOverlongLinesAreErrorLines) {
  const std::string sphere = "{\"type\": \"sphere\", \"radius\": 1}";
  const std::string input =
      write("in.jsonl",
            "{\"a\": " + sphere + ", \"b\": " + sphere + ", \"b\": " + sphere + "}\n" +
                "{\"a\": {\"type\": \"sphere\", \"radius\": 1, \"radius\": 2}, \"b\": " + sphere +
                "}\n" + "{\"id\": \"" + std::string(hb::kMaxInputLineBytes, 'x') + "\"}\n" +
                "{\"a\": " + sphere + ", \"b\": " + sphere + ", \"pose_b\": {\"p\": [3, 0, 0]}}\n");
  const CliRun run = hb::test::runCliInSource("query --input '" + input + "'");
  EXPECT_EQ(run.exitCode, 1);
  const std::vector<json> answers = parseLines(run.out);
  ASSERT_EQ(answers.size(), 4u);
  EXPECT_NE(answers[0].value("error", "").find("b: duplicate key"), std::string::npos)
      << answers[0];
  EXPECT_NE(answers[1].value("error", "").find("a.radius: duplicate key"), std::string::npos)
      << answers[1];
  EXPECT_EQ(answers[2].at("line"), 3);
  EXPECT_NE(answers[2].value("error", "").find("line longer than 64 MiB"), std::string::npos);
  EXPECT_NEAR(answers[3].value("distance", 0.0), 1.0, kTol) << answers[3];
}

TEST_F(QueryCliFiles, AReaderThatStopsEarlyEndsTheRunQuietly) {
  std::string lines;
  for (int i = 0; i < 20000; ++i) {
    lines +=
        "{\"a\": {\"type\": \"sphere\", \"radius\": 1}, \"b\": {\"type\": \"sphere\", "
        "\"radius\": 1}, \"pose_b\": {\"p\": [3, 0, 0]}}\n";
  }
  const std::string input = write("in.jsonl", lines);
  // Killed by SIGPIPE, the shell would see 141.
  const std::string query = hb::test::heavyball("query --input '" + input + "'");
  const CliRun run =
      hb::test::runCommand("{ { " + query + "; echo $? >&3; } | head -c 10 > /dev/null; } 3>&1");
  EXPECT_EQ(run.out, "0\n");
}

TEST(QueryCli, HelpDescribesFormatAndExitStatus) {
  const CliRun run = hb::test::runCliInSource("query --help");
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_NE(run.out.find("--input"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Exit status"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("half_extents"), std::string::npos) << run.out;
}

}  // namespace
