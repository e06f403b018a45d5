// A spherical joint's rows beyond its held origins (JointRows, dynamics/joint_rows.hpp): its
// twist limit, and its turn's spring and friction.
//
// The twist is B's frame's turn about the frames' z axes (the angle of the twist part of the
// rotation from A's frame to B's, as a revolute joint's position); its row turns about the
// bisector of the two z axes, which is the twist's axis to first order whatever the swing.
//
// The turn is the rotation from A's frame to B's as a rotation vector in A's axes. Its spring
// pulls it to zero (the frames aligned) with the torque -k turn - c (w_B - w_A); its friction
// resists the relative spin with a torque of at most the friction's magnitude; its motor drives
// the spin to a target, or, as a servo, the turn to a target orientation: all on three angular
// rows along A's frame's axes, solved together as one 3 x 3 system with the held rows held, so
// that a ball joint's spring turns the body about the joint rather than about its centre, with
// the effective inertia of that turn.

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>
#include <limits>

#include "collision/portable_math.hpp"

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

void JointRows::aimTurnForces(const Vector3d& relativeSpin) {
  // As softAxisRow, on each axis: u - target + softness lambda = 0 with the error at the step's
  // midpoint, the three rows' softness the same. The spring's error is the turn; a servo's the
  // turn from its target, rotation vector of relative * target^-1.
  if (turn_.mass.isZero()) return;
  Vector3d startSpin;  // u0 along the rows
  for (int k = 0; k < 3; ++k) {
    startSpin[k] = Eigen::Map<const Vector3d>(turn_.rows[k].angularA).dot(relativeSpin);
  }
  const auto soft = [&](Turn::Drive& drive, double stiffness, double damping, const Vector3d& error,
                        const Vector3d& targetSpin, double most) {
    const double viscosity = damping + 0.5 * h_ * stiffness;
    drive.active = viscosity > 0.0;
    if (!drive.active) return;
    drive.softness = 1.0 / (h_ * viscosity);
    drive.target =
        (damping * targetSpin + 0.5 * h_ * stiffness * startSpin - stiffness * error) / viscosity;
    drive.mass = (turn_.schur + drive.softness * Matrix3d::Identity()).inverse();
    drive.most = most;
  };
  turn_.friction.mass = turn_.mass;  // friction: rigid, towards no relative spin
  const double unbounded = std::numeric_limits<double>::infinity();
  const JointSpring& spring = springSettings_;
  if (spring.active()) {
    soft(turn_.spring, spring.stiffness, spring.damping, turn_.turned, Vector3d::Zero(), unbounded);
  }
  const JointMotor& motor = motorSettings_;
  if (motor.enabled && motor.servo()) {
    const Eigen::Quaterniond target =
        portable::rotationOf(Eigen::Map<const Vector3d>(motor.targetTurn));
    const Vector3d error = portable::rotationVector(turn_.relative * target.conjugate());
    soft(turn_.motor, motor.stiffness, motor.damping, error,
         Eigen::Map<const Vector3d>(motor.targetSpin), motor.maxForce * h_);
  } else if (motor.enabled) {
    turn_.motor.active = true;
    turn_.motor.softness = 0.0;
    turn_.motor.target = Eigen::Map<const Vector3d>(motor.targetSpin);
    turn_.motor.mass = turn_.mass;
    turn_.motor.most = motor.maxForce * h_;
  }
}

double JointRows::solveTurn(SolverBody& a, SolverBody& b) {
  if (turn_.mass.isZero()) return 0.0;
  double largest = 0.0;
  for (Turn::Drive* drive : {&turn_.spring, &turn_.friction, &turn_.motor}) {
    if (drive->active) largest = std::max(largest, solveTurnDrive(*drive, a, b));
  }
  return largest;
}

double JointRows::solveTurnDrive(Turn::Drive& drive, SolverBody& a, SolverBody& b) {
  // The impulse that meets the drive's row, within the ball of its largest torque (friction:
  // the one that stops the relative spin).
  Vector3d u;
  for (int k = 0; k < 3; ++k) u[k] = velocity(turn_.rows[k], a, b);
  Vector3d next = drive.impulse - drive.mass * (u - drive.target + drive.softness * drive.impulse);
  const double norm = next.norm();
  if (norm > drive.most) next *= drive.most / norm;
  const Vector3d change = next - drive.impulse;
  drive.impulse = next;
  applyTurn(change, a, b);
  return (turn_.schur * change).cwiseAbs().maxCoeff();
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
