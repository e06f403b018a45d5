#pragma once
// One contact point between two bodies, as the solver sees it.

#include <Eigen/Core>
#include <limits>

namespace hb {

struct ContactConstraint {
  int bodyA = -1;
  int bodyB = -1;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< world, midway between the surfaces
  /// Where B's lever arm starts, relative to `point` (m): zero, or, for a contact where the
  /// bodies meet later in the step (engine: contacts at their time of impact), A's translation
  /// relative to B until then, so that each body pushes with the arm it has when they touch.
  Eigen::Vector3d offsetOnB = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  ///< world, unit, from A towards B
  Eigen::Vector3d tangent1 = Eigen::Vector3d::UnitX();
  Eigen::Vector3d tangent2 = Eigen::Vector3d::UnitY();
  /// Penetration (m): > 0 overlapping, < 0 a speculative gap still open.
  double depth = 0.0;
  /// Most penetration (m) the position correction may leave in place for this contact (the
  /// solver's slop applies when smaller): a body thinner than the slop would sink through.
  double maxSlop = std::numeric_limits<double>::infinity();
  double friction = 0.5;
  double restitution = 0.0;
  /// Accumulated impulse in the contact frame (normal, tangent1, tangent2), N s. Set it before
  /// solving to warm-start; the solver leaves the final impulse here.
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();

  /// Fills tangent1/tangent2 as an orthonormal basis completing the normal.
  void buildTangents();
};

inline void ContactConstraint::buildTangents() {
  // Branch on the normal's smallest component for a well-conditioned cross product.
  const Eigen::Vector3d n = normal;
  const Eigen::Vector3d axis = std::abs(n.x()) < 0.57735   ? Eigen::Vector3d::UnitX()
                               : std::abs(n.y()) < 0.57735 ? Eigen::Vector3d::UnitY()
                                                           : Eigen::Vector3d::UnitZ();
  tangent1 = n.cross(axis).normalized();
  tangent2 = n.cross(tangent1);
}

}  // namespace hb
