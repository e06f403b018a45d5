#include "render/joint_draw.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace hb {
namespace {

const Color kAnchorA(1.0f, 0.55f, 0.10f, 1.0f);
const Color kAnchorB(0.05f, 0.70f, 0.85f, 1.0f);
const Color kGap(0.95f, 0.10f, 0.10f, 1.0f);
const Color kAxis(0.90f, 0.70f, 0.05f, 1.0f);
const Color kLimit(0.75f, 0.20f, 0.80f, 1.0f);
const Color kAngle(0.10f, 0.65f, 0.25f, 1.0f);
const Color kTarget(0.15f, 0.35f, 0.95f, 1.0f);

/// The arc's segments: one per 5 degrees of its span, from 2 to 72.
int arcSegments(double span) {
  const double perSegment = 5.0 * std::numbers::pi / 180.0;
  return std::clamp(static_cast<int>(std::ceil(span / perSegment)), 2, 72);
}

void revoluteParts(const Joint& joint, double position, double size, JointGlyph& glyph) {
  const Pose& fa = glyph.frameA;
  const Eigen::Vector3d axis = fa.q * Eigen::Vector3d::UnitZ();
  glyph.axisFrom = fa.p - size * axis;
  glyph.axisTo = fa.p + size * axis;
  glyph.radius = 0.8 * size;
  glyph.angleTip = jointArcPoint(fa, position, size);
  if (joint.limit.enabled) {
    const double lower = joint.limit.lower, upper = joint.limit.upper;
    const int segments = arcSegments(upper - lower);
    for (int i = 0; i <= segments; ++i) {
      const double angle = lower + (upper - lower) * i / segments;
      glyph.limitArc.push_back(jointArcPoint(fa, angle, glyph.radius));
    }
  }
  if (joint.motor.enabled && joint.motor.servo()) {
    glyph.target = jointArcPoint(fa, joint.motor.targetPosition, glyph.radius);
  }
}

void prismaticParts(const Joint& joint, double position, double size, JointGlyph& glyph) {
  const Pose& fa = glyph.frameA;
  const Eigen::Vector3d axis = fa.q * Eigen::Vector3d::UnitZ();
  double from = joint.limit.enabled ? joint.limit.lower : -size;
  double to = joint.limit.enabled ? joint.limit.upper : size;
  from = std::min(from, position) - 0.25 * size;
  to = std::max(to, position) + 0.25 * size;
  glyph.axisFrom = fa.p + from * axis;
  glyph.axisTo = fa.p + to * axis;
  if (joint.limit.enabled) {
    glyph.limitTicks = {fa.p + joint.limit.lower * axis, fa.p + joint.limit.upper * axis};
  }
  if (joint.motor.enabled && joint.motor.servo()) {
    glyph.target = Eigen::Vector3d(fa.p + joint.motor.targetPosition * axis);
  }
}

void coneParts(const Joint& joint, double size, JointGlyph& glyph) {
  const Pose& fa = glyph.frameA;
  glyph.axisFrom = fa.p;
  glyph.axisTo = fa.p + size * (fa.q * Eigen::Vector3d::UnitZ());
  glyph.angleTip = glyph.frameB.p + size * (glyph.frameB.q * Eigen::Vector3d::UnitZ());
  const double half = joint.limit.upper;
  constexpr int kRimSegments = 24;
  for (int i = 0; i <= kRimSegments; ++i) {
    const double around = 2.0 * std::numbers::pi * i / kRimSegments;
    const Eigen::Vector3d local(std::sin(half) * std::cos(around),
                                std::sin(half) * std::sin(around), std::cos(half));
    glyph.coneRim.push_back(fa.p + size * (fa.q * local));
  }
}

void twistParts(const Joint& joint, double size, JointGlyph& glyph) {
  const Pose& fa = glyph.frameA;
  const double lower = joint.twist.lower, upper = joint.twist.upper;
  const double radius = 0.5 * size;
  const int segments = arcSegments(upper - lower);
  for (int i = 0; i <= segments; ++i) {
    glyph.twistArc.push_back(jointArcPoint(fa, lower + (upper - lower) * i / segments, radius));
  }
  const double twist = jointPositionBetween(JointType::Revolute, fa, glyph.frameB);
  glyph.twistTip = jointArcPoint(fa, twist, radius);
}

}  // namespace

Eigen::Vector3d jointArcPoint(const Pose& frameA, double angle, double radius) {
  // At angle q, B's frame x is A's turned by q about A's z: cos q x_A + sin q y_A.
  const Eigen::Vector3d local(std::cos(angle), std::sin(angle), 0.0);
  return frameA.p + radius * (frameA.q * local);
}

JointGlyph jointGlyph(const Joint& joint, const RigidBody& a, const RigidBody& b, double size) {
  JointGlyph glyph;
  glyph.type = joint.type;
  glyph.frameA = jointFrameA(joint, a);
  glyph.frameB = jointFrameB(joint, b);
  glyph.anchorA = glyph.frameA.p;
  glyph.anchorB = glyph.frameB.p;
  glyph.axisFrom = glyph.axisTo = glyph.anchorA;
  const double position = jointPosition(joint, a, b);
  Eigen::Vector3d gapFrom = glyph.anchorA;
  if (joint.type == JointType::Revolute) revoluteParts(joint, position, size, glyph);
  if (joint.type == JointType::Spherical && joint.limit.enabled) coneParts(joint, size, glyph);
  if (joint.type == JointType::Spherical && joint.twist.enabled) twistParts(joint, size, glyph);
  if (joint.type == JointType::Prismatic) {
    prismaticParts(joint, position, size, glyph);
    gapFrom += position * (glyph.frameA.q * Eigen::Vector3d::UnitZ());
  }
  if ((glyph.anchorB - gapFrom).norm() > kJointApart) glyph.gap = {gapFrom, glyph.anchorB};
  return glyph;
}

void drawJointGlyph(const JointGlyph& glyph, double size, LineList& lines) {
  const Eigen::Matrix3d axesA = glyph.frameA.rotation();
  if (hasFreeAxis(glyph.type) || !glyph.coneRim.empty()) {
    lines.line(glyph.axisFrom, glyph.axisTo, kAxis);
  }
  if (!glyph.coneRim.empty()) {
    // The rim and four lines of the wall; B's frame z, which stays inside.
    for (size_t i = 1; i < glyph.coneRim.size(); ++i) {
      lines.line(glyph.coneRim[i - 1], glyph.coneRim[i], kLimit);
      if ((i - 1) % 6 == 0) lines.line(glyph.anchorA, glyph.coneRim[i - 1], kLimit);
    }
    lines.arrow(glyph.anchorB, glyph.angleTip, kAngle);
  }
  if (glyph.type == JointType::Revolute) {
    if (!glyph.limitArc.empty()) {
      // The arc and the radii to its ends: a sector from the lower limit to the upper.
      lines.line(glyph.anchorA, glyph.limitArc.front(), kLimit);
      lines.line(glyph.anchorA, glyph.limitArc.back(), kLimit);
      for (size_t i = 1; i < glyph.limitArc.size(); ++i) {
        lines.line(glyph.limitArc[i - 1], glyph.limitArc[i], kLimit);
      }
    }
    if (glyph.target) lines.line(glyph.anchorA, *glyph.target, kTarget);
    // Last, over a limit it rests on, and past the arc.
    lines.arrow(glyph.anchorA, glyph.angleTip, kAngle);
  }
  if (!glyph.twistArc.empty()) {
    // A sector from the lower twist limit to the upper, and the twist now.
    lines.line(glyph.anchorA, glyph.twistArc.front(), kLimit);
    lines.line(glyph.anchorA, glyph.twistArc.back(), kLimit);
    for (size_t i = 1; i < glyph.twistArc.size(); ++i) {
      lines.line(glyph.twistArc[i - 1], glyph.twistArc[i], kLimit);
    }
    lines.line(glyph.anchorA, glyph.twistTip, kAngle);
  }
  for (const Eigen::Vector3d& tick : glyph.limitTicks) {
    // Across the axis, along A's frame x and y.
    for (int side = 0; side < 2; ++side) {
      const Eigen::Vector3d d = 0.3 * size * axesA.col(side);
      lines.line(tick - d, tick + d, kLimit);
    }
  }
  if (glyph.target) lines.cross(*glyph.target, 0.1 * size, kTarget);
  if (glyph.gap) lines.line(glyph.gap->first, glyph.gap->second, kGap);
  lines.cross(glyph.anchorA, 0.15 * size, kAnchorA);
  lines.box(Obb{glyph.anchorB, glyph.frameB.rotation(), Eigen::Vector3d::Constant(0.05 * size)},
            kAnchorB);
}

}  // namespace hb
