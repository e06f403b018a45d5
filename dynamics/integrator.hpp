#pragma once
// Symplectic Euler at a fixed step, in two stages around the contact solve:
//   1. velocities: v += h g; w becomes the step's angular velocity of the torque-free rotation
//      (the gyroscopic term, dynamics/free_rotation.hpp), so that the solver constrains the
//      motion the body will make;
//   2. positions: x += h (v + v_pseudo), q <- exp(h w) q, and w becomes the angular velocity
//      that carries the step's angular momentum (the free rotation's, plus the contact impulses'
//      moments) at that orientation, its energy no more than the momentum's at the start; then
//      the position correction's turn exp(h w_pseudo) turns the body and w with it.
// Torque-free bodies therefore keep their angular momentum exactly and their rotational energy
// up to the Newton solve's tolerance, and the intermediate-axis flip appears as Euler's
// equations predict.

#include <Eigen/Core>
#include <numbers>
#include <span>
#include <vector>

#include "dynamics/contact_solver.hpp"
#include "dynamics/free_rotation.hpp"
#include "dynamics/rigid_body.hpp"

namespace hb {

struct IntegratorStats {
  /// Bodies whose gyroscopic step hit its iteration cap or a non-finite value (they turned at
  /// their start angular velocity instead).
  int unconvergedRotations = 0;
  /// Bodies whose angular velocity was cut to the turn limit (integrateVelocities).
  int limitedBodies = 0;
};

/// What stage 1 leaves for stage 2, per body: the world inertia at the step's start and the
/// angular momentum the step velocity does not carry (L - I_w w_step), so that after the solve
/// L' = I_w w + offset includes the contact impulses' moments exactly. The caller keeps it
/// between the stages (the world in its step context).
struct RotationStep {
  Eigen::Matrix3d inertiaWorld = Eigen::Matrix3d::Zero();
  Eigen::Vector3d momentumOffset = Eigen::Vector3d::Zero();
};
using RotationSteps = std::vector<RotationStep>;

class RigidBodyIntegrator {
 public:
  /// Stage 1: gravity and the gyroscopic term, for every active body. Free bodies turn at any
  /// speed; a body whose `limited` flag is set (a body with contacts: its contacts are linear in
  /// the step, and faster than about a quarter turn a thin body's far end sweeps through what
  /// they do not see) turns at most `turnLimit` (rad) in the step, its angular velocity scaled
  /// down to that. `limited` may be empty: no body is limited. Fills `rotations` for stage 2.
  IntegratorStats integrateVelocities(std::span<RigidBody> bodies, const Eigen::Vector3d& gravity,
                                      double dt, RotationSteps& rotations,
                                      std::span<const char> limited = {},
                                      double turnLimit = kDefaultTurnLimit);
  /// Stage 2: positions and orientations from the solved velocities (plus the pseudo-velocities
  /// of the position correction, which `pseudo` may leave empty), and the end angular velocity.
  /// Active bodies only; `rotations` as stage 1 left them for the same bodies.
  void integratePositions(std::span<RigidBody> bodies, const RotationSteps& rotations,
                          const PseudoVelocities& pseudo, double dt);

  FreeRotationOptions& freeRotationOptions() { return freeRotation_; }
  /// How the stages share out their bodies (each body's update touches no other); by default
  /// one after the other.
  void setParallelFor(ParallelFor parallelFor) { parallelFor_ = std::move(parallelFor); }

  /// rad: the default turn limit of a body with contacts in one (sub)step, a quarter turn
  /// (Box2D's b2_maxRotation per substep). Spinning faster, the contacts' impulses, applied to the
  /// step's average rotation, no longer dissipate the spin's energy.
  static constexpr double kDefaultTurnLimit = 0.25 * std::numbers::pi;

 private:
  /// Per body, what stage 1 did to it (kLimited, kUnconverged), counted once its bodies are done.
  static constexpr char kLimited = 1, kUnconverged = 2;
  std::vector<char> outcome_;
  FreeRotationOptions freeRotation_;
  ParallelFor parallelFor_ = ContactSolver::inOrder;
};

}  // namespace hb
