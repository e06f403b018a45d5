// A spherical joint's rows beyond its held origins (JointRows, dynamics/joint_rows.hpp): its
// twist limit, and its turn's spring and friction.
//
// The twist is B's frame's turn about the frames' z axes (the angle of the twist part of the
// rotation from A's frame to B's, as a revolute joint's position); its row turns about the
// bisector of the two z axes, which is the twist's axis to first order whatever the swing.
//
// The turn is the rotation from A's frame to B's as a rotation vector in A's axes. Its spring
// pulls it to zero (the frames aligned) with the torque -k turn - c (w_B - w_A), and its
// friction resists the relative spin with a torque of at most the friction's magnitude: both
// on three angular rows along A's frame's axes, solved together as one 3 x 3 system with the
// held rows held, so that a ball joint's spring turns the body about the joint rather than
// about its centre, with the effective inertia of that turn.

#include <Eigen/Cholesky>
#include <cmath>

#include "dynamics/joint_rows.hpp"

namespace hb {

using Eigen::Matrix3d;
using Eigen::Vector3d;

void JointRows::prepareTwist(const Pose& fa, const Pose& fb) {
  const Vector3d zA = fa.q * Vector3d::UnitZ();
  const Vector3d bisector = zA + fb.q * Vector3d::UnitZ();
  const double length = bisector.norm();
  twist_.row = Row{};
  setAngular(twist_.row, length > 1e-6 ? Vector3d(bisector / length) : zA);
  twist_.mass = holdOthers(twist_.row, twist_.answer);
}

void JointRows::prepareTurn(const Pose& fa) {
  const Matrix3d frame = fa.q.toRotationMatrix();
  for (int k = 0; k < 3; ++k) {
    turn_.rows[k] = Row{};
    setAngular(turn_.rows[k], frame.col(k));
  }
  // S = C - G^T K^-1 G: the turn's block with the held rows answering it.
  double g[kMaxHeld][3];
  for (int i = 0; i < held_; ++i) {
    for (int k = 0; k < 3; ++k) g[i][k] = coupling(rows_[i], turn_.rows[k]);
  }
  Matrix3d schur;
  for (int k = 0; k < 3; ++k) {
    for (int l = 0; l < 3; ++l) schur(k, l) = coupling(turn_.rows[k], turn_.rows[l]);
  }
  for (int i = 0; i < held_; ++i) {
    for (int k = 0; k < 3; ++k) {
      turn_.answer[i][k] = 0.0;
      for (int j = 0; j < held_; ++j) turn_.answer[i][k] += blockInverse_[i][j] * g[j][k];
    }
  }
  for (int k = 0; k < 3; ++k) {
    for (int l = 0; l < 3; ++l) {
      for (int i = 0; i < held_; ++i) schur(k, l) -= g[i][k] * turn_.answer[i][l];
    }
  }
  turn_.schur = 0.5 * (schur + schur.transpose());
  const Eigen::LDLT<Matrix3d> ldlt(turn_.schur);
  const bool definite = ldlt.info() == Eigen::Success && ldlt.isPositive() &&
                        ldlt.vectorD().minCoeff() > 1e-12 * turn_.schur.diagonal().maxCoeff();
  turn_.mass = definite ? Matrix3d(ldlt.solve(Matrix3d::Identity())) : Matrix3d::Zero();
}

void JointRows::aimTurnSpring(const Vector3d& startSpin) {
  // As softAxisRow, on each axis: u - target + softness lambda = 0 with the turn at the step's
  // midpoint, the three rows' softness the same.
  const JointSpring& spring = springSettings_;
  const double viscosity = spring.damping + 0.5 * h_ * spring.stiffness;
  turn_.spring = viscosity > 0.0 && !turn_.mass.isZero();
  if (!turn_.spring) return;
  turn_.springSoftness = 1.0 / (h_ * viscosity);
  for (int k = 0; k < 3; ++k) {
    const double u0 = Eigen::Map<const Vector3d>(turn_.rows[k].angularA).dot(startSpin);
    turn_.springTarget[k] =
        (0.5 * h_ * spring.stiffness * u0 - spring.stiffness * turn_.turned[k]) / viscosity;
  }
  turn_.springMass = (turn_.schur + turn_.springSoftness * Matrix3d::Identity()).inverse();
}

double JointRows::solveTurn(SolverBody& a, SolverBody& b) {
  if (turn_.mass.isZero()) return 0.0;
  const auto spin = [&] {
    Vector3d u;
    for (int k = 0; k < 3; ++k) u[k] = velocity(turn_.rows[k], a, b);
    return u;
  };
  double largest = 0.0;
  if (turn_.spring) {
    const Vector3d change = -turn_.springMass * (spin() - turn_.springTarget +
                                                 turn_.springSoftness * turn_.springImpulse);
    turn_.springImpulse += change;
    applyTurn(change, a, b);
    largest = std::max(largest, (turn_.schur * change).cwiseAbs().maxCoeff());
  }
  if (turn_.friction) {
    // The impulse that stops the relative spin, within the ball of the friction's torque.
    Vector3d next = turn_.frictionImpulse - turn_.mass * spin();
    const double norm = next.norm();
    if (norm > turn_.frictionMost) next *= turn_.frictionMost / norm;
    const Vector3d change = next - turn_.frictionImpulse;
    turn_.frictionImpulse = next;
    applyTurn(change, a, b);
    largest = std::max(largest, (turn_.schur * change).cwiseAbs().maxCoeff());
  }
  return largest;
}

void JointRows::applyTurn(const Vector3d& change, SolverBody& a, SolverBody& b) {
  for (int k = 0; k < 3; ++k) apply(turn_.rows[k], change[k], a, b);
  for (int i = 0; i < held_; ++i) {
    double answer = 0.0;
    for (int k = 0; k < 3; ++k) answer -= turn_.answer[i][k] * change[k];
    apply(rows_[i], answer, a, b);
    rows_[i].impulse += answer;
  }
}

}  // namespace hb
