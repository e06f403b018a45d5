// The debug draw stays readable on a full scene: with a body selected it draws that body's pairs
// and contacts and its neighbours' boxes only; a pair with a static ends where the static is near;
// the contacts kept for sleeping bodies are drawn, in a colour of their own.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/scene.hpp"
#include "engine/world.hpp"
#include "render/debug_draw.hpp"

namespace hb {
namespace {

// A contact is a cross (3 lines) and an arrow with its head (5 lines), 2 vertices a line.
constexpr std::size_t kContactVertices = 2 * (3 + 5);

bool sameColor(const LineVertex& v, const Color& c) {
  return v.color[0] == c[0] && v.color[1] == c[1] && v.color[2] == c[2] && v.color[3] == c[3];
}

World settledStack() {
  return World(loadScene(HB_SOURCE_DIR "/assets/scenes/stack.json"));
}

TEST(DebugDraw, ASelectedBodyShowsItsOwnContactsAndNeighboursOnly) {
  World world = settledStack();
  for (int i = 0; i < 5; ++i) world.step();  // resting on one another, awake
  ASSERT_GT(world.contacts().size(), 8u);
  DebugDraw draw;
  DebugDrawOptions options;
  options.contacts = true;
  LineList all;
  draw.build(world, options, all);
  EXPECT_EQ(all.vertices().size(), kContactVertices * world.contacts().size());

  const int middle = 2;  // the second box from the ground (body 0 holds the statics)
  options.focusBody = middle;
  LineList focused;
  draw.build(world, options, focused);
  const auto own = std::count_if(
      world.contacts().begin(), world.contacts().end(),
      [&](const ContactConstraint& c) { return c.bodyA == middle || c.bodyB == middle; });
  ASSERT_GT(own, 0);
  EXPECT_EQ(focused.vertices().size(), kContactVertices * static_cast<std::size_t>(own));
  EXPECT_LT(focused.vertices().size(), all.vertices().size());

  // Boxes: the selected body's and those it meets in the narrow phase (one box is 12 lines).
  options.contacts = false;
  options.obbs = true;
  LineList boxes;
  draw.build(world, options, boxes);
  EXPECT_EQ(boxes.vertices().size(), 3u * 24u);  // boxes 1, 2 and 3 of the stack

  // Switched off, the focus draws everything again.
  options.focusSelected = false;
  LineList every;
  draw.build(world, options, every);
  EXPECT_GT(every.vertices().size(), boxes.vertices().size());
}

TEST(DebugDraw, APairWithTheGroundIsDrawnToWhereTheGroundIsNear) {
  World world = settledStack();
  for (int i = 0; i < 5; ++i) world.step();
  DebugDraw draw;
  DebugDrawOptions options;
  options.pairs = true;
  LineList lines;
  draw.build(world, options, lines);
  ASSERT_EQ(lines.vertices().size(), 2 * world.narrowPhaseRecords().size());
  // The stack's boxes are 0.2 m: every pair's line is short, the bottom box's with the ground
  // too (the ground's box, 100 m wide, has its centre far below).
  for (std::size_t v = 0; v < lines.vertices().size(); v += 2) {
    const auto& a = lines.vertices()[v].position;
    const auto& b = lines.vertices()[v + 1].position;
    const float length = std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    EXPECT_LT(length, 0.25f) << "pair " << v / 2;
  }
}

TEST(DebugDraw, SleepingBodiesShowTheirRestingContactsInTheirOwnColour) {
  World world = settledStack();
  world.step();
  ASSERT_FALSE(world.contacts().empty());
  for (int i = 0; i < 600 && !world.contacts().empty(); ++i) world.step();
  ASSERT_TRUE(world.contacts().empty()) << "the stack did not fall asleep";
  const auto resting = world.restingContacts();
  ASSERT_GT(resting.size(), 8u);
  DebugDraw draw;
  DebugDrawOptions options;
  options.contacts = true;
  LineList lines;
  draw.build(world, options, lines);
  // Each carries its weight's share: a cross and an arrow, all in the resting colour.
  EXPECT_EQ(lines.vertices().size(), kContactVertices * resting.size());
  EXPECT_TRUE(std::all_of(lines.vertices().begin(), lines.vertices().end(),
                          [](const auto& v) { return sameColor(v, DebugDraw::restingColor()); }));
  for (const double impulse : {0.0, 0.01, 1.0}) {
    const Color awake = DebugDraw::impulseColor(impulse, options.impulseScale);
    EXPECT_NE(awake, DebugDraw::restingColor()) << impulse;
  }
}

}  // namespace
}  // namespace hb
