#include "dynamics/integrator.hpp"

namespace hb {

namespace {
constexpr double kEnergyGainLimit = 1.01;
}  // namespace

IntegratorStats RigidBodyIntegrator::integrateVelocities(std::span<RigidBody> bodies,
                                                         const Eigen::Vector3d& gravity, double dt,
                                                         RotationSteps& rotations,
                                                         std::span<const char> limited,
                                                         double turnLimit) {
  rotations.resize(bodies.size());
  outcome_.assign(bodies.size(), 0);
  const double maxSpeed = turnLimit / dt;
  parallelFor_(bodies.size(), [&](std::size_t i) {
    RigidBody& b = bodies[i];
    if (!b.isActive()) return;
    b.linearVelocity += dt * gravity;
    if (i < limited.size() && limited[i]) {
      const double speed = b.angularVelocity.norm();
      if (speed > maxSpeed) {
        b.angularVelocity *= maxSpeed / speed;
        outcome_[i] |= kLimited;
      }
    }
    const FreeRotationStep step = freeRotationStep(
        b.inertiaBody, b.inverseInertiaBody, b.orientation, b.angularVelocity, dt, freeRotation_);
    if (!step.converged) outcome_[i] |= kUnconverged;
    const Eigen::Matrix3d r = b.orientation.toRotationMatrix();
    RotationStep& rotation = rotations[i];
    rotation.inertiaWorld = r * b.inertiaBody * r.transpose();
    b.angularVelocity = step.stepAngularVelocity;
    rotation.momentumOffset = step.angularMomentum - rotation.inertiaWorld * b.angularVelocity;
  });
  IntegratorStats stats;
  for (const char outcome : outcome_) {
    if (outcome & kLimited) ++stats.limitedBodies;
    if (outcome & kUnconverged) ++stats.unconvergedRotations;
  }
  return stats;
}

void RigidBodyIntegrator::integratePositions(std::span<RigidBody> bodies,
                                             const RotationSteps& rotations,
                                             const PseudoVelocities& pseudo, double dt) {
  const bool hasPseudo = pseudo.linear.size() == bodies.size();
  parallelFor_(bodies.size(), [&](std::size_t i) {
    RigidBody& b = bodies[i];
    if (!b.isActive()) return;
    Eigen::Vector3d v = b.linearVelocity;
    if (hasPseudo) v += pseudo.linear[i];
    b.position += dt * v;
    // The step's angular momentum, contact moments included, carried to the orientation the
    // body's own rotation reaches: the conserved quantity of torque-free motion.
    const RotationStep& rotation = rotations.at(i);
    const Eigen::Vector3d momentum =
        rotation.inertiaWorld * b.angularVelocity + rotation.momentumOffset;
    // Free rotation keeps its energy too. A step whose solved rotation strays far from the free
    // one (large turns, contact moments) could map that momentum onto a thin body's weak axis and
    // spin it up from nothing: beyond a percent, its energy is held to what the momentum had at
    // the start (below, the difference is the step's own error, and the momentum stays exact).
    const double start = momentum.dot(b.inverseInertiaWorld() * momentum);
    b.orientation = rotateBy(b.orientation, b.angularVelocity, dt);
    b.angularVelocity = b.inverseInertiaWorld() * momentum;
    const double end = momentum.dot(b.angularVelocity);
    if (end > kEnergyGainLimit * start) b.angularVelocity *= std::sqrt(start / end);
    // The position correction turns the body without changing its motion: the angular velocity
    // turns with it, keeping its body-frame value and its energy.
    if (hasPseudo && !pseudo.angular[i].isZero()) {
      const Eigen::Quaterniond turn =
          rotateBy(Eigen::Quaterniond::Identity(), pseudo.angular[i], dt);
      b.orientation = (turn * b.orientation).normalized();
      b.angularVelocity = turn * b.angularVelocity;
    }
  });
}

}  // namespace hb
