// The warm-start study (GJK++ Sec. IV-E) on a short recorded funnel run: one result per problem
// and combination, verdicts that agree with each other and with the run, fallbacks exactly where
// a pair has no previous step, warm starts checked against values computed independently from
// the recorded poses and the previous step's answers, and the summary's statistics.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "collision/defaults.hpp"
#include "engine/recording/recorder.hpp"
#include "engine/recording/recording_reader.hpp"
#include "engine/recording/warm_start_study.hpp"
#include "engine/recording/warm_start_study_summary.hpp"
#include "engine/world.hpp"
#include "tests/engine/funnel_pair_test_scene.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;
using Eigen::Vector3d;

constexpr int kCombinations = 12;

/// Two YCB objects dropped into the funnel, with a sphere and a capsule (inflated shapes) beside
/// them; recorded with the OBB warm start, as the shipped scene runs.
fs::path recordFunnel(const fs::path& file, int steps) {
  SceneDescription scene = hb::test::funnelPairWithInflatedShapes();
  World world(scene);
  Recorder recorder(file, world, {});
  world.addObserver([&](const World& w) { recorder.record(w); });
  for (int i = 0; i < steps; ++i) world.step();
  recorder.close();
  return file;
}

class WarmStartStudyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() /
                        ("heavyball-test-study-" + std::to_string(::getpid())));
    fs::create_directories(*dir_);
    // 1 s at 120 Hz: the objects come to rest, so deep overlaps are many whatever the rounding
    // of the build (half a second gave 1 to 14 of them, depending on a last bit).
    file_ = new fs::path(recordFunnel(*dir_ / "funnel.h5", 120));
    problems_ = new std::vector<StudyProblem>;
    const RecordingReader reader(*file_);
    timerCalls_ = 0;
    studyRecording(
        reader, {}, [](const StudySolve&) { return static_cast<double>(++timerCalls_); },
        [](const StudyProblem& p) { problems_->push_back(p); });
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete problems_;
    delete file_;
    delete dir_;
  }

  static fs::path* dir_;
  static fs::path* file_;
  static std::vector<StudyProblem>* problems_;
  static long timerCalls_;
};

fs::path* WarmStartStudyTest::dir_ = nullptr;
fs::path* WarmStartStudyTest::file_ = nullptr;
std::vector<StudyProblem>* WarmStartStudyTest::problems_ = nullptr;
long WarmStartStudyTest::timerCalls_ = 0;

using PairKey = std::pair<int, int>;

/// The problems of each narrow phase (a step's, or a substep's), in order, by pair; the previous
/// one of the first substep of a step is the last of the step before.
std::vector<std::map<PairKey, RecordedProblem>> problemsPerRound(const RecordingReader& reader) {
  std::vector<std::map<PairKey, RecordedProblem>> rounds;
  long step = -1;
  int substep = -1;
  for (long i = 0; i < reader.stepCount(); ++i) {
    for (const RecordedProblem& p : reader.problemsOfStep(i)) {
      if (p.step != step || p.substep != substep) {
        EXPECT_TRUE(p.step > step || p.substep > substep) << "rounds out of order";
        rounds.emplace_back();
        step = p.step;
        substep = p.substep;
      }
      rounds.back()[{p.proxyA, p.proxyB}] = p;
    }
  }
  return rounds;
}

TEST_F(WarmStartStudyTest, OneResultPerProblemAndCombination) {
  const RecordingReader reader(*file_);
  ASSERT_GT(reader.problemCount(), 100);
  ASSERT_EQ(static_cast<long>(problems_->size()), reader.problemCount());
  EXPECT_EQ(timerCalls_, kCombinations * reader.problemCount());  // one timing per result
  const std::vector<RecordedProblem> recorded = reader.problems(0, reader.problemCount());
  const WarmStartStudyOptions defaults;
  for (std::size_t k = 0; k < problems_->size(); ++k) {
    const StudyProblem& p = (*problems_)[k];
    EXPECT_EQ(p.index, static_cast<long>(k));
    EXPECT_EQ(p.step, recorded[k].step);
    EXPECT_EQ(p.bodyA, recorded[k].bodyA);
    EXPECT_EQ(p.bodyB, recorded[k].bodyB);
    ASSERT_EQ(p.results.size(), static_cast<std::size_t>(kCombinations));
    std::set<std::pair<GjkVariant, WarmStart>> seen;
    for (std::size_t c = 0; c < p.results.size(); ++c) {
      const StudyResult& r = p.results[c];
      // Variants outer, warm starts inner.
      EXPECT_EQ(r.variant, defaults.variants[c / 4]);
      EXPECT_EQ(r.warmStart, defaults.warmStarts[c % 4]);
      seen.insert({r.variant, r.warmStart});
      EXPECT_GT(r.iterations, 0);
      EXPECT_GT(r.timeUs, 0.0);  // the timer's answer is reported
    }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(kCombinations));
  }
}

TEST_F(WarmStartStudyTest, MaxProblemsStopsEarly) {
  const RecordingReader reader(*file_);
  WarmStartStudyOptions options;
  options.maxProblems = 7;
  options.variants = {GjkVariant::Nesterov};
  options.warmStarts = {WarmStart::ObbCenters, WarmStart::PreviousSolution};
  std::vector<StudyProblem> seen;
  const long n = studyRecording(
      reader, options, [](const StudySolve&) { return 0.0; },
      [&](const StudyProblem& p) { seen.push_back(p); });
  EXPECT_EQ(n, 7);
  ASSERT_EQ(seen.size(), 7u);
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].index, static_cast<long>(k));
    ASSERT_EQ(seen[k].results.size(), 2u);
    // The same answers as in the full study.
    for (std::size_t c = 0; c < 2; ++c) {
      const StudyResult& full = (*problems_)[k].results[8 + 1 + c];
      EXPECT_EQ(seen[k].results[c].warmStart, full.warmStart);
      EXPECT_EQ(seen[k].results[c].collide, full.collide);
      EXPECT_EQ(seen[k].results[c].iterations, full.iterations);
    }
  }
}

TEST_F(WarmStartStudyTest, VerdictsAgreeWithEachOtherAndWithTheRun) {
  // The run's answer (a distance query, EPA for depths) is the independent reference. Where it
  // is clear-cut the verdict is certain: deeper than EPA's tolerance, every Boolean check must
  // find the collision; further apart than 2 eps_col, none may (|x_k|^2 <= d^2 + eps at
  // convergence). In between, Alg. 2 may go either way.
  long overlapping = 0, apart = 0, nearTouching = 0, nearDisagreements = 0;
  for (const StudyProblem& p : *problems_) {
    EXPECT_NEAR(p.collisionTolerance, 1e-4, 1e-12);  // sqrt of the default 1e-8
    ASSERT_TRUE(p.exactInputs);
    for (const StudyResult& r : p.results) {
      EXPECT_TRUE(r.status == GjkStatus::Separated || r.status == GjkStatus::Intersecting)
          << "problem " << p.index << " " << toString(r.variant) << "/" << toString(r.warmStart);
    }
    const bool deep = p.recordedDistance < -defaults::kEpaTolerance;
    const bool far = p.recordedDistance > kNearTouchingBand * p.collisionTolerance;
    if (deep || far) {
      EXPECT_EQ(p.recordedCollide, deep) << "problem " << p.index;
      for (const StudyResult& r : p.results) {
        EXPECT_EQ(r.collide, deep) << "problem " << p.index << " " << toString(r.variant) << "/"
                                   << toString(r.warmStart) << " distance " << p.recordedDistance;
      }
      (deep ? overlapping : apart)++;
    } else {
      ++nearTouching;
      const auto collides = [](const StudyResult& r) { return r.collide; };
      const long n = std::count_if(p.results.begin(), p.results.end(), collides);
      nearDisagreements += n != 0 && n != kCombinations ? 1 : 0;
    }
  }
  // Both verdicts are covered in earnest, and resting contacts (near touching) too; on those
  // the combinations still agree almost always.
  EXPECT_GE(overlapping, 5);
  EXPECT_GT(apart, 100);
  EXPECT_GT(nearTouching, 20);
  EXPECT_LE(nearDisagreements, static_cast<long>(problems_->size()) / 50);

  WarmStartStudySummary summary;
  for (const StudyProblem& p : *problems_) summary.add(p);
  EXPECT_EQ(summary.agreement().problems, static_cast<long>(problems_->size()));
  EXPECT_EQ(summary.agreement().disagreements, nearDisagreements);
  EXPECT_EQ(summary.agreement().disagreements, summary.agreement().nearTouchingDisagreements);
  EXPECT_EQ(summary.agreement().recordedMismatches,
            summary.agreement().nearTouchingRecordedMismatches);
}

TEST_F(WarmStartStudyTest, FallbacksOnlyWhereAPairHasNoPreviousStep) {
  const RecordingReader reader(*file_);
  const std::vector<std::map<PairKey, RecordedProblem>> rounds = problemsPerRound(reader);
  const std::vector<RecordedProblem> recorded = reader.problems(0, reader.problemCount());
  // The study's problems in the recording's order, so round by round.
  std::size_t round = 0;
  long firstAppearances = 0, continued = 0;
  for (const StudyProblem& p : *problems_) {
    const RecordedProblem& r = recorded[p.index];
    while (!rounds[round].contains({r.proxyA, r.proxyB}) ||
           rounds[round].at({r.proxyA, r.proxyB}).step != r.step ||
           rounds[round].at({r.proxyA, r.proxyB}).substep != r.substep) {
      ++round;
      ASSERT_LT(round, rounds.size());
    }
    // The recording starts at step 0: the first round has no previous one.
    const bool inPreviousStep = round > 0 && rounds[round - 1].contains({r.proxyA, r.proxyB});
    (inPreviousStep ? continued : firstAppearances)++;
    // A pair whose kept manifold answered in the round before (no problem in the file) keeps
    // its last query's solution: no fallback either, once it was ever queried.
    bool queriedBefore = false;
    for (std::size_t earlier = 0; earlier < round && !queriedBefore; ++earlier) {
      queriedBefore = rounds[earlier].contains({r.proxyA, r.proxyB});
    }
    for (const StudyResult& s : p.results) {
      const bool usesPrevious = s.warmStart == WarmStart::PreviousSolution ||
                                s.warmStart == WarmStart::TransformedPrevious;
      const auto where = [&] {
        return "problem " + std::to_string(p.index) + " step " + std::to_string(p.step) + " " +
               std::string(toString(s.warmStart));
      };
      if (!usesPrevious || inPreviousStep) {
        EXPECT_FALSE(s.fallback) << where();
      }
      if (usesPrevious && !queriedBefore) {
        EXPECT_TRUE(s.fallback) << where();
      }
    }
  }
  EXPECT_GT(firstAppearances, 0);
  EXPECT_GT(continued, 100);
}

TEST_F(WarmStartStudyTest, WarmStartsFollowFromThePreviousStep) {
  // Independent path: the previous narrow phase's answer (world witnesses) and the pieces'
  // motion since, from the poses the two problems were posed at; where both are first substeps
  // of their steps, those poses are the bodies' recorded states composed with the proxies'
  // frames, which is checked too.
  const RecordingReader reader(*file_);
  const std::vector<RecordedProxy>& proxies = reader.proxies();
  const std::vector<std::map<PairKey, RecordedProblem>> rounds = problemsPerRound(reader);
  long checked = 0, fromStates = 0;
  for (std::size_t i = 1; i < rounds.size(); ++i) {
    for (const auto& [pair, p] : rounds[i]) {
      const auto it = rounds[i - 1].find(pair);
      if (it == rounds[i - 1].end()) continue;
      const RecordedProblem& q = it->second;
      if (p.substep == 0 && q.substep == 0) {
        const auto proxyPose = [&](long step, int proxy) {
          return reader.states(step)[proxies[proxy].body].pose * proxies[proxy].inBody;
        };
        const auto near = [](const Pose& a, const Pose& b) {
          return (a.p - b.p).norm() < 1e-12 && a.q.angularDistance(b.q) < 1e-12;
        };
        EXPECT_TRUE(near(proxyPose(p.step, p.proxyA), p.poseA));
        EXPECT_TRUE(near(proxyPose(q.step, q.proxyB), q.poseB));
        ++fromStates;
      }
      const Pose motionA = p.poseA * q.poseA.inverse();
      const Pose motionB = p.poseB * q.poseB.inverse();
      const bool overlapping = q.result.distance < 0.0;
      // x^{t-1}: wA - wB when apart, its opposite when overlapping (it points from B to A);
      // touching at exactly zero distance, the direction -normal. A query stopped by its
      // separation bound has a lower bound for its distance, not |wA - wB|: -distance * normal.
      const bool stoppedByBound = q.result.distance > q.separationBound;
      const Vector3d previousX = q.result.distance == 0.0 ? Vector3d(-q.result.normal)
                                 : stoppedByBound
                                     ? Vector3d(-q.result.distance * q.result.normal)
                                     : Vector3d((overlapping ? -1.0 : 1.0) * q.separation());
      Vector3d transformedX = motionA.apply(q.result.witnessA) - motionB.apply(q.result.witnessB);
      if (overlapping) transformedX = -transformedX;
      if (transformedX.norm() < 1e-12) continue;  // coinciding witnesses carry no direction

      const StudyGuess prev = studyInitialGuess(WarmStart::PreviousSolution, p);
      const StudyGuess transformed = studyInitialGuess(WarmStart::TransformedPrevious, p);
      EXPECT_FALSE(prev.fallback);
      EXPECT_FALSE(transformed.fallback);
      EXPECT_LT((prev.x0 - previousX).norm(), 1e-9) << "round " << i;
      EXPECT_LT((transformed.x0 - transformedX).norm(), 1e-12) << "round " << i;
      EXPECT_EQ(studyInitialGuess(WarmStart::ObbCenters, p).x0, p.obbCenterA - p.obbCenterB);
      EXPECT_EQ(studyInitialGuess(WarmStart::None, p).x0, Vector3d::UnitX());
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(fromStates, 50);
}

TEST(WarmStartStudy, TransformedGuessOnAHandMadeCase) {
  // A turned a quarter turn about z and moved to (1, 0, 0); B moved up to z = 0.5. The previous
  // witnesses, (0.1, 0, 0) on A and (-0.1, 0, 0) on B in their frames, are now at (1, 0.1, 0)
  // and (-0.1, 0, 0.5): x0 = wA - wB = (1.1, 0.1, -0.5).
  RecordedProblem p;
  p.poseA = {Eigen::Quaterniond(Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitZ())), {1, 0, 0}};
  p.poseB = Pose::translation({0, 0, 0.5});
  p.obbCenterA = {3, 2, 1};
  p.obbCenterB = {1, 1, 1};
  PreviousSolution previous;
  previous.separation = {0.2, 0, 0};
  previous.witnessALocal = {0.1, 0, 0};
  previous.witnessBLocal = {-0.1, 0, 0};
  p.previous = previous;

  StudyGuess g = studyInitialGuess(WarmStart::TransformedPrevious, p);
  EXPECT_LT((g.x0 - Vector3d(1.1, 0.1, -0.5)).norm(), 1e-15);
  EXPECT_FALSE(g.fallback);
  EXPECT_EQ(studyInitialGuess(WarmStart::PreviousSolution, p).x0, Vector3d(0.2, 0, 0));
  EXPECT_EQ(studyInitialGuess(WarmStart::ObbCenters, p).x0, Vector3d(2, 1, 0));
  EXPECT_EQ(studyInitialGuess(WarmStart::None, p).x0, Vector3d(1, 0, 0));

  // Overlapping then: the guess points the other way (from B towards A along the normal).
  p.previous->overlapping = true;
  g = studyInitialGuess(WarmStart::TransformedPrevious, p);
  EXPECT_LT((g.x0 - Vector3d(-1.1, -0.1, 0.5)).norm(), 1e-15);

  // No previous step: both fall back to the OBB centres, and say so.
  p.previous.reset();
  for (const WarmStart w : {WarmStart::PreviousSolution, WarmStart::TransformedPrevious}) {
    g = studyInitialGuess(w, p);
    EXPECT_EQ(g.x0, Vector3d(2, 1, 0));
    EXPECT_TRUE(g.fallback);
  }
  EXPECT_FALSE(studyInitialGuess(WarmStart::ObbCenters, p).fallback);
  EXPECT_FALSE(studyInitialGuess(WarmStart::None, p).fallback);
}

TEST(WarmStartStudy, OptionsAreTheRecordedOnesInBooleanMode) {
  GjkOptions recorded;
  recorded.variant = GjkVariant::Auto;
  recorded.tolerance = 1e-6;
  recorded.maxIterations = 50;
  const GjkOptions o = studyGjkOptions(recorded, GjkVariant::Polyak);
  EXPECT_EQ(o.variant, GjkVariant::Polyak);
  EXPECT_EQ(o.mode, GjkMode::Boolean);
  EXPECT_EQ(o.tolerance, 1e-6);
  EXPECT_EQ(o.maxIterations, 50);
}

TEST(WarmStartStudySummary, QuantilesInterpolateBetweenRanks) {
  // numpy.quantile([1, 2, 3, 4], [0.25, 0.5, 0.75]) = [1.75, 2.5, 3.25].
  const std::vector<double> four = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(sortedQuantile(four, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(sortedQuantile(four, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(sortedQuantile(four, 0.75), 3.25);
  EXPECT_DOUBLE_EQ(sortedQuantile(four, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(sortedQuantile(four, 1.0), 4.0);
  EXPECT_DOUBLE_EQ(sortedQuantile({7.0}, 0.3), 7.0);
  EXPECT_EQ(sortedQuantile({}, 0.5), 0.0);
  // Odd counts: the median is the middle element (brute force by nth_element).
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.0, 10.0);
  for (int n = 1; n < 60; n += 2) {
    std::vector<double> v(n);
    for (double& x : v) x = u(rng);
    std::vector<double> middle = v;
    std::nth_element(middle.begin(), middle.begin() + n / 2, middle.end());
    std::sort(v.begin(), v.end());
    EXPECT_EQ(sortedQuantile(v, 0.5), middle[n / 2]);
  }
}

StudyProblem syntheticProblem(long index, double recordedDistance, std::vector<bool> verdicts,
                              std::vector<double> times) {
  StudyProblem p;
  p.index = index;
  p.recordedDistance = recordedDistance;
  p.recordedCollide = recordedDistance <= 1e-4;
  p.collisionTolerance = 1e-4;
  const WarmStart starts[] = {WarmStart::None, WarmStart::PreviousSolution};
  for (std::size_t c = 0; c < verdicts.size(); ++c) {
    StudyResult r;
    r.variant = GjkVariant::Nesterov;
    r.warmStart = starts[c];
    r.collide = verdicts[c];
    r.iterations = static_cast<int>(c) + 1 + static_cast<int>(index);
    r.status = GjkStatus::Separated;
    r.fallback = c == 1 && index == 0;
    r.timeUs = times[c];
    p.results.push_back(r);
  }
  return p;
}

TEST(WarmStartStudySummary, CombinationsAndAgreement) {
  WarmStartStudySummary summary;
  summary.add(syntheticProblem(0, 0.01, {false, false}, {4.0, 1.0}));   // agree
  summary.add(syntheticProblem(1, 1.5e-4, {true, false}, {1.0, 2.0}));  // near touching
  summary.add(syntheticProblem(2, -0.003, {true, false}, {3.0, 3.0}));  // a real disagreement
  summary.add(syntheticProblem(3, -0.002, {true, true}, {2.0, 5.0}));   // agree
  const std::vector<CombinationSummary> c = summary.combinations();
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].warmStart, WarmStart::None);
  EXPECT_EQ(c[1].warmStart, WarmStart::PreviousSolution);
  EXPECT_EQ(c[0].problems, 4);
  // Times {1, 2, 3, 4} and {1, 2, 3, 5}.
  EXPECT_DOUBLE_EQ(c[0].medianUs, 2.5);
  EXPECT_DOUBLE_EQ(c[0].firstQuartileUs, 1.75);
  EXPECT_DOUBLE_EQ(c[0].thirdQuartileUs, 3.25);
  EXPECT_DOUBLE_EQ(c[1].thirdQuartileUs, 3.5);
  EXPECT_DOUBLE_EQ(c[0].meanIterations, (1 + 2 + 3 + 4) / 4.0);
  EXPECT_DOUBLE_EQ(c[1].meanIterations, (2 + 3 + 4 + 5) / 4.0);
  EXPECT_EQ(c[0].fallbacks, 0);
  EXPECT_EQ(c[1].fallbacks, 1);
  const VerdictAgreement& a = summary.agreement();
  EXPECT_EQ(a.problems, 4);
  EXPECT_EQ(a.disagreements, 2);
  EXPECT_EQ(a.nearTouchingDisagreements, 1);
  // Recorded verdicts: 0 apart (both match), 1 apart by 1.5e-4 (first differs), 2 and 3
  // overlapping (the second differs in problem 2).
  EXPECT_EQ(a.recordedMismatches, 2);
  EXPECT_EQ(a.nearTouchingRecordedMismatches, 1);

  EXPECT_THROW(summary.add(syntheticProblem(4, 0.01, {false}, {1.0})), std::invalid_argument);
}

}  // namespace
}  // namespace hb
