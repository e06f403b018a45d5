// Broad phase: on random scenes (sizes, rotations, owners, static proxies, margins) it returns
// exactly the pairs of the brute-force reference, through the temporal-coherence path as well,
// after renumbering and sweep-axis changes, on boxes at the edge of contact, and on degenerate
// scenes; among statics of every size (a 100 m ground, panels, tiny chips) that change between
// calls or that moving boxes cross; with its column slices swept on threads.

#include "collision/broad_phase.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <random>
#include <vector>

#include "random_geometry.hpp"
#include "tests/run_tasks.hpp"

namespace hb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

struct Scene {
  std::vector<Obb> boxes;
  std::vector<int> owners;
  std::vector<std::uint8_t> isStatic;
  double margin = 0.0;

  BroadPhaseInput input() const { return {boxes, owners, isStatic, margin}; }
};

// n boxes in a cube of side `region`: half-extents from 5 mm to 1 m (some slabs and rods),
// random rotations or, sometimes, none (exact ties between AABB ends).
Scene randomScene(std::mt19937& rng, int n, double region) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Scene scene;
  const bool axisAligned = u(rng) < 0.15;
  for (int i = 0; i < n; ++i) {
    Obb box;
    box.center = test::randomVector(rng, -0.5 * region, 0.5 * region);
    if (!axisAligned) box.axes = test::randomRotation(rng).toRotationMatrix();
    for (int k = 0; k < 3; ++k) box.halfExtents[k] = test::logUniform(rng, 0.005, 1.0);
    if (u(rng) < 0.1) box.halfExtents[i % 3] = 0.0;  // a flat box
    scene.boxes.push_back(box);
  }
  // Owners: every proxy its own body, or bodies of a few proxies (compound shapes).
  const int kind = static_cast<int>(3.0 * u(rng));
  if (kind == 1) {
    std::uniform_int_distribution<int> body(0, std::max(0, n / 3));
    for (int i = 0; i < n; ++i) scene.owners.push_back(body(rng));
  } else if (kind == 2) {
    for (int i = 0; i < n; ++i) scene.owners.push_back(i);
  }
  if (u(rng) < 0.6) {
    const double fraction = u(rng);
    for (int i = 0; i < n; ++i) scene.isStatic.push_back(u(rng) < fraction ? 1 : 0);
  }
  if (u(rng) < 0.4) scene.margin = test::logUniform(rng, 1e-4, 0.2);
  return scene;
}

void expectSortedUnique(const std::vector<ProxyPair>& pairs) {
  for (const ProxyPair& p : pairs) EXPECT_LT(p.first, p.second);
  EXPECT_TRUE(std::is_sorted(pairs.begin(), pairs.end()));
  EXPECT_EQ(std::adjacent_find(pairs.begin(), pairs.end()), pairs.end());
}

// Rotates and moves every box (or every moving one) a little, as one simulation step would.
void jiggle(std::mt19937& rng, Scene& scene, double step, bool staticsToo = true) {
  for (std::size_t i = 0; i < scene.boxes.size(); ++i) {
    if (!staticsToo && !scene.isStatic.empty() && scene.isStatic[i]) continue;
    Obb& box = scene.boxes[i];
    box.center += test::randomVector(rng, -step, step);
    const Eigen::AngleAxisd turn(step, test::randomUnitVector(rng));
    box.axes = turn.toRotationMatrix() * box.axes;
  }
}

// A static box of one of the kinds a scene has: the World's ground (100 m x 100 m x 1 m) just
// under the region, a thin panel, a big block or a tiny chip inside it, or a point.
Obb randomStaticBox(std::mt19937& rng, double region) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Obb box;
  const double kind = u(rng);
  if (kind < 0.2) {
    box.center = Vector3d(0.0, 0.0, -0.5 * region - 0.5 + 0.3 * (2.0 * u(rng) - 1.0));
    if (u(rng) < 0.5) box.axes = Eigen::AngleAxisd(0.01, Vector3d::UnitX()).toRotationMatrix();
    box.halfExtents = Vector3d(50.0, 50.0, 0.5);
    return box;
  }
  box.center = test::randomVector(rng, -0.5 * region, 0.5 * region);
  box.axes = test::randomRotation(rng).toRotationMatrix();
  if (kind < 0.5) {
    box.halfExtents =
        Vector3d(test::logUniform(rng, 0.05, 0.5), test::logUniform(rng, 0.05, 0.5), 0.01);
  } else if (kind < 0.7) {
    for (int k = 0; k < 3; ++k) box.halfExtents[k] = test::logUniform(rng, 1.0, 10.0);
  } else if (kind < 0.95) {
    for (int k = 0; k < 3; ++k) box.halfExtents[k] = test::logUniform(rng, 1e-4, 1e-2);
  }
  return box;
}

// randomScene's boxes (moving, or a random part of them static) with `statics` static boxes
// inserted at random indices; with owners, statics sometimes share a moving proxy's owner.
Scene randomSceneWithStatics(std::mt19937& rng, int moving, int statics, double region) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Scene s = randomScene(rng, moving, region);
  if (s.isStatic.empty()) s.isStatic.assign(s.boxes.size(), 0);
  for (int k = 0; k < statics; ++k) {
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, s.boxes.size())(rng);
    s.boxes.insert(s.boxes.begin() + at, randomStaticBox(rng, region));
    s.isStatic.insert(s.isStatic.begin() + at, 1);
    if (!s.owners.empty()) {
      const int owner = u(rng) < 0.3 ? s.owners[(at + 1) % s.owners.size()] : -1 - k;
      s.owners.insert(s.owners.begin() + at, owner);
    }
  }
  return s;
}

TEST(BroadPhase, RandomScenesMatchBruteForce) {
  std::mt19937 rng(20240601);
  std::uniform_int_distribution<int> count(0, 100);
  BroadPhase shared;  // carried across scenes of different sizes: exercises the reset paths
  long totalPairs = 0;
  for (int scene = 0; scene < 3000; ++scene) {
    const int n = count(rng);
    const double region = test::logUniform(rng, 0.3, 8.0) * std::cbrt(std::max(n, 1));
    const Scene s = randomScene(rng, n, region);
    const std::vector<ProxyPair> expected = bruteForcePairs(s.input());
    BroadPhase fresh;
    ASSERT_EQ(fresh.update(s.input()), expected) << "scene " << scene << ", n " << n;
    ASSERT_EQ(shared.update(s.input()), expected) << "scene " << scene << ", n " << n;
    expectSortedUnique(expected);
    totalPairs += static_cast<long>(expected.size());
  }
  EXPECT_GT(totalPairs, 10000);  // the scenes are not all empty
}

TEST(BroadPhase, ScenesWithStaticsMatchBruteForce) {
  std::mt19937 rng(20240917);
  std::uniform_int_distribution<int> count(0, 100);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  BroadPhase shared;
  long staticPairs = 0, pairs = 0;
  for (int scene = 0; scene < 3000; ++scene) {
    // Some scenes statics only, some none.
    const double kind = u(rng);
    const int moving = kind < 0.1 ? 0 : count(rng);
    const int statics = kind > 0.9 ? 0 : count(rng) / 4;
    const double region = test::logUniform(rng, 0.3, 8.0) * std::cbrt(std::max(moving, 1));
    const Scene s = randomSceneWithStatics(rng, moving, statics, region);
    const std::vector<ProxyPair> expected = bruteForcePairs(s.input());
    BroadPhase fresh;
    ASSERT_EQ(fresh.update(s.input()), expected) << "scene " << scene;
    ASSERT_EQ(shared.update(s.input()), expected) << "scene " << scene;
    ASSERT_EQ(shared.update(s.input()), expected) << "scene " << scene;  // the statics kept
    EXPECT_FALSE(shared.stats().staticRebuilt);
    const long staticCount = std::count(s.isStatic.begin(), s.isStatic.end(), 1);
    EXPECT_EQ(shared.stats().staticProxies, staticCount);
    EXPECT_EQ(shared.stats().movingProxies, static_cast<long>(s.boxes.size()) - staticCount);
    for (const ProxyPair& p : expected) {
      staticPairs += s.isStatic[p.first] || s.isStatic[p.second] ? 1 : 0;
    }
    pairs += static_cast<long>(expected.size());
  }
  EXPECT_GT(staticPairs, 5000);
  EXPECT_GT(pairs - staticPairs, 5000);
}

// The static proxies (indices and boxes) and the margin, as the broad phase must compare them.
struct StaticSet {
  std::vector<int> proxies;
  std::vector<Obb> boxes;
  double margin = 0.0;

  explicit StaticSet(const Scene& s) : margin(s.margin) {
    for (std::size_t i = 0; i < s.boxes.size(); ++i) {
      if (s.isStatic.empty() || !s.isStatic[i]) continue;
      proxies.push_back(static_cast<int>(i));
      boxes.push_back(s.boxes[i]);
    }
  }
  bool operator==(const StaticSet& o) const {
    if (proxies != o.proxies || margin != o.margin) return false;
    for (std::size_t k = 0; k < boxes.size(); ++k) {
      if (boxes[k].center != o.boxes[k].center || boxes[k].axes != o.boxes[k].axes ||
          boxes[k].halfExtents != o.boxes[k].halfExtents) {
        return false;
      }
    }
    return true;
  }
};

TEST(BroadPhase, StaticsChangingBetweenCallsMatchBruteForce) {
  // One broad phase through calls that each change something: a static moved a hair or far,
  // grown, added or removed, a proxy turned static or moving, statics renumbered, the margin or
  // the owners changed, or nothing. The static tree is rebuilt exactly when the statics changed.
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int rebuilds = 0, kept = 0;
  for (int run = 0; run < 300; ++run) {
    Scene s = randomSceneWithStatics(rng, 60, 12, 3.0);
    BroadPhase broadPhase;
    ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input()));
    EXPECT_TRUE(broadPhase.stats().staticRebuilt);
    for (int call = 0; call < 15; ++call) {
      const StaticSet before(s);
      jiggle(rng, s, 0.01, /*staticsToo=*/false);
      const int i = std::uniform_int_distribution<int>(0, s.boxes.size() - 1)(rng);
      switch (static_cast<int>(9.0 * u(rng))) {
        case 0:  // a box moved by a hair, static or not
          s.boxes[i].center.x() = std::nextafter(s.boxes[i].center.x(), 1e9);
          break;
        case 1:
          s.boxes[i].center += test::randomVector(rng, -1.0, 1.0);
          break;
        case 2:
          s.boxes[i].halfExtents *= 1.5;
          break;
        case 3:  // one more static box
          s.boxes.push_back(randomStaticBox(rng, 3.0));
          s.isStatic.push_back(1);
          if (!s.owners.empty()) s.owners.push_back(-100 - call);
          break;
        case 4:  // one proxy fewer
          s.boxes.erase(s.boxes.begin() + i);
          s.isStatic.erase(s.isStatic.begin() + i);
          if (!s.owners.empty()) s.owners.erase(s.owners.begin() + i);
          break;
        case 5:
          s.isStatic[i] = !s.isStatic[i];
          break;
        case 6: {  // two proxies swap places
          const int j = std::uniform_int_distribution<int>(0, s.boxes.size() - 1)(rng);
          std::swap(s.boxes[i], s.boxes[j]);
          std::swap(s.isStatic[i], s.isStatic[j]);
          if (!s.owners.empty()) std::swap(s.owners[i], s.owners[j]);
          break;
        }
        case 7:
          s.margin = u(rng) < 0.5 ? 0.0 : test::logUniform(rng, 1e-4, 0.2);
          break;
        default:  // a proxy given another one's owner
          if (!s.owners.empty()) s.owners[i] = s.owners[(i + 1) % s.owners.size()];
          break;
      }
      ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input()))
          << "run " << run << ", call " << call;
      const bool changed = !(StaticSet(s) == before);
      ASSERT_EQ(broadPhase.stats().staticRebuilt, changed) << "run " << run << ", call " << call;
      (changed ? rebuilds : kept) += 1;
    }
    broadPhase.reset();
    ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input()));
    EXPECT_TRUE(broadPhase.stats().staticRebuilt);
  }
  EXPECT_GT(rebuilds, 1000);
  EXPECT_GT(kept, 1000);
}

// The funnel scene's kind of statics: the World's ground with its top at z = 0, 16 slanted
// panels around the vertical axis and four low walls.
std::vector<Obb> funnelLikeStatics() {
  std::vector<Obb> statics;
  Obb ground;
  ground.center = Vector3d(0.0, 0.0, -0.5);
  ground.halfExtents = Vector3d(50.0, 50.0, 0.5);
  statics.push_back(ground);
  for (int k = 0; k < 16; ++k) {
    const double azimuth = 2.0 * std::numbers::pi * k / 16.0;
    Obb panel;
    panel.axes =
        (Eigen::AngleAxisd(azimuth, Vector3d::UnitZ()) * Eigen::AngleAxisd(-0.6, Vector3d::UnitY()))
            .toRotationMatrix();
    panel.center = Vector3d(0.22 * std::cos(azimuth), 0.22 * std::sin(azimuth), 0.5);
    panel.halfExtents = Vector3d(0.25, 0.06, 0.01);
    statics.push_back(panel);
  }
  for (const double side : {-1.0, 1.0}) {
    Obb wall;
    wall.center = Vector3d(1.25 * side, 0.0, 0.1);
    wall.halfExtents = Vector3d(0.05, 1.3, 0.1);
    statics.push_back(wall);
    wall.center = Vector3d(0.0, 1.25 * side, 0.1);
    wall.halfExtents = Vector3d(1.3, 0.05, 0.1);
    statics.push_back(wall);
  }
  return statics;
}

/// A scene of the given static boxes alone.
Scene sceneOfStatics(const std::vector<Obb>& statics) {
  Scene s;
  s.boxes = statics;
  s.isStatic.assign(statics.size(), 1);
  return s;
}

/// Adds `count` moving boxes above the funnel's statics, each with a velocity of up to `speed`
/// metres per call along each axis.
void addBoxesInTheFunnel(std::mt19937& rng, int count, double speed, Scene& s,
                         std::vector<Vector3d>& velocities) {
  for (int i = 0; i < count; ++i) {
    Obb box;
    box.center = test::randomVector(rng, -0.6, 0.6) + Vector3d(0.0, 0.0, 0.7);
    box.axes = test::randomRotation(rng).toRotationMatrix();
    box.halfExtents = test::randomVector(rng, 0.01, 0.06);
    s.boxes.push_back(box);
    s.isStatic.push_back(0);
    velocities.push_back(test::randomVector(rng, -speed, speed));
  }
}

TEST(BroadPhase, MovingBoxesCrossingStaticsMatchBruteForce) {
  // Boxes flying through the funnel's statics and bouncing between the ground and z = 1.5 m, so
  // that their pairs with the statics come and go from one call to the next.
  std::mt19937 rng(1234);
  const std::vector<Obb> statics = funnelLikeStatics();
  const int moving = 150;
  Scene s = sceneOfStatics(statics);
  std::vector<Vector3d> velocities;
  addBoxesInTheFunnel(rng, moving, 0.04, s, velocities);
  s.margin = 0.005;
  BroadPhase broadPhase;
  std::vector<ProxyPair> previousStaticPairs;
  int changes = 0;
  for (int call = 0; call < 200; ++call) {
    const std::vector<ProxyPair> expected = bruteForcePairs(s.input());
    ASSERT_EQ(broadPhase.update(s.input()), expected) << "call " << call;
    EXPECT_EQ(broadPhase.stats().staticRebuilt, call == 0);
    std::vector<ProxyPair> staticPairs;
    for (const ProxyPair& p : expected) {
      if (s.isStatic[p.first]) staticPairs.push_back(p);
    }
    changes += staticPairs != previousStaticPairs ? 1 : 0;
    previousStaticPairs = staticPairs;
    for (int i = 0; i < moving; ++i) {
      Obb& box = s.boxes[statics.size() + i];
      box.center += velocities[i];
      for (int k = 0; k < 3; ++k) {
        const double lo = k == 2 ? 0.0 : -0.9, hi = k == 2 ? 1.5 : 0.9;
        if ((box.center[k] < lo && velocities[i][k] < 0.0) ||
            (box.center[k] > hi && velocities[i][k] > 0.0)) {
          velocities[i][k] = -velocities[i][k];
        }
      }
    }
  }
  EXPECT_GT(changes, 150);
}

TEST(BroadPhase, StaticLookUpsOnThreadsGiveTheSamePairsAndCounts) {
  // The moving boxes' look-ups among the statics, in slices run at once on threads of their own
  // or one after the other from the last, as the boxes move (look-ups kept or made again) and
  // their number changes (the slices move): the pairs and counts of the look-ups in order.
  std::mt19937 rng(4321);
  const std::vector<Obb> statics = funnelLikeStatics();
  Scene s = sceneOfStatics(statics);
  std::vector<Vector3d> velocities;
  addBoxesInTheFunnel(rng, 120, 0.02, s, velocities);
  s.margin = 0.005;
  BroadPhase inOrder, onThreads, lastFirst;
  onThreads.setForEach(test::threadPerTask);
  lastFirst.setForEach(test::lastTaskFirst);
  long kept = 0;
  for (int call = 0; call < 60; ++call) {
    if (call == 30) addBoxesInTheFunnel(rng, 37, 0.02, s, velocities);
    const std::vector<ProxyPair> expected = bruteForcePairs(s.input());
    ASSERT_EQ(inOrder.update(s.input()), expected) << "call " << call;
    const BroadPhaseStats& stats = inOrder.stats();
    for (BroadPhase* other : {&onThreads, &lastFirst}) {
      ASSERT_EQ(other->update(s.input()), expected) << "call " << call;
      EXPECT_EQ(other->stats().staticLookups, stats.staticLookups) << "call " << call;
      EXPECT_EQ(other->stats().staticBoxesTested, stats.staticBoxesTested) << "call " << call;
      EXPECT_EQ(other->stats().staticAabbOverlaps, stats.staticAabbOverlaps) << "call " << call;
    }
    kept += stats.movingProxies - stats.staticLookups;
    for (std::size_t i = 0; i < velocities.size(); ++i) {
      s.boxes[statics.size() + i].center += velocities[i];
    }
  }
  EXPECT_GT(kept, 0);  // some look-ups were kept from the call before
}

TEST(BroadPhase, MovingProxiesRenumberedAmongFixedStatics) {
  // The statics stay at the front, unchanged; behind them the moving boxes drift and are
  // shuffled, added or removed, so that a moving box's kept static look-up may be another box's:
  // that costs a new look-up, never a pair.
  std::mt19937 rng(321);
  const std::vector<Obb> statics = funnelLikeStatics();
  Scene s = sceneOfStatics(statics);
  const auto addMovingBox = [&] {
    Obb box;
    box.center = test::randomVector(rng, -0.6, 0.6) + Vector3d(0.0, 0.0, 0.6);
    box.axes = test::randomRotation(rng).toRotationMatrix();
    box.halfExtents = test::randomVector(rng, 0.01, 0.06);
    s.boxes.push_back(box);
    s.isStatic.push_back(0);
  };
  for (int i = 0; i < 120; ++i) addMovingBox();
  BroadPhase broadPhase;
  long lookups = 0, movingBoxes = 0;
  for (int call = 0; call < 100; ++call) {
    ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input())) << "call " << call;
    EXPECT_EQ(broadPhase.stats().staticRebuilt, call == 0);
    if (call > 0) {
      lookups += broadPhase.stats().staticLookups;
      movingBoxes += broadPhase.stats().movingProxies;
    }
    jiggle(rng, s, 0.003, /*staticsToo=*/false);
    const auto moving = s.boxes.begin() + static_cast<long>(statics.size());
    switch (call % 4) {
      case 0:
        std::shuffle(moving, s.boxes.end(), rng);
        break;
      case 1:
        addMovingBox();
        break;
      case 2:
        s.boxes.erase(moving + static_cast<long>(rng() % (s.boxes.end() - moving)));
        s.isStatic.pop_back();
        break;
      default:
        break;
    }
  }
  // Boxes that drift a little keep their look-ups; shuffled ones need new ones.
  EXPECT_GT(lookups, movingBoxes / 10);
  EXPECT_LT(lookups, movingBoxes / 2);
}

TEST(BroadPhase, StaticsLeaveTheSweepGridAlone) {
  // A pile of 1000 boxes in a 2 m cube on the 100 m ground, among the funnel's panels: the
  // moving boxes' sweep (axis, grid, column entries) is the one they get without any statics.
  std::mt19937 rng(55);
  Scene pile;
  for (int i = 0; i < 1000; ++i) {
    Obb box;
    box.center = test::randomVector(rng, -1.0, 1.0) + Vector3d(0.0, 0.0, 1.0);
    box.axes = test::randomRotation(rng).toRotationMatrix();
    box.halfExtents = test::randomVector(rng, 0.02, 0.08);
    pile.boxes.push_back(box);
  }
  const std::vector<Obb> statics = funnelLikeStatics();
  Scene withStatics = pile;
  pile.isStatic.assign(pile.boxes.size(), 0);
  withStatics.boxes.insert(withStatics.boxes.begin(), statics.begin(), statics.end());
  withStatics.isStatic.assign(withStatics.boxes.size(), 0);
  std::fill_n(withStatics.isStatic.begin(), statics.size(), 1);
  BroadPhase alone, among;
  ASSERT_EQ(alone.update(pile.input()), bruteForcePairs(pile.input()));
  ASSERT_EQ(among.update(withStatics.input()), bruteForcePairs(withStatics.input()));
  EXPECT_GT(alone.stats().columns, 16);
  EXPECT_EQ(among.stats().columns, alone.stats().columns);
  EXPECT_EQ(among.stats().sweepAxis, alone.stats().sweepAxis);
  EXPECT_EQ(among.stats().columnEntries, alone.stats().columnEntries);
  EXPECT_EQ(among.stats().sweepOverlaps, alone.stats().sweepOverlaps);
  // The boxes near the ground meet it: a few hundred look-ups find it.
  EXPECT_GT(among.stats().staticAabbOverlaps, 100);
  EXPECT_EQ(among.stats().aabbOverlaps,
            alone.stats().aabbOverlaps + among.stats().staticAabbOverlaps);
}

TEST(BroadPhase, BruteForceAppliesTheFilters) {
  std::mt19937 rng(7);
  const Scene s = randomScene(rng, 60, 2.0);
  for (const ProxyPair& p : bruteForcePairs(s.input())) {
    if (!s.owners.empty()) {
      EXPECT_NE(s.owners[p.first], s.owners[p.second]);
    }
    if (!s.isStatic.empty()) {
      EXPECT_FALSE(s.isStatic[p.first] && s.isStatic[p.second]);
    }
  }
}

TEST(BroadPhase, TemporalCoherenceMatchesBruteForce) {
  std::mt19937 rng(99);
  long insertionSteps = 0, steps = 0;
  for (int run = 0; run < 40; ++run) {
    Scene s = randomScene(rng, 150, 6.0);
    BroadPhase broadPhase;
    broadPhase.update(s.input());
    EXPECT_TRUE(broadPhase.stats().fullSort);
    const double step = test::logUniform(rng, 1e-4, 0.05);
    for (int frame = 0; frame < 40; ++frame) {
      jiggle(rng, s, step);
      ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input()))
          << "run " << run << ", frame " << frame;
      insertionSteps += broadPhase.stats().fullSort ? 0 : 1;
      ++steps;
    }
  }
  // Small motions keep the saved order nearly sorted, so insertion sort does the work.
  EXPECT_GT(insertionSteps, steps * 9 / 10);
}

TEST(BroadPhase, RenumberedAndTeleportedProxiesMatchBruteForce) {
  std::mt19937 rng(5);
  BroadPhase broadPhase;
  Scene s = randomScene(rng, 200, 5.0);
  broadPhase.update(s.input());
  for (int round = 0; round < 20; ++round) {
    // Same count, proxies shuffled (the saved order is now wrong) or half of them teleported.
    std::vector<int> perm(s.boxes.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    Scene next = s;
    for (std::size_t i = 0; i < perm.size(); ++i) {
      next.boxes[i] = s.boxes[perm[i]];
      if (round % 2 == 1 && i % 2 == 0) {
        next.boxes[i].center = test::randomVector(rng, -2.5, 2.5);
      }
    }
    s = next;
    ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input())) << "round " << round;
  }
}

TEST(BroadPhase, SweepAxisFollowsTheSpread) {
  std::mt19937 rng(11);
  BroadPhase broadPhase;
  Scene s = randomScene(rng, 300, 1.0);
  for (int axis : {0, 2, 1, 0}) {
    // Stretch the scene along `axis` and squash it along the others.
    for (Obb& box : s.boxes) {
      for (int k = 0; k < 3; ++k) box.center[k] = (k == axis ? 10.0 : 0.3) * (rng() % 1000) / 1e3;
    }
    ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input()));
    EXPECT_EQ(broadPhase.stats().sweepAxis, axis);
  }
}

TEST(BroadPhase, ChangingProxyCountMatchesBruteForce) {
  std::mt19937 rng(12);
  BroadPhase broadPhase;
  for (int n : {100, 50, 50, 101, 0, 1, 2, 100}) {
    const Scene s = randomScene(rng, n, 3.0);
    ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input())) << "n " << n;
  }
}

TEST(BroadPhase, BoxesAtTheEdgeOfContact) {
  // B slid along a random direction to where obbOverlap flips (found by bisection), then moved
  // by a relative amount from 1e-12 to 1e-2 either way: the broad phase must agree with the
  // exact test on both sides of the boundary, where the AABB growth matters.
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int overlapping = 0, separated = 0;
  BroadPhase broadPhase;
  for (int trial = 0; trial < 3000; ++trial) {
    Obb a, b;
    a.center = test::randomVector(rng, -100.0, 100.0);
    // A fifth are aligned with the world, where the AABBs are the boxes themselves and the
    // exact test's parallel-edge slack lies just outside them.
    const bool worldAligned = trial % 5 == 0;
    if (!worldAligned) {
      a.axes = test::randomRotation(rng).toRotationMatrix();
      b.axes = u(rng) < 0.2 ? a.axes : test::randomRotation(rng).toRotationMatrix();
    }
    for (int k = 0; k < 3; ++k) {
      a.halfExtents[k] = test::logUniform(rng, 0.01, 1.0);
      b.halfExtents[k] = test::logUniform(rng, 0.01, 1.0);
    }
    const Vector3d dir =
        worldAligned || u(rng) < 0.3 ? a.axes.col(trial % 3) : test::randomUnitVector(rng);
    double inside = 0.0, outside = 2.0 * (a.halfExtents.norm() + b.halfExtents.norm());
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (inside + outside);
      b.center = a.center + mid * dir;
      (obbOverlap(a, b) ? inside : outside) = mid;
    }
    const double relative = test::logUniform(rng, 1e-12, 1e-2) * (u(rng) < 0.5 ? -1.0 : 1.0);
    b.center = a.center + inside * (1.0 + relative) * dir;
    const std::vector<Obb> boxes = {a, b};
    const BroadPhaseInput input{boxes};
    const std::vector<ProxyPair> expected = bruteForcePairs(input);
    ASSERT_EQ(broadPhase.update(input), expected) << "trial " << trial;
    (expected.empty() ? separated : overlapping) += 1;
  }
  EXPECT_GT(overlapping, 1000);
  EXPECT_GT(separated, 1000);
}

/// n random boxes, ten per cubic metre, as in a pile.
Scene boxesAtPileDensity(std::mt19937& rng, int n) {
  Scene s;
  const double side = std::cbrt(n / 10.0);
  for (int i = 0; i < n; ++i) {
    Obb box;
    box.center = test::randomVector(rng, 0.0, side);
    box.axes = test::randomRotation(rng).toRotationMatrix();
    box.halfExtents = test::randomVector(rng, 0.05, 0.25);
    s.boxes.push_back(box);
  }
  return s;
}

TEST(BroadPhase, LargeSceneSweptInColumns) {
  // Constant density, as in a pile: the sweep is split into columns.
  std::mt19937 rng(31);
  const int n = 3000;
  Scene s = boxesAtPileDensity(rng, n);
  BroadPhase broadPhase;
  for (int frame = 0; frame < 3; ++frame) {
    ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input())) << "frame " << frame;
    EXPECT_GT(broadPhase.stats().columns, 1);
    // Each pair is examined in one column only.
    EXPECT_LE(broadPhase.stats().aabbOverlaps, static_cast<long>(n) * (n - 1) / 2);
    jiggle(rng, s, 0.01);
  }
}

TEST(BroadPhase, SlicesSweptOnThreadsGiveTheSamePairsAndCounts) {
  // The columns' slices run at once on threads of their own, or one after the other from the
  // last: the pairs are the brute force's and every count is the same as in order.
  std::mt19937 rng(47);
  Scene s = boxesAtPileDensity(rng, 2000);
  BroadPhase inOrder, onThreads, lastFirst;
  int slices = 0;
  onThreads.setForEach([&](std::size_t count, const std::function<void(std::size_t)>& item) {
    slices = static_cast<int>(count);
    test::threadPerTask(count, item);
  });
  lastFirst.setForEach(test::lastTaskFirst);
  for (int frame = 0; frame < 3; ++frame) {
    const std::vector<ProxyPair> expected = bruteForcePairs(s.input());
    ASSERT_EQ(inOrder.update(s.input()), expected) << "frame " << frame;
    for (BroadPhase* other : {&onThreads, &lastFirst}) {
      ASSERT_EQ(other->update(s.input()), expected) << "frame " << frame;
      EXPECT_EQ(other->stats().aabbOverlaps, inOrder.stats().aabbOverlaps);
      EXPECT_EQ(other->stats().sweepOverlaps, inOrder.stats().sweepOverlaps);
    }
    EXPECT_GT(inOrder.stats().columns, 1);
    EXPECT_GT(slices, 1);
    jiggle(rng, s, 0.01);
  }
}

TEST(BroadPhase, HugeBoxesAmongSmallOnes) {
  // A static ground slab and walls, long rods and big boxes straddle many columns; far-apart
  // clusters leave most columns empty.
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int scene = 0; scene < 10; ++scene) {
    Scene s;
    for (int i = 0; i < 1500; ++i) {
      Obb box;
      const Vector3d cluster =
          (i % 3 == 0 && scene % 2 == 1) ? Vector3d(500.0, 0.0, 0.0) : Vector3d::Zero();
      box.center = cluster + test::randomVector(rng, -6.0, 6.0);
      box.axes = test::randomRotation(rng).toRotationMatrix();
      const double kind = u(rng);
      if (kind < 0.05) {
        box.halfExtents = Vector3d(8.0, 0.05, 0.05);  // rod
      } else if (kind < 0.05 + 0.1 * (scene % 3)) {
        box.halfExtents = test::randomVector(rng, 1.0, 4.0);  // big
      } else {
        box.halfExtents = test::randomVector(rng, 0.02, 0.3);
      }
      s.boxes.push_back(box);
    }
    Obb ground;
    ground.center = Vector3d(0.0, 0.0, -6.5);
    ground.halfExtents = Vector3d(50.0, 50.0, 0.5);
    s.boxes.push_back(ground);
    Obb wall;
    wall.center = Vector3d(6.5, 0.0, 0.0);
    wall.halfExtents = Vector3d(0.5, 50.0, 50.0);
    s.boxes.push_back(wall);
    s.isStatic.assign(s.boxes.size(), 0);
    s.isStatic[s.boxes.size() - 1] = s.isStatic[s.boxes.size() - 2] = 1;
    for (int i = 0; i < 200; ++i) s.isStatic[i] = 1;
    BroadPhase broadPhase;
    ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input())) << "scene " << scene;
    jiggle(rng, s, 0.02);
    ASSERT_EQ(broadPhase.update(s.input()), bruteForcePairs(s.input())) << "scene " << scene;
  }
}

TEST(BroadPhase, EmptyAndSingleScenes) {
  BroadPhase broadPhase;
  EXPECT_TRUE(broadPhase.update({}).empty());
  const std::vector<Obb> one(1);
  EXPECT_TRUE(broadPhase.update({one}).empty());
  EXPECT_TRUE(bruteForcePairs({one}).empty());
  EXPECT_TRUE(broadPhase.update({}).empty());
}

TEST(BroadPhase, IdenticalBoxesAllOverlap) {
  Obb box;
  box.center = Vector3d(1.0, -2.0, 3.0);
  box.axes = Eigen::AngleAxisd(0.7, Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  box.halfExtents = Vector3d(0.1, 0.2, 0.3);
  const int n = 40;
  const std::vector<Obb> boxes(n, box);
  std::vector<ProxyPair> all;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) all.emplace_back(i, j);
  }
  BroadPhase broadPhase;
  EXPECT_EQ(broadPhase.update({boxes}), all);
  EXPECT_EQ(broadPhase.update({boxes}), all);  // the warm path
  EXPECT_EQ(bruteForcePairs({boxes}), all);

  // Zero-size boxes (points) at one place touch, so they overlap too.
  std::vector<Obb> points(n);
  EXPECT_EQ(broadPhase.update({points}), all);
}

TEST(BroadPhase, AllBoxesAtOnePlace) {
  std::mt19937 rng(3);
  Scene s = randomScene(rng, 120, 1.0);
  for (Obb& box : s.boxes) box.center = Vector3d(0.5, 0.5, 0.5);
  BroadPhase broadPhase;
  const std::vector<ProxyPair> expected = bruteForcePairs(s.input());
  EXPECT_EQ(broadPhase.update(s.input()), expected);
  EXPECT_EQ(broadPhase.update(s.input()), expected);
}

TEST(BroadPhase, TouchingGridOfCubes) {
  // Unit cubes on an integer grid touch their 26 neighbours exactly (faces, edges, corners).
  const int side = 6;
  std::vector<Obb> boxes;
  for (int x = 0; x < side; ++x) {
    for (int y = 0; y < side; ++y) {
      for (int z = 0; z < side; ++z) {
        Obb box;
        box.center = Vector3d(x, y, z);
        box.halfExtents = Vector3d::Constant(0.5);
        boxes.push_back(box);
      }
    }
  }
  BroadPhase broadPhase;
  const std::vector<ProxyPair>& pairs = broadPhase.update({boxes});
  EXPECT_EQ(pairs, bruteForcePairs({boxes}));
  // Neighbour pairs along each of the 13 directions (half of the 26).
  const long expected = 3L * (side - 1) * side * side + 6L * (side - 1) * (side - 1) * side +
                        4L * (side - 1) * (side - 1) * (side - 1);
  EXPECT_EQ(static_cast<long>(pairs.size()), expected);
}

TEST(BroadPhase, OwnersStaticsAndMargin) {
  // Three unit cubes in a row with 0.1 m gaps; the middle and right ones share an owner.
  std::vector<Obb> boxes(3);
  for (int i = 0; i < 3; ++i) {
    boxes[i].center = Vector3d(1.1 * i, 0.0, 0.0);
    boxes[i].halfExtents = Vector3d::Constant(0.5);
  }
  const std::vector<int> owners = {0, 1, 1};
  BroadPhase broadPhase;
  EXPECT_TRUE(broadPhase.update({boxes, owners}).empty());
  // Grown by 0.06 m each, the gaps close.
  const std::vector<ProxyPair> left = {{0, 1}};
  EXPECT_EQ(broadPhase.update({boxes, owners, {}, 0.06}), left);
  const std::vector<ProxyPair> both = {{0, 1}, {1, 2}};
  EXPECT_EQ(broadPhase.update({boxes, {}, {}, 0.06}), both);
  // A static proxy still meets a dynamic one, never another static one.
  const std::vector<std::uint8_t> statics = {1, 1, 0};
  const std::vector<ProxyPair> right = {{1, 2}};
  EXPECT_EQ(broadPhase.update({boxes, {}, statics, 0.06}), right);
  EXPECT_EQ(bruteForcePairs({boxes, {}, statics, 0.06}), right);
}

TEST(BroadPhase, WarmCallsReuseTheOutputBuffer) {
  std::mt19937 rng(8);
  Scene s = randomScene(rng, 300, 4.0);
  s.margin = 0.01;
  BroadPhase broadPhase;
  const std::vector<ProxyPair>& pairs = broadPhase.update(s.input());
  const ProxyPair* data = pairs.data();
  for (int frame = 0; frame < 20; ++frame) {
    EXPECT_EQ(&broadPhase.update(s.input()), &pairs);
    EXPECT_EQ(pairs.data(), data);
  }
}

}  // namespace
}  // namespace hb
