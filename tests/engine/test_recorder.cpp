// Recordings end to end: a short funnel run recorded and read back bit for bit, its collision
// problems solved again from the file alone, a run cut short, and files that are not recordings.

#include <gtest/gtest.h>
#include <unistd.h>

#include <hdf5.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "collision/collide.hpp"
#include "collision/warm_start.hpp"
#include "engine/recording/recorder.hpp"
#include "engine/recording/recording_reader.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"
#include "tests/engine/funnel_pair_test_scene.hpp"
#include "tests/process_temp_dir.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;
using Eigen::Vector3d;

fs::path tempFile(const std::string& name) {
  return hb::test::processTempDir("heavyball-test-recorder-") / name;
}

bool samePose(const Pose& a, const Pose& b) {
  return a.p == b.p && a.q.coeffs() == b.q.coeffs();
}

/// The funnel-pair scene with two known assets, a sphere and a capsule, a spawner that drops its
/// third body mid-run, and the transformed-previous warm start (which uses every stored input);
/// boxes and hulls rounded, so that the rounded cores are stored and read back.
SceneDescription funnelScene() {
  SceneDescription scene = hb::test::funnelPairWithInflatedShapes();
  scene.solver.convexRadius = 0.002;
  scene.spawner->count = 3;
  scene.spawner->interval = 0.1;
  scene.solver.warmStart = WarmStart::TransformedPrevious;
  return scene;
}

/// What the world did, captured beside the recorder.
struct RecordedRun {
  std::vector<std::vector<RigidBody>> states;           // initial, then after each step
  std::vector<std::vector<Pose>> proxyPosesBefore;      // per step, before it ran
  std::vector<std::vector<NarrowPhaseRecord>> records;  // per step, its substeps in order
  std::vector<int> substeps;                            // per step
  long substeppedSteps = 0;
  long standIns = 0, keptPairs = 0;  // records a kept manifold answered; the steps' count of them
  std::vector<std::string> bodyNames;
};

RecordedRun recordRun(const SceneDescription& scene, const fs::path& file, int steps) {
  World world(scene);
  RecordingMetadata meta;
  meta.sceneJson = R"({"name": "funnel-pair"})";
  meta.seed = scene.spawner->seed;
  Recorder recorder(file, world, meta);
  world.addObserver([&](const World& w) { recorder.record(w); });
  RecordedRun run;
  run.states.push_back(world.rigidBodies());
  for (int i = 0; i < steps; ++i) {
    std::vector<Pose> poses;
    for (size_t p = 0; p < world.proxies().size(); ++p) poses.push_back(world.proxyPose(p));
    run.proxyPosesBefore.push_back(poses);
    world.step();
    run.states.push_back(world.rigidBodies());
    // The queries run; a pair whose kept manifold answered is not a problem to record.
    std::vector<NarrowPhaseRecord> records;
    for (const auto* round : {&world.earlierSubstepRecords(), &world.narrowPhaseRecords()}) {
      for (const NarrowPhaseRecord& r : *round) {
        if (r.queried) {
          records.push_back(r);
        } else {
          ++run.standIns;
        }
      }
    }
    // In the order of their substeps (islands that took different counts ran theirs in turn).
    std::stable_sort(records.begin(), records.end(),
                     [](const NarrowPhaseRecord& a, const NarrowPhaseRecord& b) {
                       return a.substep < b.substep;
                     });
    run.keptPairs += world.lastStep().keptPairs;
    run.records.push_back(std::move(records));
    run.substeps.push_back(world.lastStep().substeps);
    run.substeppedSteps += world.lastStep().substeps > 1 ? 1 : 0;
  }
  recorder.close();
  for (const WorldBody& b : world.bodies()) run.bodyNames.push_back(b.name);
  return run;
}

class RecorderTest : public ::testing::Test {
 protected:
  static constexpr int kSteps = 60;  // 0.5 s at 120 Hz

  static void SetUpTestSuite() {
    scene_ = new SceneDescription(funnelScene());
    file_ = new fs::path(tempFile("funnel.h5"));
    run_ = new RecordedRun(recordRun(*scene_, *file_, kSteps));
  }
  static void TearDownTestSuite() {
    fs::remove(*file_);
    delete run_;
    delete file_;
    delete scene_;
  }

  static SceneDescription* scene_;
  static fs::path* file_;
  static RecordedRun* run_;
};

SceneDescription* RecorderTest::scene_ = nullptr;
fs::path* RecorderTest::file_ = nullptr;
RecordedRun* RecorderTest::run_ = nullptr;

TEST_F(RecorderTest, MetadataShapesAndBodiesReadBack) {
  const RecordingReader reader(*file_);
  const RecordingInfo& info = reader.info();
  EXPECT_EQ(info.formatVersion, 10);
  EXPECT_EQ(info.heavyballVersion, HB_VERSION);
  EXPECT_EQ(info.sceneName, "funnel-pair");
  EXPECT_EQ(info.sceneJson, R"({"name": "funnel-pair"})");
  EXPECT_EQ(info.dt, scene_->dt);
  EXPECT_EQ(info.seed, scene_->spawner->seed);
  EXPECT_EQ(info.solver.gjkVariant, scene_->solver.gjkVariant);
  EXPECT_EQ(info.solver.warmStart, WarmStart::TransformedPrevious);
  EXPECT_EQ(info.solver.gjkTolerance, scene_->solver.gjkTolerance);
  EXPECT_EQ(info.solver.convexRadius, scene_->solver.convexRadius);
  EXPECT_EQ(info.solver.velocityIterations, scene_->solver.velocityIterations);
  EXPECT_EQ(info.solver.manifoldIterations, scene_->solver.manifoldIterations);
  EXPECT_EQ(info.solver.shockIterations, scene_->solver.shockIterations);
  EXPECT_EQ(info.solver.maxSubsteps, scene_->solver.maxSubsteps);
  EXPECT_EQ(info.solver.softSubsteps, scene_->solver.softSubsteps);
  EXPECT_EQ(info.solver.contactHertz, scene_->solver.contactHertz);
  EXPECT_EQ(info.solver.contactDampingRatio, scene_->solver.contactDampingRatio);

  // Static body, sphere, capsule, then the spawner's three drops (one of them mid-run).
  ASSERT_EQ(reader.bodies().size(), run_->bodyNames.size());
  ASSERT_EQ(reader.bodies().size(), 6u);
  for (size_t b = 0; b < reader.bodies().size(); ++b) {
    EXPECT_EQ(reader.bodies()[b].name, run_->bodyNames[b]);
    const RigidBody& r = run_->states.back()[b];
    EXPECT_EQ(reader.bodies()[b].isStatic, r.isStatic);
    if (!r.isStatic) {
      EXPECT_EQ(reader.bodies()[b].mass, 1.0 / r.inverseMass);
    }
  }
  EXPECT_EQ(reader.bodies()[0].firstStep, 0);
  EXPECT_GT(reader.bodies().back().firstStep, 0);  // dropped during the run

  const World reference(*scene_);  // proxies of the bodies present at the start
  ASSERT_GE(reader.proxies().size(), reference.proxies().size());
  int rounded = 0;
  for (size_t p = 0; p < reference.proxies().size(); ++p) {
    const Proxy& expected = reference.proxies()[p];
    const RecordedProxy& got = reader.proxies()[p];
    EXPECT_EQ(got.body, expected.body);
    EXPECT_EQ(got.shape.type(), expected.shape.type());
    EXPECT_TRUE(samePose(got.inBody, expected.inBody));
    EXPECT_EQ(got.localObb.axes, expected.localObb.axes);
    EXPECT_EQ(got.shape.convexRadius(), expected.shape.convexRadius());
    if (expected.shape.type() == ShapeType::ConvexHull) {
      // Rebuilt from the stored vertices with the same vertex order (hints stay valid), the
      // rounded core too: GJK sees the very polytope the world saw.
      EXPECT_EQ(got.shape.hull().vertices(), expected.shape.hull().vertices());
      EXPECT_EQ(got.shape.coreHull().vertices(), expected.shape.coreHull().vertices());
    } else {
      EXPECT_EQ(got.shape.radius(), expected.shape.radius());
      EXPECT_EQ(got.shape.halfExtents(), expected.shape.halfExtents());
      EXPECT_EQ(got.shape.coreHalfExtents(), expected.shape.coreHalfExtents());
    }
    const ShapeType type = expected.shape.type();
    if ((type == ShapeType::Box || type == ShapeType::ConvexHull) &&
        expected.shape.convexRadius() > 0.0) {
      ++rounded;
    }
  }
  EXPECT_GT(rounded, 10);  // the ground, the funnel's panels and the hulls
}

TEST_F(RecorderTest, StatesAreBitIdenticalToTheSimulation) {
  const RecordingReader reader(*file_);
  ASSERT_EQ(reader.stepCount(), kSteps + 1);
  for (long i = 0; i < reader.stepCount(); ++i) {
    const RecordedStep& row = reader.step(i);
    EXPECT_EQ(row.step, i);
    EXPECT_EQ(row.time, i * scene_->dt);
    const std::vector<RigidBody>& expected = run_->states[i];
    const std::vector<BodyState> states = reader.states(i);
    ASSERT_EQ(states.size(), expected.size()) << "step " << i;
    for (size_t b = 0; b < states.size(); ++b) {
      EXPECT_EQ(states[b].pose.p, expected[b].position) << "step " << i << " body " << b;
      EXPECT_EQ(states[b].pose.q.coeffs(), expected[b].orientation.coeffs());
      EXPECT_EQ(states[b].linearVelocity, expected[b].linearVelocity);
      EXPECT_EQ(states[b].angularVelocity, expected[b].angularVelocity);
      EXPECT_EQ(states[b].sleeping, expected[b].sleeping);
    }
  }
  EXPECT_EQ(reader.step(kSteps).problemCount, 0);  // the final state starts no step
}

TEST_F(RecorderTest, ProblemsMatchTheNarrowPhase) {
  const RecordingReader reader(*file_);
  EXPECT_EQ(run_->standIns, run_->keptPairs);
  long total = 0, exact = 0, beyondBound = 0;
  for (int i = 0; i < kSteps; ++i) {
    const std::vector<NarrowPhaseRecord>& records = run_->records[i];
    const std::vector<RecordedProblem> problems = reader.problemsOfStep(i);
    ASSERT_EQ(problems.size(), records.size()) << "step " << i;
    // The step's narrow-phase rounds, which its problems' substeps count.
    EXPECT_EQ(reader.step(i).substeps, run_->substeps[i]) << "step " << i;
    for (size_t k = 0; k < problems.size(); ++k) {
      const RecordedProblem& p = problems[k];
      const NarrowPhaseRecord& r = records[k];
      EXPECT_EQ(p.step, i);
      EXPECT_EQ(p.substep, r.substep);
      EXPECT_LT(p.substep, reader.step(i).substeps);
      EXPECT_EQ(p.proxyA, r.proxyA);
      EXPECT_EQ(p.proxyB, r.proxyB);
      EXPECT_EQ(p.initialGuess, r.initialGuess);
      ASSERT_EQ(p.previous.has_value(), r.previous.has_value());
      if (p.previous) {
        EXPECT_EQ(p.previous->separation, r.previous->separation);
        EXPECT_EQ(p.previous->witnessALocal, r.previous->witnessALocal);
        EXPECT_EQ(p.previous->overlapping, r.previous->overlapping);
      }
      EXPECT_EQ(p.result.collide, r.result.collide);
      EXPECT_EQ(p.result.distance, r.result.distance);
      EXPECT_EQ(p.result.normal, r.result.normal);
      EXPECT_EQ(p.separation(), r.result.witnessA - r.result.witnessB);
      EXPECT_EQ(p.result.gjkIterations, r.result.gjkIterations);
      EXPECT_EQ(p.result.gjkStatus, r.result.gjkStatus);
      EXPECT_EQ(p.result.epaStatus, r.result.epaStatus);
      // The pair's margin bounded its query: beyond it, the distance is a lower bound.
      EXPECT_EQ(p.separationBound, r.margin);
      if (p.result.distance > p.separationBound) ++beyondBound;
      EXPECT_TRUE(samePose(p.poseA, r.poseA));
      EXPECT_TRUE(samePose(p.poseB, r.poseB));
      // Poses are those the narrow phase used: in a step's first substep, the proxies' poses
      // before the step (a body dropped in this very step had none before it; its problem
      // stores the pose it was dropped at, which the narrow phase used as well).
      const auto& before = run_->proxyPosesBefore[i];
      const bool known = p.substep == 0 && p.proxyA < static_cast<int>(before.size()) &&
                         p.proxyB < static_cast<int>(before.size());
      EXPECT_TRUE(p.exactInputs);
      if (known) {
        EXPECT_TRUE(samePose(p.poseA, before[p.proxyA]));
        EXPECT_TRUE(samePose(p.poseB, before[p.proxyB]));
        ++exact;
      }
      ++total;
    }
  }
  EXPECT_EQ(reader.step(kSteps).substeps, 0);  // the final state: no step ran from it
  EXPECT_EQ(reader.problemCount(), total);
  EXPECT_GT(total, 100);
  EXPECT_GT(beyondBound, 0);
  EXPECT_GT(exact, total / 2);
  // The drops tumble on the funnel: some steps are split, and their substeps recorded.
  EXPECT_GT(run_->substeppedSteps, 0);
}

TEST_F(RecorderTest, ProblemsSolveAgainFromTheFileAlone) {
  const RecordingReader reader(*file_);
  long solved = 0, colliding = 0, withPrevious = 0;
  for (long i = 0; i + 1 < reader.stepCount(); ++i) {
    const RecordedStep& row = reader.step(i);
    for (const RecordedProblem& p : reader.problemsOfStep(i)) {
      if (!p.exactInputs) continue;
      const Shape& a = reader.proxies()[p.proxyA].shape;
      const Shape& b = reader.proxies()[p.proxyB].shape;
      // The warm start follows from the stored inputs: only the OBB centres enter it.
      Obb obbA, obbB;
      obbA.center = p.obbCenterA;
      obbB.center = p.obbCenterB;
      EXPECT_EQ(initialGuess(row.warmStart, obbA, obbB, p.poseA, p.poseB, p.previous),
                p.initialGuess);
      const CollisionResult r = collide(a, p.poseA, b, p.poseB, p.initialGuess,
                                        reader.collisionOptions(i, p), p.hints, &p.warmSimplex);
      EXPECT_NEAR(r.distance, p.result.distance, 1e-12) << "step " << i;
      EXPECT_EQ(r.gjkIterations, p.result.gjkIterations) << "step " << i;
      EXPECT_EQ(r.gjkStatus, p.result.gjkStatus);
      EXPECT_EQ(r.collide, p.result.collide);
      EXPECT_EQ(r.epaStatus, p.result.epaStatus);
      EXPECT_EQ(r.epaIterations, p.result.epaIterations);
      EXPECT_TRUE(r.normal.isApprox(p.result.normal, 1e-12) ||
                  (r.normal - p.result.normal).norm() < 1e-12);
      ++solved;
      if (p.result.collide) ++colliding;
      if (p.previous) ++withPrevious;
    }
  }
  EXPECT_GT(solved, 100);
  EXPECT_GT(colliding, 0);  // contacts and EPA are covered
  EXPECT_GT(withPrevious, 0);
}

TEST_F(RecorderTest, ForEachProblemVisitsEveryProblemInOrder) {
  const RecordingReader reader(*file_);
  long count = 0, lastStep = -1;
  reader.forEachProblem([&](const RecordedProblem& p) {
    EXPECT_GE(p.step, lastStep);
    lastStep = p.step;
    ++count;
  });
  EXPECT_EQ(count, reader.problemCount());
}

/// A grid of boxes resting on the ground: many bodies and problems per step, so the recorder
/// fills a chunk (and flushes) within a short run.
SceneDescription boxGrid(int side) {
  SceneDescription scene;
  scene.name = "box-grid";
  scene.assetDir = fs::path(HB_SOURCE_DIR) / "assets/ycb";
  scene.statics.push_back(StaticDescription{});
  for (int i = 0; i < side; ++i) {
    for (int j = 0; j < side; ++j) {
      BodyDescription box;
      box.shape.shape = Shape::box({0.05, 0.05, 0.05});
      box.pose.p = {0.2 * i, 0.2 * j, 0.05};
      scene.bodies.push_back(box);
    }
  }
  scene.solver.sleeping = false;
  return scene;
}

/// Solves every problem recorded with its exact inputs again from the file alone, expecting the
/// recorded distance and iterations; `visit` sees each. Returns how many were solved.
template <typename Visit>
long solveEveryProblemAgain(const RecordingReader& reader, Visit visit) {
  long solved = 0;
  for (long i = 0; i + 1 < reader.stepCount(); ++i) {
    for (const RecordedProblem& p : reader.problemsOfStep(i)) {
      if (!p.exactInputs) continue;
      const CollisionResult r =
          collide(reader.proxies()[p.proxyA].shape, p.poseA, reader.proxies()[p.proxyB].shape,
                  p.poseB, p.initialGuess, reader.collisionOptions(i, p), p.hints, &p.warmSimplex);
      EXPECT_EQ(r.distance, p.result.distance) << "step " << i;
      EXPECT_EQ(r.gjkIterations, p.result.gjkIterations) << "step " << i;
      visit(p);
      ++solved;
    }
  }
  return solved;
}

// The late momentum schedule is recorded, and problems solved again with it take the recorded
// iterations.
// Smooth shapes (format version 4): a superquadric's parameters and a prescribed support
// function's points (and profile) read back to the same support functions, and the smooth
// funnel's problems solve again from the file alone to the same answers.
TEST(Recorder, SmoothShapesReadBackAndTheirProblemsSolveAgain) {
  SceneDescription scene = loadScene(fs::path(HB_SOURCE_DIR) / "assets/scenes/funnel-smooth.json");
  scene.spawner->count = 16;
  scene.spawner->interval = 0.05;
  const fs::path file = tempFile("smooth.h5");
  World world(scene);
  RecordingMetadata meta;
  meta.seed = scene.spawner->seed;
  {
    Recorder recorder(file, world, meta);
    world.addObserver([&](const World& w) { recorder.record(w); });
    for (int i = 0; i < 150; ++i) world.step();
    recorder.close();
  }
  const RecordingReader reader(file);
  ASSERT_EQ(reader.proxies().size(), world.proxies().size());
  std::mt19937 rng(3);
  int smooth = 0;
  for (size_t i = 0; i < world.proxies().size(); ++i) {
    const Shape& recorded = reader.proxies()[i].shape;
    const Shape& original = world.proxies()[i].shape;
    ASSERT_EQ(recorded.type(), original.type()) << i;
    if (!original.isSmooth()) continue;
    ++smooth;
    EXPECT_EQ(recorded.convexRadius(), original.convexRadius());
    for (int k = 0; k < 20; ++k) {
      const Vector3d x = Vector3d::Random().normalized();
      EXPECT_EQ(recorded.smooth().evaluate(x).h, original.smooth().evaluate(x).h) << i;
    }
  }
  EXPECT_EQ(smooth, 16);
  EXPECT_GT(solveEveryProblemAgain(reader, [](const RecordedProblem&) {}), 100);
  fs::remove(file);
}

// Compound bodies (convex parts): every piece is a proxy of its body in the file, and the
// problems between pieces solve again from the file alone to the same answers.
TEST(Recorder, CompoundBodiesRecordEveryPieceAndTheirProblemsSolveAgain) {
  // A mug dropped into the bowl, both as parts.
  const SceneDescription scene = parseScene(R"({"name": "mug-in-bowl", "asset_dir": ")" +
                                                (fs::path(HB_SOURCE_DIR) / "assets/ycb").string() +
                                                R"(", "statics": [{"type": "ground"}],
        "bodies": [{"asset": "024_bowl", "collision": "parts", "pose": {"p": [0, 0, 0.001]}},
                   {"asset": "025_mug", "collision": "parts", "pose": {"p": [0.01, 0, 0.12]}}]})",
                                            ".");
  const fs::path file = tempFile("parts.h5");
  World world(scene);
  {
    Recorder recorder(file, world, {});
    world.addObserver([&](const World& w) { recorder.record(w); });
    for (int i = 0; i < 120; ++i) world.step();
    recorder.close();
  }
  const RecordingReader reader(file);
  ASSERT_EQ(reader.proxies().size(), world.proxies().size());
  for (size_t i = 0; i < world.proxies().size(); ++i) {
    EXPECT_EQ(reader.proxies()[i].body, world.proxies()[i].body) << i;
    EXPECT_EQ(reader.proxies()[i].shape.type(), world.proxies()[i].shape.type()) << i;
  }
  // The bowl (body 1) is one body of 80 pieces.
  EXPECT_EQ(reader.bodies()[1].asset, "024_bowl");
  EXPECT_EQ(world.bodies()[1].proxies.size(), 80u);
  long betweenPieces = 0;
  const long solved = solveEveryProblemAgain(reader, [&](const RecordedProblem& p) {
    const int a = reader.proxies()[p.proxyA].body, b = reader.proxies()[p.proxyB].body;
    if (a != 0 && world.bodies()[a].proxies.size() > 1 && world.bodies()[b].proxies.size() > 1) {
      ++betweenPieces;
    }
  });
  EXPECT_GT(solved, 1000);
  EXPECT_GT(betweenPieces, 0);  // the mug's pieces against the bowl's
  fs::remove(file);
}

TEST(Recorder, TheMomentumScheduleIsRecorded) {
  SceneDescription scene = funnelScene();
  scene.solver.gjkVariant = GjkVariant::Nesterov;
  scene.solver.momentumSchedule = MomentumSchedule::Late;
  const fs::path file = tempFile("late.h5");
  recordRun(scene, file, 90);
  const RecordingReader reader(file);
  EXPECT_EQ(reader.info().solver.momentumSchedule, MomentumSchedule::Late);
  long solved = 0;
  for (long i = 0; i + 1 < reader.stepCount(); ++i) {
    EXPECT_EQ(reader.collisionOptions(i).gjk.schedule, MomentumSchedule::Late);
    for (const RecordedProblem& p : reader.problemsOfStep(i)) {
      if (!p.exactInputs) continue;
      const CollisionResult r =
          collide(reader.proxies()[p.proxyA].shape, p.poseA, reader.proxies()[p.proxyB].shape,
                  p.poseB, p.initialGuess, reader.collisionOptions(i, p), p.hints, &p.warmSimplex);
      EXPECT_EQ(r.gjkIterations, p.result.gjkIterations) << "step " << i;
      ++solved;
    }
  }
  EXPECT_GT(solved, 20);
  fs::remove(file);
}

// Resting boxes: their kept manifolds answer most of their queries; only the queries run are
// problems in the file.
TEST(Recorder, PairsTheirKeptManifoldAnsweredAreNotProblems) {
  const SceneDescription scene = boxGrid(6);
  const fs::path file = tempFile("kept.h5");
  World world(scene);
  Recorder recorder(file, world, {});
  world.addObserver([&](const World& w) { recorder.record(w); });
  std::vector<long> queries;
  long kept = 0;
  for (int i = 0; i < 60; ++i) {
    world.step();
    queries.push_back(world.lastStep().gjkCalls);
    kept += world.lastStep().keptPairs;
  }
  recorder.close();
  EXPECT_GT(kept, 36 * 60 / 2);
  const RecordingReader reader(file);
  for (int i = 0; i < 60; ++i) EXPECT_EQ(reader.step(i).problemCount, queries[i]) << i;
  fs::remove(file);
}

TEST(Recorder, ARunCutShortLeavesAReadablePrefix) {
  const SceneDescription scene = boxGrid(6);  // 37 bodies and 36 problems per step
  const fs::path file = tempFile("cut.h5");
  const fs::path copy = tempFile("cut-copy.h5");
  World world(scene);
  // Every pair queried each step, so that the problems come at a steady rate (the boxes rest,
  // and their kept manifolds would answer most queries).
  world.manifoldReuse().standIn = false;
  Recorder recorder(file, world, {});
  world.addObserver([&](const World& w) { recorder.record(w); });
  std::vector<std::vector<RigidBody>> states{world.rigidBodies()};
  // 37 states and 36 problems a step: about 0.43 chunks of 256 and 128 rows, so the file on disk
  // is flushed twice (every 16 chunks) before the end.
  constexpr int kSteps = 80;
  for (int i = 0; i < kSteps; ++i) {
    world.step();
    states.push_back(world.rigidBodies());
  }
  // Whole chunks are written in the background while the rest stays buffered: between writes
  // the file on disk is what a killed run leaves. Copy it until a copy has steps (the writer
  // may still be busy with the last chunks at first).
  std::optional<RecordingReader> prefix;
  for (int attempt = 0; attempt < 200 && !(prefix && prefix->stepCount() > 0); ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    fs::copy_file(file, copy, fs::copy_options::overwrite_existing);
    try {
      prefix.emplace(copy);
    } catch (const RecordingError&) {
      prefix.reset();
    }
  }
  ASSERT_TRUE(prefix && prefix->stepCount() > 0);
  EXPECT_LT(prefix->stepCount(), kSteps + 1);
  for (long i = 0; i < prefix->stepCount(); ++i) {
    const std::vector<BodyState> s = prefix->states(i);
    ASSERT_EQ(s.size(), states[i].size());
    for (size_t b = 0; b < s.size(); ++b) EXPECT_EQ(s[b].pose.p, states[i][b].position);
  }
  EXPECT_EQ(prefix->problems(0, prefix->problemCount()).size(), prefix->problemCount());
  recorder.close();

  const RecordingReader full(file);
  EXPECT_EQ(full.stepCount(), kSteps + 1);
  EXPECT_GT(full.problemCount(), prefix->problemCount());
  fs::remove(file);
  fs::remove(copy);
}

TEST(Recorder, RecordAfterCloseThrows) {
  const SceneDescription scene = boxGrid(1);
  const fs::path file = tempFile("closed.h5");
  World world(scene);
  Recorder recorder(file, world, {});
  recorder.close();
  world.step();
  EXPECT_THROW(recorder.record(world), RecordingError);
  fs::remove(file);
}

TEST(Recorder, UnwritablePathThrowsNamingIt) {
  const SceneDescription scene = boxGrid(1);
  const World world(scene);
  const fs::path file = tempFile("no-such-dir") / "x.h5";
  try {
    Recorder recorder(file, world, {});
    FAIL() << "expected RecordingError";
  } catch (const RecordingError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
}

TEST(Recorder, AFileTheWriterCannotCreateThrowsNamingIt) {
  // A folder at the path: writable, so the recording starts, but HDF5 cannot create a file there.
  // The writer thread fails, and record() or close() reports it.
  World world(boxGrid(1));
  const fs::path folder = tempFile("folder.h5");
  fs::create_directories(folder);
  std::string message;
  try {
    Recorder recorder(folder, world, {});
    world.addObserver([&](const World& w) { recorder.record(w); });
    for (int i = 0; i < 10; ++i) world.step();
    recorder.close();
  } catch (const RecordingError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(folder.string()), std::string::npos) << message;
  EXPECT_NE(message.find("cannot create"), std::string::npos) << message;
  fs::remove(folder);
}

/// The message of the RecordingError reading `file` throws ("" if none).
std::string readError(const fs::path& file) {
  try {
    RecordingReader reader(file);
  } catch (const RecordingError& e) {
    return e.what();
  }
  return "";
}

TEST(RecordingReader, RejectsATruncatedFile) {
  const fs::path file = tempFile("whole.h5");
  const fs::path cut = tempFile("truncated.h5");
  {
    World world(boxGrid(3));
    Recorder recorder(file, world, {});
    world.addObserver([&](const World& w) { recorder.record(w); });
    for (int i = 0; i < 30; ++i) world.step();
  }
  fs::copy_file(file, cut, fs::copy_options::overwrite_existing);
  fs::resize_file(cut, fs::file_size(file) / 2);
  const std::string message = readError(cut);
  EXPECT_NE(message.find(cut.string()), std::string::npos) << message;
  EXPECT_NE(message.find("truncated"), std::string::npos) << message;
  fs::remove(file);
  fs::remove(cut);
}

// A recording of format version 1 (tests/engine/data/recording-version-1.h5: a box and a foam
// brick on the ground, six steps, written before boxes and hulls had a convex radius) reads as
// sharp shapes, and its problems solve again to the recorded answers.
TEST(RecordingReader, ReadsVersionOneAsSharpShapes) {
  const RecordingReader reader(fs::path(HB_SOURCE_DIR) /
                               "tests/engine/data/recording-version-1.h5");
  EXPECT_EQ(reader.info().formatVersion, 1);
  EXPECT_EQ(reader.info().solver.convexRadius, 0.0);
  // Written before manifolds had passes of their own: swept point by point.
  EXPECT_EQ(reader.info().solver.manifoldIterations, 1);
  EXPECT_EQ(reader.info().solver.shockIterations, 1);
  // Written before steps were split: one substep each, and before steps stated theirs.
  EXPECT_EQ(reader.info().solver.maxSubsteps, 1);
  for (long i = 0; i < reader.stepCount(); ++i) EXPECT_EQ(reader.step(i).substeps, 0);
  ASSERT_EQ(reader.proxies().size(), 3u);
  for (const RecordedProxy& p : reader.proxies()) {
    EXPECT_EQ(p.shape.convexRadius(), 0.0);
    if (p.shape.type() == ShapeType::Box) {
      EXPECT_EQ(p.shape.coreHalfExtents(), p.shape.halfExtents());
    } else {
      ASSERT_EQ(p.shape.type(), ShapeType::ConvexHull);
      EXPECT_EQ(p.shape.coreHullPtr(), p.shape.hullPtr());
    }
  }
  long solved = 0;
  for (long i = 0; i + 1 < reader.stepCount(); ++i) {
    for (const RecordedProblem& p : reader.problemsOfStep(i)) {
      const CollisionResult r =
          collide(reader.proxies()[p.proxyA].shape, p.poseA, reader.proxies()[p.proxyB].shape,
                  p.poseB, p.initialGuess, reader.collisionOptions(i, p), p.hints, &p.warmSimplex);
      EXPECT_NEAR(r.distance, p.result.distance, 1e-12);
      EXPECT_EQ(r.gjkIterations, p.result.gjkIterations);
      EXPECT_EQ(r.epaStatus, p.result.epaStatus);
      EXPECT_EQ(p.substep, 0);
      // Written before queries were bounded: each ran to its tolerance.
      EXPECT_EQ(p.separationBound, std::numeric_limits<double>::infinity());
      ++solved;
    }
  }
  EXPECT_EQ(solved, 6);
}

/// A short recording of three boxes on the ground, for damaging.
fs::path boxRecording(const std::string& name) {
  const fs::path file = tempFile(name);
  World world(boxGrid(3));
  Recorder recorder(file, world, {});
  world.addObserver([&](const World& w) { recorder.record(w); });
  for (int i = 0; i < 10; ++i) world.step();
  return file;
}

/// Writes `value` over field `member` of row 0 of dataset `table` (an in-place edit of a crafted
/// file: the bytes of a double or an int32, as the field is).
template <typename T>
void overwriteFirstRow(const fs::path& file, const char* table, const char* member, T value) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hid_t d = H5Dopen(f, table, H5P_DEFAULT);
  const hid_t type = H5Dget_type(d);
  const hid_t space = H5Dget_space(d);
  const hssize_t rows = H5Sget_simple_extent_npoints(space);
  ASSERT_GT(rows, 0) << table;
  std::vector<unsigned char> bytes(static_cast<size_t>(rows) * H5Tget_size(type));
  ASSERT_GE(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), 0);
  const int index = H5Tget_member_index(type, member);
  ASSERT_GE(index, 0) << member;
  std::memcpy(bytes.data() + H5Tget_member_offset(type, index), &value, sizeof value);
  ASSERT_GE(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), 0);
  H5Sclose(space);
  H5Tclose(type);
  H5Dclose(d);
  H5Fclose(f);
}

// Values no world could have run with are a damaged file, named, not a recording to replay.
TEST(RecordingReader, RejectsSettingsAndPosesNoWorldHad) {
  const fs::path file = boxRecording("settings.h5");
  ASSERT_EQ(readError(file), "");
  {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const hid_t a = H5Aopen(f, "gjk_max_iterations", H5P_DEFAULT);
    const long long zero = 0;
    ASSERT_GE(H5Awrite(a, H5T_NATIVE_LLONG, &zero), 0);
    H5Aclose(a);
    H5Fclose(f);
  }
  const std::string message = readError(file);
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  EXPECT_NE(message.find("'gjk_max_iterations' is out of range"), std::string::npos) << message;

  // A NaN in the first problem's position of A, and one in the first state's position.
  const fs::path poses = boxRecording("poses.h5");
  overwriteFirstRow(poses, "problems", "position_a", std::nan(""));
  overwriteFirstRow(poses, "states", "position", std::nan(""));
  const RecordingReader reader(poses);
  try {
    reader.problems(0, 1);
    ADD_FAILURE() << "a NaN pose was read";
  } catch (const RecordingError& e) {
    EXPECT_NE(std::string(e.what()).find("problem 0 has a non-unit or out-of-range pose"),
              std::string::npos)
        << e.what();
  }
  try {
    reader.states(0);
    ADD_FAILURE() << "a NaN pose was read";
  } catch (const RecordingError& e) {
    EXPECT_NE(std::string(e.what()).find("step row 0 has a body with a non-finite"),
              std::string::npos)
        << e.what();
  }
  fs::remove(file);
  fs::remove(poses);
}

// A crafted file that reads, but whose per-step settings or problems no world could produce,
// would change a study's answers with exit status 0: the reader refuses it.
TEST(RecordingReader, RejectsCraftedStepSettingsAndProblems) {
  const auto errorAfter = [](const char* name, const auto& craft) {
    const fs::path file = boxRecording(name);
    craft(file);
    std::string message;
    try {
      const RecordingReader reader(file);
      reader.problems(0, 1);
    } catch (const RecordingError& e) {
      message = e.what();
    }
    fs::remove(file);
    return message;
  };
  for (const auto& crafted :
       {std::pair{"gjk_tolerance", std::nan("")}, {"gjk_tolerance", -1.0}, {"time", HUGE_VAL}}) {
    const char* field = crafted.first;  // named, not bound: lambdas cannot capture bindings
    const double value = crafted.second;
    const std::string message = errorAfter(
        "step.h5", [&](const fs::path& file) { overwriteFirstRow(file, "steps", field, value); });
    EXPECT_NE(message.find("step row 0: GJK tolerance, iteration cap or time out of range"),
              std::string::npos)
        << field << ": " << message;
  }
  for (const std::int32_t cap : {-1, 0, 100'001}) {
    const std::string message = errorAfter("cap.h5", [&](const fs::path& file) {
      overwriteFirstRow(file, "steps", "gjk_max_iterations", cap);
    });
    EXPECT_NE(message.find("out of range"), std::string::npos) << cap << ": " << message;
  }
  EXPECT_NE(errorAfter("far.h5",
                       [](const fs::path& file) {
                         overwriteFirstRow(file, "problems", "position_b", 1e300);
                       })
                .find("problem 0 has a non-unit or out-of-range pose"),
            std::string::npos);
  EXPECT_NE(errorAfter("guess.h5",
                       [](const fs::path& file) {
                         overwriteFirstRow(file, "problems", "initial_guess", std::nan(""));
                       })
                .find("problem 0: a box centre, warm start or iteration count out of range"),
            std::string::npos);
  for (const double bound : {-0.01, std::nan("")}) {
    EXPECT_NE(errorAfter("bound.h5",
                         [&](const fs::path& file) {
                           overwriteFirstRow(file, "problems", "separation_bound", bound);
                         })
                  .find("problem 0 has a negative or NaN separation bound"),
              std::string::npos)
        << bound;
  }
}

// A dataset extended to 10^12 rows without data (a few bytes more in the file) is refused by
// its size before anything is allocated for it, naming the file and the dataset.
TEST(RecordingReader, RejectsADatasetLargerThanItsFileCanHold) {
  const fs::path file = boxRecording("huge.h5");
  {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const hid_t d = H5Dopen(f, "problems", H5P_DEFAULT);
    const hsize_t rows = 1'000'000'000'000;
    ASSERT_GE(H5Dset_extent(d, &rows), 0);
    H5Dclose(d);
    H5Fclose(f);
  }
  EXPECT_LT(fs::file_size(file), 1'000'000u);
  const std::string message = readError(file);
  EXPECT_NE(message.find("recording " + file.string() +
                         ": dataset /problems claims 1000000000000 rows of"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("more than a file of"), std::string::npos) << message;
  fs::remove(file);
}

TEST(RecordingReader, RejectsAnEmptyFile) {
  const fs::path file = tempFile("empty.h5");
  std::ofstream(file).close();
  const std::string message = readError(file);
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  EXPECT_NE(message.find("empty"), std::string::npos) << message;
  fs::remove(file);
}

TEST(RecordingReader, RejectsAFileThatIsNotHdf5) {
  const fs::path file = tempFile("scene.h5");
  fs::copy_file(fs::path(HB_SOURCE_DIR) / "assets/scenes/funnel-pair.json", file,
                fs::copy_options::overwrite_existing);
  const std::string message = readError(file);
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  EXPECT_NE(message.find("not an HDF5 file"), std::string::npos) << message;
  fs::remove(file);
}

TEST(RecordingReader, RejectsAMissingFile) {
  const fs::path file = tempFile("does-not-exist.h5");
  const std::string message = readError(file);
  EXPECT_NE(message.find("no such file"), std::string::npos) << message;
}

}  // namespace
}  // namespace hb
