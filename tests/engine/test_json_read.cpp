// The JSON readers shared by scenes, query lines and the Python module: unit quaternions and
// momentum schedules, read or refused with the place they came from.

#include <gtest/gtest.h>

#include <string>

#include "engine/json_read.hpp"

namespace hb {
namespace {

using namespace hb::json_read;

std::string errorOf(const auto& read) {
  try {
    read();
  } catch (const JsonError& e) {
    return e.what();
  }
  return "";
}

TEST(JsonRead, UnitQuaternionIsNormalisedExactlyWithinItsTolerance) {
  const Eigen::Quaterniond q = unitQuaternion(Eigen::Vector4d(1.0 + 5e-7, 0.0, 0.0, 0.0), "q");
  EXPECT_EQ(q.norm(), 1.0);
  EXPECT_EQ(q.w(), 1.0);
  const std::string error =
      errorOf([] { unitQuaternion(Eigen::Vector4d(0.0, 0.0, 0.0, 1.1), "bodies[2].pose.q"); });
  EXPECT_NE(error.find("bodies[2].pose.q"), std::string::npos) << error;
  EXPECT_NE(error.find("expected a unit quaternion [w, x, y, z], norm is 1.1"), std::string::npos)
      << error;
}

TEST(JsonRead, MomentumScheduleByName) {
  EXPECT_EQ(parseMomentumSchedule(json("paper"), "s"), MomentumSchedule::Paper);
  EXPECT_EQ(parseMomentumSchedule(json("late"), "s"), MomentumSchedule::Late);
  for (const MomentumSchedule s : {MomentumSchedule::Paper, MomentumSchedule::Late}) {
    EXPECT_EQ(momentumScheduleNamed(toString(s)), s);
  }
  EXPECT_FALSE(momentumScheduleNamed("early").has_value());
  const std::string error =
      errorOf([] { parseMomentumSchedule(json("early"), "solver.momentum_schedule"); });
  EXPECT_NE(error.find("solver.momentum_schedule"), std::string::npos) << error;
  EXPECT_NE(error.find("unknown momentum schedule 'early' (expected paper or late)"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace hb
