// Drops land above the funnel mouth, clear of what is there; the mouse spring pulls a body to
// the cursor and holds it there against gravity.

#include <gtest/gtest.h>

#include "apps/viewer/dropper.hpp"
#include "apps/viewer/mouse_spring.hpp"

namespace hb::viewer {
namespace {

SceneDescription funnelScene() {
  const std::string json = R"({"name": "test", "asset_dir": "ycb",
    "statics": [{"type": "ground"}, {"type": "funnel"}]})";
  return parseScene(json, std::filesystem::path(HB_SOURCE_DIR) / "assets");
}

DropControls box() {
  DropControls c;
  c.kind = DropKind::Primitive;
  c.primitive = ShapeType::Box;
  return c;
}

TEST(Dropper, DropsIntoTheFunnelMouth) {
  World world(funnelScene());
  Dropper dropper(1);
  dropper.setWorld(world, {0.0, 0.0, 0.5}, 1.0);
  const FunnelDescription funnel;  // the scene's defaults
  EXPECT_NEAR(dropper.mouth().z(), funnel.bottomZ + funnel.height + 0.12, 1e-12);
  const int b = dropper.drop(world, box());
  const Eigen::Vector3d p = world.rigidBodies()[b].position;
  EXPECT_LT(p.head<2>().norm(), funnel.topRadius);
  EXPECT_GT(p.z(), funnel.bottomZ + funnel.height);
  EXPECT_LT(world.rigidBodies()[b].linearVelocity.z(), 0.0);
}

TEST(Dropper, LiftsNewDropsClearOfOldOnes) {
  World world(funnelScene());
  Dropper dropper(2);
  dropper.setWorld(world, {0.0, 0.0, 0.5}, 1.0);
  DropControls c = box();
  c.spread = 0.0;  // all at the same spot
  for (int i = 0; i < 5; ++i) dropper.drop(world, c);
  const auto& obbs = world.worldObbs();
  for (size_t i = 0; i < obbs.size(); ++i) {
    for (size_t j = i + 1; j < obbs.size(); ++j) {
      if (world.proxies()[i].body == 0 || world.proxies()[j].body == 0) continue;
      EXPECT_FALSE(obbOverlap(obbs[i], obbs[j])) << i << " " << j;
    }
  }
}

TEST(Dropper, RainsAtItsRate) {
  World world(funnelScene());
  Dropper dropper(3);
  dropper.setWorld(world, {0.0, 0.0, 0.5}, 1.0);
  DropControls c = box();
  c.rain = true;
  c.rainRate = 10.0f;
  int dropped = 0;
  for (int i = 0; i < 120; ++i) dropped += dropper.rain(world, c, 1.0 / 120.0);
  EXPECT_NEAR(dropped, 10, 1);
}

TEST(MouseSpring, PullsTheBodyToTheTarget) {
  World world(funnelScene());
  Dropper dropper(4);
  dropper.setWorld(world, {0.0, 0.0, 0.5}, 1.0);
  DropControls c = box();
  c.spin = 0.0f;
  c.downwardSpeed = 0.0f;
  c.lateralSpeed = 0.0f;
  const int b = dropper.drop(world, c);
  MouseSpring spring;
  const Eigen::Vector3d start = world.rigidBodies()[b].position;
  spring.grab(world, b, start, Eigen::Vector3d::UnitY());
  spring.drag(Ray{Eigen::Vector3d(0.3, -1.0, 1.2), Eigen::Vector3d::UnitY()});
  EXPECT_NEAR((spring.target() - Eigen::Vector3d(0.3, start.y(), 1.2)).norm(), 0.0, 1e-12);
  for (int i = 0; i < 240; ++i) {
    spring.apply(world, world.scene().dt);
    world.step();
  }
  EXPECT_LT((spring.anchor(world) - spring.target()).norm(), 0.01);
}

}  // namespace
}  // namespace hb::viewer
