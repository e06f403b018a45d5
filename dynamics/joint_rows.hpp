#pragma once
// A joint as the contact solver's sweeps see it (dynamics/joint.hpp): its rows, fixed at the
// step's start, each a velocity constraint J v = target between the two bodies,
//   u_k = l_k . (v_B - v_A) + b_k . w_B - a_k . w_A,
// with l the linear direction, a and b the angular ones (r x l for a linear row, whose arm r runs
// from the body's centre of mass to the joint's origin; the axis itself for an angular row).
//
// The held rows, in order (their forces in Joint::force):
//   Spherical  3 linear along the world axes (the origins together)
//   Revolute   the same, and 2 angular across the hinge axis (its x and y in A's joint frame)
//   Fixed      the same 3 linear, and 3 angular about A's joint frame's axes
//   Prismatic  2 linear across the axis (x and y of A's joint frame), and 3 angular
// are solved as one block per visit, K dlambda = target - u with K = J M^-1 J^T, exactly, so that
// a joint holds as well after one visit as its block allows. The free axis of a revolute or
// prismatic joint (A's joint frame's z) then takes its spring, friction and motor (each bounded
// by its force) and its limits (one-sided, speculative: the joint may close the gap to a limit
// within the step, no further). A spherical joint's limit is a cone about A's frame's z: one
// such row about the axis across the two frames' z axes, on the angle between them. An impulse
// along the axis comes with the held rows' answer to it, -K^-1 g per unit (g: what a unit axis
// impulse does to the held rows' velocities), so that the rows stay held, and its effective mass is
// that of the axis with the rows held, 1 / (K_aa - g^T K^-1 g) (the Schur complement): a motor
// turning a body about a hinge meets the body's inertia about the hinge, not about its centre, and
// reaches its target in one visit.
//
// The spring and a servo motor are soft rows: u - target + softness * impulse = 0, the implicit
// form of the force -k C - c (u - v*) over the step with C taken at the step's midpoint,
// C + h/2 (u - u0) (u0: the axis velocity before the step's forces): with the midpoint an
// undamped spring keeps its energy at any step (C at the step's end would take 15% of a 1 Hz
// spring's amplitude per period at 120 Hz) and stays stable however stiff.
//
// Position drift (the velocity rows hold only to first order) is removed as the contacts'
// penetration is, by pseudo-velocities after the sweeps (solvePosition): a fraction of each
// held row's error and of each limit's overshoot per step, not fed back into the velocities.
//
// In the soft step (ContactSolver::solveSoftStep) the rows are prepared for one substep and
// re-aimed before each of its sweeps (beginSoftSweep) at the poses the bodies have reached (a
// row fixed at the step's start would hold a pendulum's bob to the tangent of where the step
// began, and drift 0.1 m a swing at 4 substeps). The push sweep warm-starts them and aims the
// held rows and overshot limits at pushing a share of the error out per second (their bias,
// as the contacts' soft rows push a penetration out), and takes the spring and servo from the
// error so far; the relax sweep aims them at holding, without the push, which it takes back
// out of the velocities. The rows stay rigid: a soft held row (Box2D's joints) gives back part
// of its impulse each visit, and that impulse holds the answer to a limit's or motor's, which
// then spun a light body at thousands of rad/s.

#include <Eigen/Core>
#include <algorithm>
#include <array>

#include "dynamics/joint.hpp"
#include "dynamics/solver_body.hpp"

namespace hb {

class JointRows {
 public:
  static constexpr int kMaxHeld = 6;

  /// The rows of `joint` at the bodies' poses for a (sub)step of length h (whose gravity the
  /// velocities already hold), warm-started from its forces. startSpin: A's and B's angular
  /// velocities before the step's external torques, from which the anchors' arcs are predicted
  /// (a torque's spin about a body's own centre is mostly taken back by the joint). massA, inertiaA
  /// (world, inverse) are zero for a body that does not move. False when no impulse can act on it
  /// (neither body moves, or its block is singular).
  bool prepare(const Joint& joint, const RigidBody& a, const RigidBody& b, double massA,
               const Eigen::Matrix3d& inertiaA, double massB, const Eigen::Matrix3d& inertiaB,
               double h, const Eigen::Vector3d& gravity,
               const std::array<Eigen::Vector3d, 2>& startSpin);
  int bodyA() const { return bodyA_; }
  int bodyB() const { return bodyB_; }
  /// Applies the impulses the joint carries in.
  void warmStart(SolverBody& a, SolverBody& b) const;
  /// One visit of the sweeps: the held rows, then the free axis; returns the largest change as
  /// the velocity it makes along its own row (m/s or rad/s).
  double solveVelocity(SolverBody& a, SolverBody& b) {
    const double held = solveHeld(a, b);
    return std::max(held, solveAxis(a, b));
  }
  double solveHeld(SolverBody& a, SolverBody& b);
  /// The free axes (a revolute or prismatic joint's, a spherical joint's swing and twist) and a
  /// spherical joint's turn.
  double solveAxis(SolverBody& a, SolverBody& b);
  /// One visit of the position pass, on pseudo-velocities: each held row's error and each
  /// overshot limit reduced by `fraction` of it per step of length h.
  void solvePosition(SolverBody& a, SolverBody& b, double fraction) {
    solveHeldPosition(a, b, fraction);
    solveAxisPosition(a, b, fraction);
  }
  void solveHeldPosition(SolverBody& a, SolverBody& b, double fraction);
  void solveAxisPosition(SolverBody& a, SolverBody& b, double fraction);

  /// What a body did since the step's start in the soft step: moved (m) and turned (a rotation
  /// vector, rad).
  struct Motion {
    Eigen::Vector3d moved = Eigen::Vector3d::Zero();
    Eigen::Vector3d turned = Eigen::Vector3d::Zero();
  };
  /// Before a sweep of the soft step: the rows, errors and position at the bodies' poses so far;
  /// for the push sweep (`push`), the warm start, the held rows and overshot limits aimed at
  /// removing their error at `biasRate` (1/s), and the spring's and servo's rows from the error
  /// so far; for the relax sweep, rows that hold without pushing.
  void beginSoftSweep(const Motion& motionA, const Motion& motionB, bool push, double biasRate,
                      SolverBody& a, SolverBody& b);

  // The held rows one by one, for a block of several joints' rows (dynamics/joint_block.hpp).
  int held() const { return held_; }
  /// Row i's velocity minus its target (velocity pass), or plus `fraction` of its error per
  /// step (position pass, fraction > 0).
  double heldResidual(int i, const SolverBody& a, const SolverBody& b, double fraction) const;
  /// Row i takes an impulse change (accumulated in the velocity pass only).
  void applyHeld(int i, double change, SolverBody& a, SolverBody& b, bool accumulate);
  /// J_i M^-1 J_j^T between this joint's row i and `other`'s row j, through the bodies they
  /// share.
  double heldCoupling(int i, const JointRows& other, int j) const;
  /// The impulses of the step as forces, back into the joint (its warm start and reaction).
  void store(Joint& joint) const;

 private:
  struct Row {
    double linear[3] = {0, 0, 0};
    double angularA[3] = {0, 0, 0}, angularB[3] = {0, 0, 0};
    double turnA[3] = {0, 0, 0}, turnB[3] = {0, 0, 0};  // I^-1 times the angular directions
    double impulse = 0.0;
    double target = 0.0;  // the velocity the sweeps drive u to
    double arc = 0.0;     // the rigid target: the anchors' arcs (linear rows)
    double error = 0.0;   // the row's position error (m or rad): C
  };
  /// prepare()'s parts: the held rows between the joint frames fa and fb (the bodies' centres
  /// and spins given), their errors and the axis's position, the block's inverse (false when
  /// singular), the free axis's row and mass, its forces.
  void buildHeldRows(const Pose& fa, const Pose& fb, const Eigen::Vector3d& centreA,
                     const Eigen::Vector3d& centreB, const std::array<Eigen::Vector3d, 2>& spin);
  void measure(const Pose& fa, const Pose& fb);
  bool invertBlock();
  void prepareAxis(const Pose& fa, const Pose& fb, const Eigen::Vector3d& centreA,
                   const Eigen::Vector3d& centreB);
  /// A spherical joint's twist axis and turn rows (joint_turn_rows.cpp).
  void prepareTwist(const Pose& fa, const Pose& fb);
  void prepareTurn(const Pose& fa);
  /// The turn's spring and motor rows from the turn so far and the relative spin w_B - w_A
  /// (world) before the step's forces.
  void aimTurnForces(const Eigen::Vector3d& relativeSpin);
  double solveTurn(SolverBody& a, SolverBody& b);
  void applyTurn(const Eigen::Vector3d& change, SolverBody& a, SolverBody& b);
  void prepareAxisForces(const Joint& joint, const RigidBody& a, const RigidBody& b,
                         const Eigen::Vector3d& gravity);
  /// The spring's and the servo's rows at the position so far, from axis velocity u0.
  void aimAxisForces(double startVelocity);
  /// A row on the free axis solved as u - target + softness * impulse = 0 with |impulse| <=
  /// most: the spring, the friction, the motor (rigid: softness 0).
  struct AxisRow {
    bool active = false;
    double softness = 0.0;
    double target = 0.0;
    double most = 0.0;
    double impulse = 0.0;
  };
  /// The soft row of a force -k C - c (u - v*) (see above).
  AxisRow softAxisRow(double stiffness, double damping, double error, double targetVelocity,
                      double startVelocity, double most) const;
  double solveAxisRow(AxisRow& row, SolverBody& a, SolverBody& b);
  double velocity(const Row& row, const SolverBody& a, const SolverBody& b) const;
  /// A free axis: its row, its effective mass with the held rows held, its position and
  /// limits.
  struct FreeAxis {
    bool active = false;
    Row row;
    double mass = 0.0;             // 1 / (K_aa - g^T K^-1 g)
    double answer[kMaxHeld] = {};  // K^-1 g: the held rows' impulses per unit axis impulse
    double position = 0.0;
    JointLimit limit;
    bool upperOnly = false;  // a cone: its half-angle bounds the swing from above
    double lowerImpulse = 0.0, upperImpulse = 0.0;
    double lowerPosition = 0.0, upperPosition = 0.0;  // the position pass's
  };
  /// The held rows' answer to an impulse along `row` and its mass with them held: g_i =
  /// coupling(held i, row), answer = K^-1 g, mass 1 / (K_aa - g^T K^-1 g) (0 when singular).
  double holdOthers(const Row& row, double* answer) const;
  /// An impulse along a free axis, with the held rows' answer to it.
  void applyAlong(const FreeAxis& axis, double change, SolverBody& a, SolverBody& b, bool heldToo);
  /// The axis's limits: in the sweeps (speculative; pushing in the soft step's push sweep), or
  /// on pseudo-velocities in the position pass.
  double solveLimits(FreeAxis& axis, SolverBody& a, SolverBody& b);
  void solveLimitsPosition(FreeAxis& axis, SolverBody& a, SolverBody& b, double fraction);
  void apply(const Row& row, double change, SolverBody& a, SolverBody& b) const;
  /// J_i M^-1 J_j^T of two rows.
  double coupling(const Row& i, const Row& j) const;
  void setLinear(Row& row, const Eigen::Vector3d& direction, const Eigen::Vector3d& armA,
                 const Eigen::Vector3d& armB) const;
  void setAngular(Row& row, const Eigen::Vector3d& direction) const;

  int bodyA_ = 0, bodyB_ = 0;
  JointType type_ = JointType::Spherical;
  double h_ = 0.0;
  // The joint frames and the centres of mass at the step's start (the soft step's sweeps
  // measure the error at the poses reached since), the spring and motor (re-aimed there).
  Pose startA_, startB_;
  Eigen::Vector3d centreA_ = Eigen::Vector3d::Zero(), centreB_ = Eigen::Vector3d::Zero();
  std::array<Eigen::Vector3d, 2> startSpin_;
  JointSpring springSettings_;
  JointMotor motorSettings_;
  bool activeA_ = false, activeB_ = false;
  // The soft step's substeps so far and the drives' impulses summed over those before this
  // one: the step's drive forces are their means (the work the energy ledger counts).
  int softSubsteps_ = 0;
  double springSum_ = 0.0, motorSum_ = 0.0;
  Eigen::Vector3d turnSpringSum_ = Eigen::Vector3d::Zero(), turnMotorSum_ = Eigen::Vector3d::Zero();
  bool push_ = false;      // the soft step's push sweep: the held rows and limits push
  double biasRate_ = 0.0;  // 1/s: the share of their error they push out per second
  double massA_ = 0.0, massB_ = 0.0;
  Eigen::Matrix3d inertiaA_ = Eigen::Matrix3d::Zero(), inertiaB_ = Eigen::Matrix3d::Zero();
  int held_ = 0;
  Row rows_[kMaxHeld];
  double blockInverse_[kMaxHeld][kMaxHeld] = {};
  // The free axis (revolute or prismatic; its spring, friction and motor act along it), or a
  // spherical joint's swing, whose upper limit is the cone.
  FreeAxis axis_;
  bool cone_ = false;
  AxisRow spring_, friction_, motor_;
  // A spherical joint's twist about the frames' z axes, and its turn: its spring, friction and
  // motor as three angular rows along A's frame's axes, solved as one system with the held rows
  // held (S = C - G^T K^-1 G, C their block, G their coupling with the held rows).
  FreeAxis twist_;
  struct Turn {
    bool active = false;
    Row rows[3];
    double answer[kMaxHeld][3] = {};                  // K^-1 G
    Eigen::Matrix3d schur = Eigen::Matrix3d::Zero();  // S
    Eigen::Matrix3d mass = Eigen::Matrix3d::Zero();   // S^-1 (zero when S is singular)
    /// A drive on the three rows: u - target + softness lambda = 0 (rigid: softness 0), its
    /// impulse within a ball of radius `most` (N m s); `mass` (S + softness I)^-1.
    struct Drive {
      bool active = false;
      double softness = 0.0;
      Eigen::Vector3d target = Eigen::Vector3d::Zero();
      Eigen::Matrix3d mass = Eigen::Matrix3d::Zero();
      double most = 0.0;
      Eigen::Vector3d impulse = Eigen::Vector3d::Zero();
    };
    Drive spring, friction, motor;
    Eigen::Quaterniond relative = Eigen::Quaterniond::Identity();  // B's frame in A's
    Eigen::Vector3d turned = Eigen::Vector3d::Zero();  // its rotation vector (A's axes, rad)
  };
  Turn turn_;
  double solveTurnDrive(Turn::Drive& drive, SolverBody& a, SolverBody& b);
};

}  // namespace hb
