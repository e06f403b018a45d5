#include "dynamics/integrator.hpp"

namespace hb {

IntegratorStats RigidBodyIntegrator::integrateVelocities(std::span<RigidBody> bodies,
                                                         const Eigen::Vector3d& gravity,
                                                         double dt) {
  IntegratorStats stats;
  rotation_.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    RigidBody& b = bodies[i];
    if (!b.isActive()) continue;
    b.linearVelocity += dt * gravity;
    const FreeRotationStep step = freeRotationStep(
        b.inertiaBody, b.inverseInertiaBody, b.orientation, b.angularVelocity, dt, freeRotation_);
    if (!step.converged) ++stats.unconvergedRotations;
    const Eigen::Matrix3d r = b.orientation.toRotationMatrix();
    RotationStep& rotation = rotation_[i];
    rotation.inertiaWorld = r * b.inertiaBody * r.transpose();
    b.angularVelocity = step.stepAngularVelocity;
    rotation.momentumOffset = step.angularMomentum - rotation.inertiaWorld * b.angularVelocity;
  }
  return stats;
}

void RigidBodyIntegrator::integratePositions(std::span<RigidBody> bodies,
                                             const PseudoVelocities& pseudo, double dt) {
  const bool hasPseudo = pseudo.linear.size() == bodies.size();
  for (size_t i = 0; i < bodies.size(); ++i) {
    RigidBody& b = bodies[i];
    if (!b.isActive()) continue;
    Eigen::Vector3d v = b.linearVelocity;
    Eigen::Vector3d w = b.angularVelocity;
    if (hasPseudo) {
      v += pseudo.linear[i];
      w += pseudo.angular[i];
    }
    b.position += dt * v;
    b.orientation = rotateBy(b.orientation, w, dt);
    // The step's angular momentum, contact moments included, at the new orientation.
    const RotationStep& rotation = rotation_.at(i);
    const Eigen::Vector3d momentum =
        rotation.inertiaWorld * b.angularVelocity + rotation.momentumOffset;
    b.angularVelocity = b.inverseInertiaWorld() * momentum;
  }
}

}  // namespace hb
