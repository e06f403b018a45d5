#pragma once
// Mass properties of a closed triangle mesh of uniform density, by exact volume integrals: the
// divergence theorem turns the volume integrals of 1, x and x x^T into sums over signed
// tetrahedra (origin, a, b, c) of the surface triangles (Mirtich 1996; Eberly, "Polyhedral Mass
// Properties (Revisited)"). For a tetrahedron with a vertex at the origin and edge matrix
// A = [a b c]: volume V = det(A) / 6, first moment V (a + b + c) / 4, and second moment
// int x x^T dV = V / 20 (a a^T + b b^T + c c^T + s s^T) with s = a + b + c.

#include <Eigen/Core>
#include <array>
#include <span>
#include <stdexcept>

namespace hb {

struct MassProperties {
  double mass = 0.0;                                       ///< kg
  double volume = 0.0;                                     ///< m^3
  Eigen::Vector3d centerOfMass = Eigen::Vector3d::Zero();  ///< in the mesh frame, m
  /// Inertia tensor about the centre of mass, axes of the mesh frame (kg m^2).
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

/// Thrown for open, inverted or degenerate meshes (non-positive volume, non-finite values).
class MassPropertiesError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Mass properties of the solid bounded by the triangles (outward winding), with the given
/// density (kg/m^3). Throws MassPropertiesError for a non-positive volume.
MassProperties computeMassProperties(std::span<const Eigen::Vector3d> vertices,
                                     std::span<const std::array<int, 3>> triangles, double density);

/// The same properties rescaled to a given total mass (the shape's density follows).
MassProperties withMass(const MassProperties& properties, double mass);

/// A part's mass properties placed in a common frame: its own frame turned by `rotation`, then
/// moved by `offset`.
struct PlacedMass {
  MassProperties properties;
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();
};

/// The mass properties of the parts together, in the common frame: masses and volumes added,
/// the centre of mass their weighted mean, the inertia each part's turned and moved to it by
/// the parallel-axis theorem. Parts that overlap count twice where they do.
MassProperties combinedMassProperties(std::span<const PlacedMass> parts);

/// Mass properties of primitive solids in closed form, in the shape's own frame (axis z where
/// it matters, as collision/shape.hpp places them): centred, except the cone's centre of mass.
MassProperties boxMassProperties(const Eigen::Vector3d& halfExtents, double density);
MassProperties sphereMassProperties(double radius, double density);
/// A cylinder of the given radius from z = -halfLength to +halfLength.
MassProperties cylinderMassProperties(double radius, double halfLength, double density);
/// A solid cone, base disk of the given radius at z = -halfLength, apex at +halfLength: its
/// centre of mass is a quarter of the height above the base, at z = -halfLength / 2.
MassProperties coneMassProperties(double radius, double halfLength, double density);
/// A capsule: the segment z in [-halfLength, halfLength] grown by the radius (a cylinder and
/// two hemispherical caps).
MassProperties capsuleMassProperties(double radius, double halfLength, double density);
MassProperties ellipsoidMassProperties(const Eigen::Vector3d& radii, double density);

}  // namespace hb
