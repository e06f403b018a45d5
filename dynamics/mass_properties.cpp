#include "dynamics/mass_properties.hpp"

#include <Eigen/Geometry>

#include <cmath>
#include <numbers>
#include <string>

namespace hb {

MassProperties computeMassProperties(std::span<const Eigen::Vector3d> vertices,
                                     std::span<const std::array<int, 3>> triangles,
                                     double density) {
  if (!(density > 0.0) || !std::isfinite(density)) {
    throw MassPropertiesError("density must be finite and > 0");
  }
  // Integrals about the mesh's vertex mean rather than its origin: YCB scans sit far from their
  // frame origin, and centring keeps the second moments well conditioned.
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();
  for (const auto& v : vertices) reference += v;
  if (!vertices.empty()) reference /= static_cast<double>(vertices.size());

  double volume = 0.0;
  Eigen::Vector3d first = Eigen::Vector3d::Zero();
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();
  const int n = static_cast<int>(vertices.size());
  for (const auto& t : triangles) {
    for (int i : t) {
      if (i < 0 || i >= n) throw MassPropertiesError("triangle index out of range");
    }
    const Eigen::Vector3d a = vertices[t[0]] - reference;
    const Eigen::Vector3d b = vertices[t[1]] - reference;
    const Eigen::Vector3d c = vertices[t[2]] - reference;
    const double v = a.dot(b.cross(c)) / 6.0;
    const Eigen::Vector3d s = a + b + c;
    volume += v;
    first += v * s / 4.0;
    second += (v / 20.0) *
              (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (!(volume > 0.0) || !std::isfinite(volume)) {
    throw MassPropertiesError("mesh encloses no positive volume (open, inverted or flat): " +
                              std::to_string(volume) + " m^3");
  }
  MassProperties props;
  props.volume = volume;
  props.mass = density * volume;
  const Eigen::Vector3d com = first / volume;
  props.centerOfMass = com + reference;
  // Second moment about the centre of mass, then I = tr(C) Id - C.
  const Eigen::Matrix3d c = density * (second - volume * com * com.transpose());
  props.inertia = c.trace() * Eigen::Matrix3d::Identity() - c;
  if (!props.inertia.allFinite()) throw MassPropertiesError("non-finite inertia");
  return props;
}

MassProperties withMass(const MassProperties& properties, double mass) {
  if (!(mass > 0.0) || !std::isfinite(mass)) throw MassPropertiesError("mass must be > 0");
  MassProperties scaled = properties;
  scaled.inertia *= mass / properties.mass;
  scaled.mass = mass;
  return scaled;
}

MassProperties boxMassProperties(const Eigen::Vector3d& h, double density) {
  MassProperties p;
  p.volume = 8.0 * h.prod();
  p.mass = density * p.volume;
  const Eigen::Vector3d e = 2.0 * h;
  p.inertia = (p.mass / 12.0) * Eigen::Vector3d(e.y() * e.y() + e.z() * e.z(),
                                                e.x() * e.x() + e.z() * e.z(),
                                                e.x() * e.x() + e.y() * e.y())
                                    .asDiagonal();
  return p;
}

MassProperties sphereMassProperties(double r, double density) {
  MassProperties p;
  p.volume = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  p.mass = density * p.volume;
  p.inertia = (0.4 * p.mass * r * r) * Eigen::Matrix3d::Identity();
  return p;
}

}  // namespace hb
