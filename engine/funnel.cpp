#include "engine/funnel.hpp"

#include <cmath>
#include <numbers>

#include "collision/portable_math.hpp"

namespace hb {

std::vector<std::pair<Shape, Pose>> funnelPanels(const FunnelDescription& funnel) {
  const double flare = funnel.topRadius - funnel.bottomRadius;  // radial growth over the height
  const double slant = portable::hypot(flare, funnel.height);
  const double thickness = funnel.wallThickness;
  const double halfAngle = std::numbers::pi / funnel.panels;
  // Neighbouring inner faces meet at the polygon corner, r * tan(pi/n) from the panel's centre
  // line, widest at the rim; the outer faces meet further out (the rim radius grows by at most
  // the thickness there). Half a thickness more gives an overlap that closes the seams.
  const double halfWidth =
      (funnel.topRadius + thickness) * portable::tan(halfAngle) + 0.5 * thickness;
  const Shape panel = Shape::box({halfWidth, 0.5 * slant, 0.5 * thickness});
  const double midRadius = 0.5 * (funnel.bottomRadius + funnel.topRadius);
  const double midZ = funnel.bottomZ + 0.5 * funnel.height;

  std::vector<std::pair<Shape, Pose>> panels;
  panels.reserve(funnel.panels);
  for (int i = 0; i < funnel.panels; ++i) {
    const double azimuth = 2.0 * halfAngle * i;
    const Eigen::Vector3d radial(portable::cos(azimuth), portable::sin(azimuth), 0.0);
    const Eigen::Vector3d tangent(-radial.y(), radial.x(), 0.0);
    // Up the cone's generator, and the outward normal of the tangent plane; tangent x up = out,
    // so the columns form a proper rotation.
    const Eigen::Vector3d up = (flare * radial + funnel.height * Eigen::Vector3d::UnitZ()) / slant;
    const Eigen::Vector3d out = (funnel.height * radial - flare * Eigen::Vector3d::UnitZ()) / slant;
    Eigen::Matrix3d rotation;
    rotation << tangent, up, out;
    Pose pose;
    pose.q = Eigen::Quaterniond(rotation).normalized();
    // The inner face's centre line is the generator; the box centre sits half a wall behind it.
    pose.p = midRadius * radial + midZ * Eigen::Vector3d::UnitZ() + 0.5 * thickness * out;
    panels.emplace_back(panel, pose);
  }
  return panels;
}

}  // namespace hb
