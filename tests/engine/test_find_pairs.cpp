// The find-pairs stage: pieces whose boxes overlap but whose bounding spheres stay apart skip the
// narrow phase, and no pair of pieces within the speculative margin is ever left out of it (a
// pile of round hulls, where boxes are loosest, checked against every pair by GJK).

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "collision/convex_hull.hpp"
#include "collision/gjk.hpp"
#include "collision/obb.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

/// The octahedron |x| + |y| + |z| <= 1: its bounding sphere has radius 1, its smallest box
/// (1.63 x 1.41 x 1.15 m, turned to its faces) corners 1.22 m from the centre.
Shape octahedron() {
  const std::array<Eigen::Vector3d, 6> tips = {Eigen::Vector3d::UnitX(), -Eigen::Vector3d::UnitX(),
                                               Eigen::Vector3d::UnitY(), -Eigen::Vector3d::UnitY(),
                                               Eigen::Vector3d::UnitZ(), -Eigen::Vector3d::UnitZ()};
  return Shape::convexHull(std::make_shared<const ConvexHull>(ConvexHull::build(tips)));
}

/// Two octahedra floating still, the second moved by `offset`.
World twoOctahedra(const Eigen::Vector3d& offset) {
  SceneDescription scene;
  scene.gravity.setZero();
  scene.boundsMin = Eigen::Vector3d::Constant(-10.0);
  scene.boundsMax = Eigen::Vector3d::Constant(10.0);
  scene.solver.sleeping = false;
  for (const Eigen::Vector3d& p : {Eigen::Vector3d::Zero().eval(), offset}) {
    BodyDescription body;
    body.shape.shape = octahedron();
    body.pose.p = p;
    scene.bodies.push_back(body);
  }
  return World(scene);
}

TEST(WorldFindPairs, PiecesWhoseBoundingSpheresStayApartSkipTheNarrowPhase) {
  // 2.1 m apart towards a corner of the box: the boxes overlap (a corner reaches 1.22 m), the
  // bounding spheres (1 m each, grown by the 1 cm margin) do not.
  const Obb box = localObb(octahedron());
  World diagonal = twoOctahedra(2.1 * (box.axes * box.halfExtents).normalized());
  ASSERT_TRUE(obbOverlap(diagonal.worldObbs()[0], diagonal.worldObbs()[1]));
  diagonal.step();
  EXPECT_TRUE(diagonal.narrowPhaseRecords().empty());
  // Tip to tip 5 mm apart, within the margin: the pair is collided and gets a contact.
  World tips = twoOctahedra({2.005, 0.0, 0.0});
  tips.step();
  ASSERT_EQ(tips.narrowPhaseRecords().size(), 1u);
  EXPECT_EQ(tips.narrowPhaseRecords()[0].contactCount, 1);
}

TEST(WorldFindPairs, NoPairWithinTheMarginIsLeftOutInAPileOfHulls) {
  // The 640-hull pile's lowest three layers (192 hulls of 2 m radius) falling onto each other.
  SceneDescription scene =
      loadScene(std::filesystem::path(HB_SOURCE_DIR) / "assets/scenes/pile-640.json");
  scene.bodies.resize(3 * 64);
  World world(scene);
  world.setThreads(1);
  const auto& proxies = world.proxies();
  const double margin = world.scene().solver.speculativeMargin;
  int checked = 0;
  for (int step = 0; step < 150; ++step) {
    std::vector<std::pair<int, int>> close;
    if (step % 10 == 0) {
      for (size_t a = 0; a < proxies.size(); ++a) {
        for (size_t b = a + 1; b < proxies.size(); ++b) {
          const Pose pa = world.proxyPose(static_cast<int>(a));
          const Pose pb = world.proxyPose(static_cast<int>(b));
          const GjkResult g =
              gjk(proxies[a].shape, pa, proxies[b].shape, pb, pa.p - pb.p, GjkOptions{});
          if (g.distance < margin) close.emplace_back(static_cast<int>(a), static_cast<int>(b));
        }
      }
    }
    world.step();
    std::set<std::pair<int, int>> collided;
    for (const NarrowPhaseRecord& r : world.narrowPhaseRecords()) {
      collided.emplace(r.proxyA, r.proxyB);
    }
    for (const auto& pair : close) {
      EXPECT_TRUE(collided.count(pair))
          << "step " << step << ": " << pair.first << ", " << pair.second;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace hb
