#pragma once
// A joint's debug drawing as plain geometry (a JointGlyph), computed from the joint and its two
// bodies without a window, then appended to a LineList: a marker at each body's anchor (the
// joint frames' origins), a line between the anchors when they are apart, the free axis of a
// revolute or prismatic joint (A's frame z), a revolute joint's angle and limits as an arc about
// the axis, a prismatic joint's limits as ticks along it, and a servo's target.

#include <Eigen/Core>
#include <optional>
#include <vector>

#include "dynamics/joint.hpp"
#include "dynamics/rigid_body.hpp"
#include "render/line_list.hpp"

namespace hb {

/// Anchors closer than this (m) count as together: no line is drawn between them.
constexpr double kJointApart = 1e-4;

struct JointGlyph {
  JointType type = JointType::Spherical;
  Pose frameA;  ///< the joint frames in the world (jointFrameA, jointFrameB)
  Pose frameB;
  Eigen::Vector3d anchorA = Eigen::Vector3d::Zero();  ///< frameA.p
  Eigen::Vector3d anchorB = Eigen::Vector3d::Zero();  ///< frameB.p
  /// The joint's error as a segment, when longer than kJointApart: from A's anchor to B's (for a
  /// prismatic joint from the point of A's axis nearest B's anchor, the slide not being an error).
  std::optional<std::pair<Eigen::Vector3d, Eigen::Vector3d>> gap;
  /// A revolute or prismatic joint's axis, along A's frame z (equal ends for the others).
  Eigen::Vector3d axisFrom = Eigen::Vector3d::Zero();
  Eigen::Vector3d axisTo = Eigen::Vector3d::Zero();
  /// Revolute: the arc from the lower limit to the upper one, about the axis at `radius` from it,
  /// angles measured from A's frame x towards its y (the joint's position; empty without limits).
  std::vector<Eigen::Vector3d> limitArc;
  double radius = 0.0;
  /// Revolute: the point `size` from the axis at the joint's position (where B's frame x
  /// points), past the arc.
  Eigen::Vector3d angleTip = Eigen::Vector3d::Zero();
  /// Prismatic: the limits' points on the axis, lower then upper (empty without limits).
  std::vector<Eigen::Vector3d> limitTicks;
  /// Spherical with a cone limit: the cone's rim, `size` from the anchor along its wall about A's
  /// frame z (a closed loop; empty without a limit); angleTip is then B's frame z, `size` long.
  std::vector<Eigen::Vector3d> coneRim;
  /// Spherical with a twist limit: the arc from its lower to its upper limit about A's frame z
  /// at half `size` (as a revolute joint's), and the point on it at the twist now.
  std::vector<Eigen::Vector3d> twistArc;
  Eigen::Vector3d twistTip = Eigen::Vector3d::Zero();
  /// A servo's target position: on the circle (revolute) or the axis (prismatic).
  std::optional<Eigen::Vector3d> target;
};

/// The glyph of `joint` between bodies `a` and `b` at their current poses; `size` (m) is the
/// axis's half length and sets the arc's radius (0.8 size) and the markers.
JointGlyph jointGlyph(const Joint& joint, const RigidBody& a, const RigidBody& b, double size);

/// The point at angle `angle` (rad) about a revolute joint's axis, `radius` from A's anchor.
Eigen::Vector3d jointArcPoint(const Pose& frameA, double angle, double radius);

/// Appends the glyph's lines; `size` as given to jointGlyph.
void drawJointGlyph(const JointGlyph& glyph, double size, LineList& lines);

}  // namespace hb
