#pragma once
// Projected Gauss–Seidel on the second-order Coulomb cone, at the velocity level, with
// split-impulse position correction (Le Lidec et al., "Contact models in robotics: a comparative
// analysis", the PGS variant; stages named as in Box2D v3's solver).
//
// Per contact i with lever arms r_A, r_B and contact frame C = [n t1 t2] (n from A towards B),
// the relative velocity in the contact frame is u = C^T (v_B + w_B x r_B - v_A - w_A x r_A).
// An impulse lambda (contact frame) changes it by W lambda, with the 3x3 Delassus block
//   W = C^T (K_A + K_B) C,   K = m^-1 Id - [r]x I^-1 [r]x     ([r]x: cross-product matrix),
// summed over the bodies that move. The contact law is Signorini-Coulomb on the exact cone:
//   lambda in K_mu = { ||lambda_t|| <= mu lambda_n },  u_n >= u_n*,  complementarity,
// with u_n* the target normal velocity (restitution bounce, or -gap/dt for a speculative contact
// whose gap may close this step but no further). One Gauss–Seidel update of contact i, all
// other impulses fixed:
//   1. sticking guess: lambda' = lambda + W^-1 ([u_n*, 0, 0] - u), the exact solution when the
//      contact neither separates nor slides; accepted if lambda' lies in K_mu;
//   2. otherwise the contact separates or slides: the normal impulse
//      lambda_n' = max(0, lambda_n + (u_n* - u_n) / W_nn) is applied, u_t is recomputed and the
//      tangential impulse takes the projected step lambda_t - u_t / lambda_max(W_tt) onto the
//      disk ||lambda_t|| <= mu lambda_n'. A scalar step makes the fixed point satisfy maximal
//      dissipation (lambda_t opposite to the slip velocity), which a W_tt^-1 step would not.
// Sweeps stop when the largest impulse change is below the tolerance or at the iteration cap.
//
// Position drift is removed by split impulses: a separate normal-only PGS on pseudo-velocities
// targets beta * max(depth - slop, 0) / dt; the pseudo-velocities move the bodies during
// integration and are then discarded, so correcting penetration adds no kinetic energy (unlike
// Baumgarte stabilisation, which feeds the correction into the real velocities).

#include <Eigen/Core>
#include <span>
#include <vector>

#include "dynamics/contact_constraint.hpp"
#include "dynamics/rigid_body.hpp"

namespace hb {

struct ContactSolverOptions {
  int velocityIterations = 30;
  int positionIterations = 10;
  double tolerance = 1e-7;             ///< stop when max |delta lambda| (N s) falls below this
  double restitutionThreshold = 0.5;   ///< m/s of approach below which no bounce is applied
  double baumgarte = 0.2;              ///< fraction of the penetration removed per step
  double slop = 0.0005;                ///< m of penetration left uncorrected (keeps contacts alive)
  double maxCorrectionVelocity = 2.0;  ///< m/s cap on the pseudo-velocity target
};

struct ContactSolverStats {
  int iterations = 0;
  /// Largest impulse change in the last velocity sweep (N s).
  double residual = 0.0;
  bool converged = false;
};

/// Pseudo-velocities of the split-impulse pass, per body; used once by the integrator.
struct PseudoVelocities {
  std::vector<Eigen::Vector3d> linear;
  std::vector<Eigen::Vector3d> angular;
};

class ContactSolver {
 public:
  /// Stage 1: lever arms, Delassus blocks and targets from the pre-solve velocities.
  void prepare(std::span<const RigidBody> bodies, std::span<ContactConstraint> contacts, double dt,
               const ContactSolverOptions& options);
  /// Stage 2: apply the impulses the contacts carry in (from the pair cache).
  void warmStart(std::span<RigidBody> bodies);
  /// Stage 3: Gauss–Seidel sweeps on the velocities.
  ContactSolverStats solveVelocities(std::span<RigidBody> bodies);
  /// Stage 4: split-impulse position correction; fills the pseudo-velocities.
  void solvePositions(std::span<const RigidBody> bodies, PseudoVelocities& pseudo);

 private:
  /// The velocities of a body during the solve. Bodies that do not move have zero inverse mass
  /// and their rows zero angular responses, so impulses leave them as they are, without a branch.
  struct SolverBody {
    double linear[3] = {0, 0, 0};
    double angular[3] = {0, 0, 0};
    double inverseMass = 0.0;
  };
  /// One contact as the sweeps see it, fixed at prepare(): everything an update reads, as plain
  /// arrays in one place (the sweeps are the simulator's hottest loop). Contacts that no impulse
  /// can affect get no row.
  struct Row {
    int bodyA = 0, bodyB = 0;
    int contact = 0;              // index into contacts_
    double direction[3][3];       // the contact frame n, t1, t2 (world)
    double leverA[3], leverB[3];  // r_A, r_B: contact point minus centre of mass (world)
    /// Angular velocity change of A (B) per unit impulse along direction k: I^-1 (r x c_k).
    double turnA[3][3], turnB[3][3];
    double delassusInv[3][3];            // W^-1
    double normalMass = 0.0;             // 1 / W_nn
    double normalToTangent[2] = {0, 0};  // W_tn: tangential velocity per unit normal impulse
    double tangentStep = 0.0;            // 1 / lambda_max(W_tt)
    double friction = 0.0;
    double targetNormalVelocity = 0.0;
    double impulse[3] = {0, 0, 0};  // accumulated, contact frame
    double positionTarget = 0.0;
    double positionImpulse = 0.0;
  };
  /// Copies the bodies' velocities in, and the solved ones of the moving bodies back out.
  void loadVelocities(std::span<const RigidBody> bodies);
  void storeVelocities(std::span<RigidBody> bodies) const;
  /// Applies the impulse change (contact frame) of a row: -p on A, +p on B.
  void applyImpulse(const Row& row, const double* change);

  std::span<ContactConstraint> contacts_;
  std::vector<Row> rows_;
  std::vector<SolverBody> solverBodies_;
  std::vector<Eigen::Matrix3d> inverseInertia_;  // world frame, zero for bodies that do not move
  std::vector<char> moves_;        // per body: active, so its solved velocity is written back
  std::vector<int> positionRows_;  // rows with a penetration to correct
  ContactSolverOptions options_;
};

}  // namespace hb
