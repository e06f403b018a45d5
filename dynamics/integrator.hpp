#pragma once
// Semi-implicit (symplectic) Euler at a fixed step: velocities first from the external forces,
// then, after the contact solve, positions from the new velocities; quaternions renormalised.
// The gyroscopic term is not integrated (angular velocity is held constant in the world frame
// over a step), as is usual at 120 Hz.

#include <Eigen/Core>
#include <span>

#include "dynamics/contact_solver.hpp"
#include "dynamics/rigid_body.hpp"

namespace hb {

/// v += dt * gravity for every active body.
void integrateVelocities(std::span<RigidBody> bodies, const Eigen::Vector3d& gravity, double dt);

/// x += dt * (v + v_pseudo); q += dt/2 (w + w_pseudo) q, renormalised. Active bodies only.
/// `pseudo` may be empty (no position correction).
void integratePositions(std::span<RigidBody> bodies, const PseudoVelocities& pseudo, double dt);

}  // namespace hb
