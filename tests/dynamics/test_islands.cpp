#include <gtest/gtest.h>

#include "dynamics/islands.hpp"

namespace hb {
namespace {

std::vector<RigidBody> bodies(int dynamicCount) {
  std::vector<RigidBody> b = {RigidBody::fixed()};
  for (int i = 0; i < dynamicCount; ++i)
    b.push_back(RigidBody::dynamic(sphereMassProperties(0.1, 1000)));
  return b;
}

TEST(Islands, StaticBodiesDoNotJoinIslands) {
  auto b = bodies(4);
  const std::vector<std::pair<int, int>> pairs = {{0, 1}, {0, 2}, {2, 3}};
  const auto island = findIslands(b, pairs);
  EXPECT_EQ(island[0], -1);
  EXPECT_NE(island[1], island[2]);  // joined only through the ground
  EXPECT_EQ(island[2], island[3]);
  EXPECT_NE(island[4], island[2]);
}

TEST(Islands, RestingIslandSleepsWhole) {
  auto b = bodies(3);
  const std::vector<std::pair<int, int>> pairs = {{1, 2}};
  auto island = findIslands(b, pairs);
  SleepOptions o;
  int slept = 0;
  for (int i = 0; i < 100; ++i) slept += updateSleep(b, island, 0.01, o);
  EXPECT_EQ(slept, 3);
  EXPECT_TRUE(b[1].sleeping && b[2].sleeping && b[3].sleeping);
}

TEST(Islands, OneMovingBodyKeepsItsIslandAwake) {
  auto b = bodies(3);
  b[3].linearVelocity = {0.5, 0, 0};
  const auto island = findIslands(b, std::vector<std::pair<int, int>>{{1, 2}, {2, 3}});
  SleepOptions o;
  for (int i = 0; i < 100; ++i) EXPECT_EQ(updateSleep(b, island, 0.01, o), 0);
  EXPECT_FALSE(b[1].sleeping);
}

TEST(Islands, MovingBodiesStayAwake) {
  auto b = bodies(1);
  b[1].linearVelocity = {0.5, 0, 0};
  const auto island = findIslands(b, {});
  for (int i = 0; i < 100; ++i) EXPECT_EQ(updateSleep(b, island, 0.01, {}), 0);
}

}  // namespace
}  // namespace hb
