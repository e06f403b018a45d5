#pragma once
// Rigid-body state. The body frame sits at the centre of mass; positions in metres, velocities
// in the world frame (linear m/s at the centre of mass, angular rad/s).

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>

#include "dynamics/mass_properties.hpp"

namespace hb {

struct RigidBody {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();               ///< centre of mass, world
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  ///< body -> world
  Eigen::Vector3d linearVelocity = Eigen::Vector3d::Zero();
  Eigen::Vector3d angularVelocity = Eigen::Vector3d::Zero();

  double inverseMass = 0.0;                                      ///< 0 for static bodies
  Eigen::Matrix3d inertiaBody = Eigen::Matrix3d::Zero();         ///< about the centre of mass
  Eigen::Matrix3d inverseInertiaBody = Eigen::Matrix3d::Zero();  ///< its inverse
  bool isStatic = true;
  bool sleeping = false;
  double restingTime = 0.0;  ///< seconds spent below the sleep thresholds

  /// A dynamic body with the given mass properties (centre of mass taken as the body origin).
  static RigidBody dynamic(const MassProperties& properties);
  static RigidBody fixed();

  /// Simulated: dynamic and awake.
  bool isActive() const { return !isStatic && !sleeping; }
  /// World-frame inverse inertia R I^-1 R^T (zero for static bodies).
  Eigen::Matrix3d inverseInertiaWorld() const {
    const Eigen::Matrix3d r = orientation.toRotationMatrix();
    return r * inverseInertiaBody * r.transpose();
  }
  /// World-frame angular momentum about the centre of mass, R I R^T w.
  Eigen::Vector3d angularMomentum() const {
    const Eigen::Matrix3d r = orientation.toRotationMatrix();
    return r * (inertiaBody * (r.transpose() * angularVelocity));
  }
  /// Velocity of the material point at world position x.
  Eigen::Vector3d pointVelocity(const Eigen::Vector3d& x) const {
    return linearVelocity + angularVelocity.cross(x - position);
  }
  /// Kinetic energy (J) with the body's mass recovered from its inverse.
  double kineticEnergy() const;
  /// A state a simulation can continue from: finite position and velocities whose squares (the
  /// kinetic energy) are finite too, and a unit orientation (an angular velocity of 1e300 rad/s
  /// turns it into zeros, all finite).
  bool isValid() const {
    return position.allFinite() && linearVelocity.squaredNorm() < HUGE_VAL &&
           angularVelocity.squaredNorm() < HUGE_VAL &&
           std::abs(orientation.squaredNorm() - 1.0) < 1e-6;
  }
};

}  // namespace hb
