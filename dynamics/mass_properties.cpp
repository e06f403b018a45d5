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

MassProperties combinedMassProperties(std::span<const PlacedMass> parts) {
  MassProperties out;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  for (const PlacedMass& part : parts) {
    out.mass += part.properties.mass;
    out.volume += part.properties.volume;
    moment += part.properties.mass * (part.rotation * part.properties.centerOfMass + part.offset);
  }
  if (!(out.mass > 0.0)) throw MassPropertiesError("parts of no mass together");
  out.centerOfMass = moment / out.mass;
  for (const PlacedMass& part : parts) {
    const Eigen::Vector3d d =
        part.rotation * part.properties.centerOfMass + part.offset - out.centerOfMass;
    out.inertia +=
        part.rotation * part.properties.inertia * part.rotation.transpose() +
        part.properties.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  return out;
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

MassProperties cylinderMassProperties(double r, double halfLength, double density) {
  MassProperties p;
  const double h = 2.0 * halfLength;
  p.volume = std::numbers::pi * r * r * h;
  p.mass = density * p.volume;
  const double across = p.mass * (3.0 * r * r + h * h) / 12.0;
  p.inertia = Eigen::Vector3d(across, across, 0.5 * p.mass * r * r).asDiagonal();
  return p;
}

MassProperties coneMassProperties(double r, double halfLength, double density) {
  MassProperties p;
  const double h = 2.0 * halfLength;
  p.volume = std::numbers::pi * r * r * h / 3.0;
  p.mass = density * p.volume;
  p.centerOfMass = Eigen::Vector3d(0.0, 0.0, -halfLength + h / 4.0);
  // About the centre of mass: 3/20 m r^2 + 3/80 m h^2 across, 3/10 m r^2 along the axis.
  const double across = p.mass * (3.0 * r * r / 20.0 + 3.0 * h * h / 80.0);
  p.inertia = Eigen::Vector3d(across, across, 0.3 * p.mass * r * r).asDiagonal();
  return p;
}

MassProperties capsuleMassProperties(double r, double halfLength, double density) {
  const double h = 2.0 * halfLength;
  const double cylinder = density * std::numbers::pi * r * r * h;
  const double cap = density * 2.0 / 3.0 * std::numbers::pi * r * r * r;  // each hemisphere
  MassProperties p;
  p.mass = cylinder + 2.0 * cap;
  p.volume = p.mass / density;
  // Each cap: 2/5 m r^2 about the axis; across, about the centre, its own 83/320 m r^2 about
  // its centre of mass (3r/8 from the flat face) moved out by h/2 + 3r/8 (parallel axes):
  // 2/5 m r^2 + m h^2 / 4 + 3/8 m h r.
  const double along = 0.5 * cylinder * r * r + 2.0 * 0.4 * cap * r * r;
  const double across = cylinder * (h * h / 12.0 + r * r / 4.0) +
                        2.0 * cap * (0.4 * r * r + h * h / 4.0 + 3.0 * h * r / 8.0);
  p.inertia = Eigen::Vector3d(across, across, along).asDiagonal();
  return p;
}

MassProperties ellipsoidMassProperties(const Eigen::Vector3d& a, double density) {
  MassProperties p;
  p.volume = 4.0 / 3.0 * std::numbers::pi * a.prod();
  p.mass = density * p.volume;
  const Eigen::Vector3d s = a.cwiseProduct(a);
  p.inertia =
      (p.mass / 5.0) * Eigen::Vector3d(s.y() + s.z(), s.x() + s.z(), s.x() + s.y()).asDiagonal();
  return p;
}

}  // namespace hb
