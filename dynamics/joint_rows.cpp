#include "dynamics/joint_rows.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "collision/portable_math.hpp"

namespace hb {

using Eigen::Matrix3d;
using Eigen::Vector3d;

namespace {

double dot3(const double* x, const double* y) {
  return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}

void store3(const Vector3d& v, double* out) {
  for (int j = 0; j < 3; ++j) out[j] = v[j];
}

}  // namespace

void JointRows::setLinear(Row& row, const Vector3d& direction, const Vector3d& armA,
                          const Vector3d& armB) const {
  store3(direction, row.linear);
  const Vector3d angularA = armA.cross(direction), angularB = armB.cross(direction);
  store3(angularA, row.angularA);
  store3(angularB, row.angularB);
  store3(inertiaA_ * angularA, row.turnA);
  store3(inertiaB_ * angularB, row.turnB);
}

void JointRows::setAngular(Row& row, const Vector3d& direction) const {
  store3(Vector3d::Zero(), row.linear);
  store3(direction, row.angularA);
  store3(direction, row.angularB);
  store3(inertiaA_ * direction, row.turnA);
  store3(inertiaB_ * direction, row.turnB);
}

double JointRows::coupling(const Row& i, const Row& j) const {
  return (massA_ + massB_) * dot3(i.linear, j.linear) + dot3(i.angularA, j.turnA) +
         dot3(i.angularB, j.turnB);
}

bool JointRows::prepare(const Joint& joint, const RigidBody& a, const RigidBody& b, double massA,
                        const Matrix3d& inertiaA, double massB, const Matrix3d& inertiaB, double h,
                        const Vector3d& gravity, const std::array<Vector3d, 2>& startSpin) {
  bodyA_ = joint.bodyA;
  bodyB_ = joint.bodyB;
  type_ = joint.type;
  h_ = h;
  startA_ = jointFrameA(joint, a);
  startB_ = jointFrameB(joint, b);
  centreA_ = a.position;
  centreB_ = b.position;
  startSpin_ = startSpin;
  springSettings_ = joint.spring;
  motorSettings_ = joint.motor;
  push_ = false;
  softSubsteps_ = 0;
  springSum_ = motorSum_ = 0.0;
  turnSpringSum_.setZero();
  turnMotorSum_.setZero();
  massA_ = massA;
  massB_ = massB;
  inertiaA_ = inertiaA;
  inertiaB_ = inertiaB;
  activeA_ = a.isActive();
  activeB_ = b.isActive();
  const bool spherical = joint.type == JointType::Spherical;
  cone_ = spherical && joint.limit.enabled;
  axis_ = FreeAxis{};
  axis_.active = hasFreeAxis(joint.type) || cone_;
  axis_.limit = joint.limit;
  axis_.upperOnly = cone_;
  twist_ = FreeAxis{};
  twist_.active = spherical && joint.twist.enabled;
  twist_.limit = joint.twist;
  turn_ = Turn{};
  turn_.active =
      spherical && (joint.spring.active() || joint.friction > 0.0 || joint.motor.enabled);
  buildHeldRows(startA_, startB_, centreA_, centreB_, startSpin);
  measure(startA_, startB_);
  if (!invertBlock()) return false;
  for (int i = 0; i < held_; ++i) rows_[i].impulse = joint.force[i] * h;
  spring_ = friction_ = motor_ = AxisRow{};
  if (axis_.active) prepareAxis(startA_, startB_, centreA_, centreB_);
  if (axis_.active && !cone_) prepareAxisForces(joint, a, b, gravity);
  if (twist_.active) prepareTwist(startA_, startB_);
  if (turn_.active) {
    prepareTurn(startA_);
    if (joint.friction > 0.0 && !turn_.mass.isZero()) {
      turn_.friction = {true, 0.0, Vector3d::Zero(), turn_.mass, joint.friction * h};
    }
    aimTurnForces(Vector3d(b.angularVelocity - a.angularVelocity));
    // Warm-started from the torques, within their bounds.
    const auto warm = [&](Turn::Drive& drive, const double* torque) {
      drive.impulse = Eigen::Map<const Vector3d>(torque) * h;
      const double norm = drive.impulse.norm();
      if (!drive.active) drive.impulse.setZero();
      if (norm > drive.most) drive.impulse *= drive.most / norm;
    };
    warm(turn_.spring, joint.springTorque);
    warm(turn_.friction, joint.frictionTorque);
    warm(turn_.motor, joint.motorTorque);
  }
  const bool limited = axis_.active && axis_.limit.enabled;
  axis_.lowerImpulse = limited && !cone_ ? joint.lowerForce * h : 0.0;
  axis_.upperImpulse = limited ? joint.upperForce * h : 0.0;
  twist_.lowerImpulse = twist_.active ? joint.twistLowerForce * h : 0.0;
  twist_.upperImpulse = twist_.active ? joint.twistUpperForce * h : 0.0;
  const auto warm = [&](AxisRow& row, double force) {
    row.impulse = row.active ? std::clamp(force * h, -row.most, row.most) : 0.0;
  };
  warm(spring_, joint.springForce);
  warm(friction_, joint.frictionForce);
  warm(motor_, joint.motorForce);
  return true;
}

void JointRows::buildHeldRows(const Pose& fa, const Pose& fb, const Vector3d& centreA,
                              const Vector3d& centreB, const std::array<Vector3d, 2>& spin) {
  const Matrix3d frame = fa.q.toRotationMatrix();  // A's joint frame's axes, world
  const Vector3d armA = fa.p - centreA, armB = fb.p - centreB;
  const Vector3d apart = fb.p - fa.p;
  held_ = 0;
  // A turning body carries its anchor along an arc, not the line its velocity points along:
  // over the step the anchor leaves that line by h^2 / 2 w x (w x r). The linear rows aim to
  // cancel it (their target), so that the anchors meet at the step's end to second order; with
  // the line alone, each step's solve took the velocity's turn out of it, and a pendulum swung
  // level lost 6% of its energy per swing at 120 Hz.
  // The turn is the one the step started with: a torque applied this step spins a body about
  // its own centre, and the joint takes most of that spin back.
  const auto bend = [](bool active, const Vector3d& w, const Vector3d& arm) {
    return active ? w.cross(w.cross(arm)) : Vector3d::Zero();
  };
  const auto linearRow = [&](const Vector3d& direction, const Vector3d& leverA) {
    Row& row = rows_[held_++];
    row = Row{};
    setLinear(row, direction, leverA, armB);
    row.arc =
        -0.5 * h_ * direction.dot(bend(activeB_, spin[1], armB) - bend(activeA_, spin[0], leverA));
    row.target = row.arc;
  };
  const auto angularRow = [&](const Vector3d& direction) {
    Row& row = rows_[held_++];
    row = Row{};
    setAngular(row, direction);
  };
  // The origins: together, or on the axis (A's lever reaching B's origin, so that sliding
  // along the axis leaves the rows' directions as they are).
  if (type_ == JointType::Prismatic) {
    linearRow(frame.col(0), armA + apart);
    linearRow(frame.col(1), armA + apart);
  } else {
    for (int k = 0; k < 3; ++k) linearRow(Vector3d::Unit(k), armA);
  }
  // The orientations: all three angles, or across the hinge axis.
  if (type_ == JointType::Fixed || type_ == JointType::Prismatic) {
    for (int k = 0; k < 3; ++k) angularRow(frame.col(k));
  } else if (type_ == JointType::Revolute) {
    for (int k = 0; k < 2; ++k) angularRow(frame.col(k));
  }
}

void JointRows::measure(const Pose& fa, const Pose& fb) {
  // The linear rows: the origins' offset along each row's direction. The angular ones: the
  // rotation from A's frame to B's (a rotation vector), or the hinge axes' misalignment
  // a_A x a_B, along each row's axis.
  const int linearRows = type_ == JointType::Prismatic ? 2 : 3;
  const Vector3d apart = fb.p - fa.p;
  Vector3d turned = Vector3d::Zero();
  if (type_ == JointType::Fixed || type_ == JointType::Prismatic) {
    turned = portable::rotationVector(fb.q * fa.q.conjugate());
  } else if (type_ == JointType::Revolute) {
    turned = (fa.q * Vector3d::UnitZ()).cross(fb.q * Vector3d::UnitZ());
  }
  for (int i = 0; i < held_; ++i) {
    Row& row = rows_[i];
    row.error = i < linearRows ? dot3(row.linear, apart.data()) : dot3(row.angularA, turned.data());
  }
  const Vector3d axis = fa.q * Vector3d::UnitZ();
  if (cone_) {
    const Vector3d zB = fb.q * Vector3d::UnitZ();
    axis_.position = std::atan2(axis.cross(zB).norm(), axis.dot(zB));  // the swing
  } else {
    axis_.position = jointPositionBetween(type_, fa, fb);
  }
  if (twist_.active) twist_.position = jointPositionBetween(JointType::Revolute, fa, fb);
  if (turn_.active) {
    turn_.relative = fa.q.conjugate() * fb.q;
    turn_.turned = portable::rotationVector(turn_.relative);
  }
}

bool JointRows::invertBlock() {
  // K^-1 with K = J M^-1 J^T, factored with unit diagonal (S K S, S = diag(K)^-1/2) so that each
  // pivot is measured against its own row: a light, thin body's angular rows may be a million
  // times its linear ones. A singular one (a pivot near zero) acts on nothing.
  using Block = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxHeld, kMaxHeld>;
  using Column = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxHeld, 1>;
  if (held_ == 0) return false;
  Block k(held_, held_);
  for (int i = 0; i < held_; ++i) {
    for (int j = 0; j < held_; ++j) k(i, j) = coupling(rows_[i], rows_[j]);
  }
  if (!(k.diagonal().minCoeff() > 0.0)) return false;
  const Column scale = k.diagonal().cwiseSqrt().cwiseInverse();
  const Eigen::LDLT<Block> ldlt(scale.asDiagonal() * k * scale.asDiagonal());
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || !(ldlt.vectorD().minCoeff() > 1e-10)) {
    return false;
  }
  const Block inverse =
      scale.asDiagonal() * ldlt.solve(Block::Identity(held_, held_)) * scale.asDiagonal();
  for (int i = 0; i < held_; ++i) {
    for (int j = 0; j < held_; ++j) blockInverse_[i][j] = inverse(i, j);
  }
  return true;
}

void JointRows::prepareAxis(const Pose& fa, const Pose& fb, const Vector3d& centreA,
                            const Vector3d& centreB) {
  const Vector3d axis = fa.q * Vector3d::UnitZ();
  Row& row = axis_.row;
  row = Row{};
  if (cone_) {
    // The swing turns about the cross product of the frames' z axes (any axis across A's z
    // when they are aligned, where the cone's wall is far).
    const Vector3d across = axis.cross(fb.q * Vector3d::UnitZ());
    const double sine = across.norm();
    setAngular(row, sine > 1e-12 ? Vector3d(across / sine) : Vector3d(fa.q * Vector3d::UnitX()));
  } else if (type_ == JointType::Revolute) {
    setAngular(row, axis);
  } else {
    setLinear(row, axis, fb.p - centreA, fb.p - centreB);
  }
  axis_.mass = holdOthers(row, axis_.answer);
}

double JointRows::holdOthers(const Row& row, double* answer) const {
  double g[kMaxHeld];
  for (int i = 0; i < held_; ++i) g[i] = coupling(rows_[i], row);
  const double own = coupling(row, row);
  double schur = own;
  for (int i = 0; i < held_; ++i) {
    answer[i] = 0.0;
    for (int j = 0; j < held_; ++j) answer[i] += blockInverse_[i][j] * g[j];
    schur -= g[i] * answer[i];
  }
  return schur > 1e-12 * own ? 1.0 / schur : 0.0;
}

void JointRows::prepareAxisForces(const Joint& joint, const RigidBody& a, const RigidBody& b,
                                  const Vector3d& gravity) {
  // u0 is the axis velocity without the step's gravity.
  const auto pulled = [](const RigidBody& r) { return r.isActive() ? 1.0 : 0.0; };
  const Row& row = axis_.row;
  const double u =
      dot3(row.linear, b.linearVelocity.data()) - dot3(row.linear, a.linearVelocity.data()) +
      dot3(row.angularB, b.angularVelocity.data()) - dot3(row.angularA, a.angularVelocity.data());
  aimAxisForces(u -
                h_ * (pulled(b) - pulled(a)) * Eigen::Map<const Vector3d>(row.linear).dot(gravity));
  if (joint.friction > 0.0) friction_ = {true, 0.0, 0.0, joint.friction * h_, 0.0};
  const JointMotor& motor = joint.motor;
  if (motor.enabled && !motor.servo()) {
    motor_ = {true, 0.0, motor.targetVelocity, motor.maxForce * h_, 0.0};
  }
}

void JointRows::aimAxisForces(double startVelocity) {
  // Their errors are the position's offsets (a revolute joint's the nearest way round).
  const bool turns = type_ == JointType::Revolute;
  const auto offset = [&](double from) {
    const double q = axis_.position;
    return turns ? std::remainder(q - from, 2.0 * std::numbers::pi) : q - from;
  };
  const auto keep = [](AxisRow& row, const AxisRow& next) {
    const double impulse = row.impulse;
    row = next;
    row.impulse = row.active ? std::clamp(impulse, -row.most, row.most) : 0.0;
  };
  const JointSpring& spring = springSettings_;
  if (spring.active()) {
    keep(spring_, softAxisRow(spring.stiffness, spring.damping, offset(spring.restPosition), 0.0,
                              startVelocity, std::numeric_limits<double>::infinity()));
  }
  const JointMotor& motor = motorSettings_;
  if (motor.enabled && motor.servo()) {
    keep(motor_, softAxisRow(motor.stiffness, motor.damping, offset(motor.targetPosition),
                             motor.targetVelocity, startVelocity, motor.maxForce * h_));
  }
}

JointRows::AxisRow JointRows::softAxisRow(double stiffness, double damping, double error,
                                          double targetVelocity, double startVelocity,
                                          double most) const {
  // lambda = h (-k (C + h/2 (u - u0)) - c (u - v*)), i.e. u - target + softness lambda = 0.
  const double viscosity = damping + 0.5 * h_ * stiffness;
  AxisRow row;
  row.active = viscosity > 0.0;
  if (!row.active) return row;
  row.softness = 1.0 / (h_ * viscosity);
  row.target =
      (damping * targetVelocity + 0.5 * h_ * stiffness * startVelocity - stiffness * error) /
      viscosity;
  row.most = most;
  return row;
}

double JointRows::velocity(const Row& row, const SolverBody& a, const SolverBody& b) const {
  return dot3(row.linear, b.linear) - dot3(row.linear, a.linear) + dot3(row.angularB, b.angular) -
         dot3(row.angularA, a.angular);
}

void JointRows::apply(const Row& row, double change, SolverBody& a, SolverBody& b) const {
  for (int j = 0; j < 3; ++j) {
    a.linear[j] -= a.inverseMass * change * row.linear[j];
    a.angular[j] -= change * row.turnA[j];
    b.linear[j] += b.inverseMass * change * row.linear[j];
    b.angular[j] += change * row.turnB[j];
  }
}

void JointRows::warmStart(SolverBody& a, SolverBody& b) const {
  for (int i = 0; i < held_; ++i) apply(rows_[i], rows_[i].impulse, a, b);
  if (axis_.active) {
    const double along = spring_.impulse + friction_.impulse + motor_.impulse;
    apply(axis_.row, along + axis_.lowerImpulse - axis_.upperImpulse, a, b);
  }
  if (twist_.active) apply(twist_.row, twist_.lowerImpulse - twist_.upperImpulse, a, b);
  if (turn_.active) {
    const Vector3d turn = turn_.spring.impulse + turn_.friction.impulse + turn_.motor.impulse;
    for (int k = 0; k < 3; ++k) apply(turn_.rows[k], turn[k], a, b);
  }
}

void JointRows::applyAlong(const FreeAxis& axis, double change, SolverBody& a, SolverBody& b,
                           bool heldToo) {
  apply(axis.row, change, a, b);
  for (int i = 0; i < held_; ++i) {
    const double answer = -axis.answer[i] * change;
    apply(rows_[i], answer, a, b);
    if (heldToo) rows_[i].impulse += answer;
  }
}

double JointRows::heldResidual(int i, const SolverBody& a, const SolverBody& b,
                               double fraction) const {
  const Row& row = rows_[i];
  return fraction > 0.0 ? velocity(row, a, b) + fraction * row.error / h_
                        : velocity(row, a, b) - row.target;
}

void JointRows::applyHeld(int i, double change, SolverBody& a, SolverBody& b, bool accumulate) {
  apply(rows_[i], change, a, b);
  if (accumulate) rows_[i].impulse += change;
}

double JointRows::heldCoupling(int i, const JointRows& other, int j) const {
  const Row& r = rows_[i];
  const Row& s = other.rows_[j];
  // Each shared body X: sign_r sign_s (m_X^-1 l_r . l_s + a_r(X) . I_X^-1 a_s(X)); A's side of a
  // row pushes with -1.
  double k = 0.0;
  const auto through = [&](double sign, double mass, const double* angular, const double* turn) {
    k += sign * (mass * dot3(r.linear, s.linear) + dot3(angular, turn));
  };
  if (bodyA_ == other.bodyA_) through(1.0, massA_, r.angularA, s.turnA);
  if (bodyA_ == other.bodyB_) through(-1.0, massA_, r.angularA, s.turnB);
  if (bodyB_ == other.bodyA_) through(-1.0, massB_, r.angularB, s.turnA);
  if (bodyB_ == other.bodyB_) through(1.0, massB_, r.angularB, s.turnB);
  return k;
}

double JointRows::solveHeld(SolverBody& a, SolverBody& b) {
  double largest = 0.0;
  double u[kMaxHeld];
  for (int i = 0; i < held_; ++i) u[i] = heldResidual(i, a, b, 0.0);
  for (int i = 0; i < held_; ++i) {
    double change = 0.0;
    for (int j = 0; j < held_; ++j) change -= blockInverse_[i][j] * u[j];
    applyHeld(i, change, a, b, true);
    largest = std::max(largest, std::abs(change) / blockInverse_[i][i]);
  }
  return largest;
}

double JointRows::solveAxis(SolverBody& a, SolverBody& b) {
  double largest = 0.0;
  if (axis_.active && axis_.mass > 0.0) {
    for (AxisRow* row : {&spring_, &friction_, &motor_}) {
      if (row->active) largest = std::max(largest, solveAxisRow(*row, a, b));
    }
    largest = std::max(largest, solveLimits(axis_, a, b));
  }
  if (twist_.active) largest = std::max(largest, solveLimits(twist_, a, b));
  if (turn_.active) largest = std::max(largest, solveTurn(a, b));
  return largest;
}

double JointRows::solveLimits(FreeAxis& axis, SolverBody& a, SolverBody& b) {
  double largest = 0.0;
  if (!axis.limit.enabled || axis.mass == 0.0) return largest;
  // Each limit pushes one way only; a gap still open may close within the step, no further.
  // Overshot in the soft step's push sweep, it pushes back at the push's rate.
  const auto limitRow = [&](double gap, double sign, double& impulse) {
    const double target = gap > 0.0 ? -gap / h_ : push_ ? -biasRate_ * gap : 0.0;
    const double change = axis.mass * (target - sign * velocity(axis.row, a, b));
    const double next = std::max(0.0, impulse + change);
    applyAlong(axis, sign * (next - impulse), a, b, true);
    largest = std::max(largest, std::abs(next - impulse) / axis.mass);
    impulse = next;
  };
  if (!axis.upperOnly) limitRow(axis.position - axis.limit.lower, 1.0, axis.lowerImpulse);
  limitRow(axis.limit.upper - axis.position, -1.0, axis.upperImpulse);
  return largest;
}

double JointRows::solveAxisRow(AxisRow& row, SolverBody& a, SolverBody& b) {
  const double change = -(velocity(axis_.row, a, b) - row.target + row.softness * row.impulse) /
                        (1.0 / axis_.mass + row.softness);
  const double next = std::clamp(row.impulse + change, -row.most, row.most);
  applyAlong(axis_, next - row.impulse, a, b, true);
  const double moved = std::abs(next - row.impulse) / axis_.mass;
  row.impulse = next;
  return moved;
}

void JointRows::solveHeldPosition(SolverBody& a, SolverBody& b, double fraction) {
  double u[kMaxHeld];
  for (int i = 0; i < held_; ++i) u[i] = heldResidual(i, a, b, fraction);
  for (int i = 0; i < held_; ++i) {
    double change = 0.0;
    for (int j = 0; j < held_; ++j) change -= blockInverse_[i][j] * u[j];
    applyHeld(i, change, a, b, false);
  }
}

void JointRows::solveAxisPosition(SolverBody& a, SolverBody& b, double fraction) {
  if (axis_.active) solveLimitsPosition(axis_, a, b, fraction);
  if (twist_.active) solveLimitsPosition(twist_, a, b, fraction);
}

void JointRows::solveLimitsPosition(FreeAxis& axis, SolverBody& a, SolverBody& b, double fraction) {
  if (axis.mass == 0.0 || !axis.limit.enabled) return;
  const auto limitRow = [&](double gap, double sign, double& impulse) {
    if (gap >= 0.0) return;
    const double change = axis.mass * (-fraction * gap / h_ - sign * velocity(axis.row, a, b));
    const double next = std::max(0.0, impulse + change);
    applyAlong(axis, sign * (next - impulse), a, b, false);
    impulse = next;
  };
  if (!axis.upperOnly) limitRow(axis.position - axis.limit.lower, 1.0, axis.lowerPosition);
  limitRow(axis.limit.upper - axis.position, -1.0, axis.upperPosition);
}

void JointRows::beginSoftSweep(const Motion& motionA, const Motion& motionB, bool push,
                               double biasRate, SolverBody& a, SolverBody& b) {
  // The rows at the poses the bodies have reached: each turned about its centre, then moved.
  const auto moved = [](const Pose& start, const Vector3d& centre, const Motion& motion) {
    const double angle = motion.turned.norm();
    if (angle == 0.0) return Pose{start.q, start.p + motion.moved};
    const Eigen::Quaterniond turn = portable::rotationAbout(motion.turned / angle, angle);
    return Pose{turn * start.q, centre + motion.moved + turn * (start.p - centre)};
  };
  const Pose fa = moved(startA_, centreA_, motionA), fb = moved(startB_, centreB_, motionB);
  double impulses[kMaxHeld];
  for (int i = 0; i < held_; ++i) impulses[i] = rows_[i].impulse;
  // The arcs from the step's start spin, as in prepare(): the spin the sweeps leave in a light
  // link whipped by a heavy one fed back into its own arc and grew without bound.
  buildHeldRows(fa, fb, centreA_ + motionA.moved, centreB_ + motionB.moved, startSpin_);
  for (int i = 0; i < held_; ++i) rows_[i].impulse = impulses[i];
  measure(fa, fb);
  invertBlock();  // singular there: the last inverse stands in
  if (axis_.active) prepareAxis(fa, fb, centreA_ + motionA.moved, centreB_ + motionB.moved);
  if (twist_.active) prepareTwist(fa, fb);
  if (turn_.active) prepareTurn(fa);
  push_ = push;
  biasRate_ = biasRate;
  if (push && softSubsteps_++ > 0) {  // the substep before is done
    springSum_ += spring_.impulse;
    motorSum_ += motor_.impulse;
    turnSpringSum_ += turn_.spring.impulse;
    turnMotorSum_ += turn_.motor.impulse;
  }
  if (push) {
    for (int i = 0; i < held_; ++i) rows_[i].target -= biasRate * rows_[i].error;
    if (axis_.active && !cone_) aimAxisForces(velocity(axis_.row, a, b));
    if (turn_.active) {
      aimTurnForces(Eigen::Map<const Vector3d>(b.angular) - Eigen::Map<const Vector3d>(a.angular));
    }
    warmStart(a, b);
  }
}

void JointRows::store(Joint& joint) const {
  for (int i = 0; i < kMaxHeld; ++i) joint.force[i] = i < held_ ? rows_[i].impulse / h_ : 0.0;
  joint.lowerForce = axis_.lowerImpulse / h_;
  joint.upperForce = axis_.upperImpulse / h_;
  joint.twistLowerForce = twist_.lowerImpulse / h_;
  joint.twistUpperForce = twist_.upperImpulse / h_;
  // The drives' forces over the step: in the soft step, the means over its substeps.
  const double substeps = std::max(1, softSubsteps_);
  const double span = substeps * h_;
  const bool summed = softSubsteps_ > 0;
  joint.motorForce = (motor_.impulse + (summed ? motorSum_ : 0.0)) / span;
  joint.springForce = (spring_.impulse + (summed ? springSum_ : 0.0)) / span;
  joint.frictionForce = friction_.impulse / h_;
  const Vector3d turnSpring =
      (turn_.spring.impulse + (summed ? turnSpringSum_ : Vector3d::Zero())) / span;
  const Vector3d turnMotor =
      (turn_.motor.impulse + (summed ? turnMotorSum_ : Vector3d::Zero())) / span;
  for (int k = 0; k < 3; ++k) {
    joint.springTorque[k] = turnSpring[k];
    joint.frictionTorque[k] = turn_.friction.impulse[k] / h_;
    joint.motorTorque[k] = turnMotor[k];
  }
  if (turn_.active) {  // a spherical joint's: the torques' magnitudes
    joint.springForce = turnSpring.norm();
    joint.frictionForce = turn_.friction.impulse.norm() / h_;
    joint.motorForce = turnMotor.norm();
  }
}

}  // namespace hb
