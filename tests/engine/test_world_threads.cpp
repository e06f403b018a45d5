// One world on several workers (World(scene, threads)): every thread count gives the same states,
// bit for bit, and the same step statistics, on the funnel (sleep and wake rounds, compounds of
// convex parts) and on a pile of hulls falling onto each other (deep overlaps, swept bodies).

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/scene.hpp"
#include "engine/state_hash.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;

SceneDescription shippedScene(const std::string& name) {
  return loadScene(fs::path(HB_SOURCE_DIR) / "assets/scenes" / name);
}

bool sameBits(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return std::memcmp(a.data(), b.data(), sizeof(double) * 3) == 0;
}

/// The first thing that differs between two worlds after a step ("" when none does).
std::string firstDifference(const World& one, const World& other) {
  const StepStatistics& s = one.lastStep();
  const StepStatistics& t = other.lastStep();
  if (s.contacts != t.contacts || s.gjkCalls != t.gjkCalls || s.keptPairs != t.keptPairs ||
      s.gjkIterations != t.gjkIterations || s.epaCalls != t.epaCalls ||
      s.impactPairs != t.impactPairs || s.sweptBack != t.sweptBack ||
      s.stalledSweeps != t.stalledSweeps || s.wokenBodies != t.wokenBodies ||
      one.reusedManifolds() != other.reusedManifolds() ||
      std::memcmp(&s.maxPenetration, &t.maxPenetration, sizeof(double)) != 0) {
    return "step statistics";
  }
  if (one.rigidBodies().size() != other.rigidBodies().size()) return "body count";
  for (size_t i = 0; i < one.rigidBodies().size(); ++i) {
    const RigidBody& a = one.rigidBodies()[i];
    const RigidBody& b = other.rigidBodies()[i];
    const bool same = sameBits(a.position, b.position) &&
                      sameBits(a.linearVelocity, b.linearVelocity) &&
                      sameBits(a.angularVelocity, b.angularVelocity) &&
                      std::memcmp(a.orientation.coeffs().data(), b.orientation.coeffs().data(),
                                  sizeof(double) * 4) == 0 &&
                      a.sleeping == b.sleeping;
    if (!same) return "body " + std::to_string(i);
  }
  return stateHash(one) == stateHash(other) ? "" : "state hash";
}

/// What a run went through, summed over its steps.
struct Totals {
  long woken = 0, swept = 0, epa = 0;
  /// Over the worlds of several workers: solves run on one thread (TeamChoice), so that a
  /// test sees both ways give the same bits.
  long solvesAlone = 0;
};

/// Steps the scene on 1, 2 and 4 workers side by side and compares every body's state and the
/// step's counts after every step. The worlds are made in the order 4, 2, 1, so that the first
/// builds the spawner's assets on its workers (unless the process built them before).
Totals expectSameOnEveryCount(const SceneDescription& scene, int steps) {
  std::vector<std::unique_ptr<World>> worlds;
  for (const int threads : {4, 2, 1}) {
    worlds.insert(worlds.begin(), std::make_unique<World>(scene, threads));
    EXPECT_EQ(worlds.front()->threads(), threads);
  }
  Totals totals;
  for (int step = 0; step < steps; ++step) {
    for (auto& world : worlds) world->step();
    const World& one = *worlds.front();
    totals.woken += one.lastStep().wokenBodies;
    totals.swept += one.lastStep().sweptBack;
    totals.epa += one.lastStep().epaCalls;
    for (size_t w = 1; w < worlds.size(); ++w) {
      totals.solvesAlone += worlds[w]->lastStep().solvesAlone;
      const std::string difference = firstDifference(one, *worlds[w]);
      if (!difference.empty()) {
        ADD_FAILURE() << "step " << step << ", 1 and " << worlds[w]->threads()
                      << " workers: " << difference;
        return totals;
      }
    }
  }
  return totals;
}

TEST(WorldThreads, TheFunnelIsBitIdenticalOnOneTwoAndFourWorkers) {
  SceneDescription scene = shippedScene("funnel.json");
  scene.spawner->count = 20;
  scene.spawner->interval = 0.05;
  // A hull tolerance of its own: no other test has built these hulls, so the four workers do.
  scene.hullTolerance = 4.5e-4;
  EXPECT_GT(expectSameOnEveryCount(scene, 240).epa, 0);
}

TEST(WorldThreads, WakingIsBitIdenticalOnOneTwoAndFourWorkers) {
  // Boxes dropped every 2 s onto the same spot: each lands on the one before, asleep by then,
  // and wakes it (and the pile under it) in a further narrow-phase round.
  const SceneDescription scene = parseScene(R"({"name": "wake", "dt": 0.008333333333333333,
    "statics": [{"type": "ground", "height": 0.0}],
    "spawner": {"shapes": [{"type": "box", "half_extents": [0.05, 0.05, 0.05]}], "count": 4,
                "interval": 2.0, "center": [0, 0, 0.3], "radius": 0, "height": 0,
                "max_linear_speed": 0, "max_angular_speed": 0},
    "solver": {"sleeping": true}})",
                                            ".");
  EXPECT_GT(expectSameOnEveryCount(scene, 960).woken, 0);
}

TEST(WorldThreads, ConvexPartsAreBitIdenticalOnOneTwoAndFourWorkers) {
  SceneDescription scene = shippedScene("funnel-parts.json");
  scene.spawner->count = 8;
  EXPECT_GT(expectSameOnEveryCount(scene, 150).epa, 0);
}

TEST(WorldThreads, AHullPileIsBitIdenticalOnOneTwoAndFourWorkers) {
  // Hulls falling onto each other and the ground: deep overlaps, fast bodies swept.
  // The 640-hull pile's lowest three layers (192 hulls).
  SceneDescription scene = shippedScene("pile-640.json");
  scene.bodies.resize(3 * 64);
  scene.solver.softSubsteps = 0;
  const Totals totals = expectSameOnEveryCount(scene, 90);
  EXPECT_GT(totals.epa, 0);
  EXPECT_GT(totals.swept, 0);
}

TEST(WorldThreads, TheSoftStepIsBitIdenticalOnOneTwoAndFourWorkers) {
  SceneDescription scene = shippedScene("pile-640.json");
  scene.bodies.resize(3 * 64);
  scene.solver.softSubsteps = 4;
  const Totals totals = expectSameOnEveryCount(scene, 90);
  EXPECT_GT(totals.epa, 0);
  EXPECT_GT(totals.solvesAlone, 0);
}

}  // namespace
}  // namespace hb
