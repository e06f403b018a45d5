#include "dynamics/integrator.hpp"

namespace hb {

void integrateVelocities(std::span<RigidBody> bodies, const Eigen::Vector3d& gravity, double dt) {
  for (RigidBody& b : bodies) {
    if (b.isActive()) b.linearVelocity += dt * gravity;
  }
}

void integratePositions(std::span<RigidBody> bodies, const PseudoVelocities& pseudo, double dt) {
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
    // dq/dt = 1/2 (0, w) q
    const Eigen::Quaterniond wq(0.0, w.x(), w.y(), w.z());
    Eigen::Quaterniond dq = wq * b.orientation;
    b.orientation.coeffs() += 0.5 * dt * dq.coeffs();
    b.orientation.normalize();
  }
}

}  // namespace hb
