// The integrator: free fall, torque-free rotation against Euler's equations and against the
// closed-form precession of a symmetric body, exact conservation of angular momentum and energy,
// contact moments added to the momentum exactly, the cap on a step's turn, the position
// correction's turn carrying the angular velocity along, and no spin-up of a thin body whose
// solved rotation strays from the free one.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <random>

#include "dynamics/integrator.hpp"
#include "tests/dynamics/solver_test_constants.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;
using namespace hb::solver_test;

RigidBody tumblingBox(const Vector3d& w) {
  RigidBody b = RigidBody::dynamic(boxMassProperties({0.05, 0.1, 0.2}, 500));
  b.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Vector3d(1, 2, 3).normalized()));
  b.angularVelocity = w;
  return b;
}

void steps(std::vector<RigidBody>& bodies, RigidBodyIntegrator& integrator, int n) {
  const PseudoVelocities none;
  RotationSteps rotations;
  for (int i = 0; i < n; ++i) {
    integrator.integrateVelocities(bodies, Vector3d::Zero(), kDt, rotations);
    integrator.integratePositions(bodies, rotations, none, kDt);
  }
}

// Body-frame angular velocity under Euler's equations, by classical Runge–Kutta at dt / 1000.
Vector3d eulerReference(const Eigen::Matrix3d& inertia, Vector3d w, double seconds) {
  const Eigen::Matrix3d inverse = inertia.inverse();
  const auto rate = [&](const Vector3d& x) -> Vector3d { return inverse * (inertia * x).cross(x); };
  const double h = kDt / 1000;
  for (long k = 0; k < std::lround(seconds / h); ++k) {
    const Vector3d k1 = rate(w), k2 = rate(w + 0.5 * h * k1), k3 = rate(w + 0.5 * h * k2),
                   k4 = rate(w + h * k3);
    w += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return w;
}

TEST(Integrator, FreeFallAndSpin) {
  std::vector<RigidBody> bodies = {RigidBody::dynamic(sphereMassProperties(0.1, 1000))};
  bodies[0].angularVelocity = {0, 0, 2.0};
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  const PseudoVelocities none;
  const int n = 120;
  for (int i = 0; i < n; ++i) {
    integrator.integrateVelocities(bodies, kGravity, kDt, rotations);
    integrator.integratePositions(bodies, rotations, none, kDt);
  }
  // Semi-implicit Euler: z_n = -g dt^2 n (n + 1) / 2.
  EXPECT_NEAR(bodies[0].position.z(), -9.81 * kDt * kDt * n * (n + 1) / 2.0, 1e-12);
  EXPECT_NEAR(bodies[0].orientation.norm(), 1.0, 1e-15);
  // A sphere spins at constant w: each step turns it by the Cayley rotation's 2 atan(h w / 2),
  // which is h w to within (h w)^3 / 12: 2 rad in 1 s, less 4.6e-5 rad.
  const double angle = 2.0 * std::atan2(bodies[0].orientation.z(), bodies[0].orientation.w());
  EXPECT_NEAR(angle, n * 2.0 * std::atan(kDt * 2.0 / 2.0), 1e-12);
  EXPECT_NEAR(angle, 2.0, 5e-5);
  EXPECT_NEAR((bodies[0].angularVelocity - Vector3d(0, 0, 2.0)).norm(), 0.0, 1e-12);
}

TEST(Integrator, TorqueFreeBodyKeepsAngularMomentumAndEnergy) {
  std::vector<RigidBody> bodies = {tumblingBox({3, 4, 5})};
  const Vector3d momentum = bodies[0].angularMomentum();
  const double energy = bodies[0].kineticEnergy();
  RigidBodyIntegrator integrator;
  for (int second = 0; second < 10; ++second) {
    steps(bodies, integrator, 120);
    // Exact but for rounding and the Newton solve's 1e-14 per step.
    EXPECT_NEAR((bodies[0].angularMomentum() - momentum).norm() / momentum.norm(), 0.0, 1e-12);
    EXPECT_NEAR(bodies[0].kineticEnergy() / energy, 1.0, 1e-10);
  }
  // It tumbles: its angular velocity is not fixed in the world.
  EXPECT_GT((bodies[0].angularVelocity - Vector3d(3, 4, 5)).norm(), 1.0);
}

TEST(Integrator, FollowsEulersEquations) {
  for (const Vector3d& w0 : {Vector3d(3, 4, 5), Vector3d(0.05, 6.0, 0.05), Vector3d(-2, 0.5, 7)}) {
    std::vector<RigidBody> bodies = {tumblingBox(w0)};
    const Eigen::Quaterniond q0 = bodies[0].orientation;
    const Eigen::Matrix3d inertia = bodies[0].inertiaBody;
    RigidBodyIntegrator integrator;
    steps(bodies, integrator, 120);
    const Vector3d expected = eulerReference(inertia, q0.conjugate() * w0, 1.0);
    const Vector3d body = bodies[0].orientation.conjugate() * bodies[0].angularVelocity;
    // Second order in h: (h |w|)^2 ~ 3e-3 relative over a second.
    EXPECT_LT((body - expected).norm(), 5e-3 * w0.norm()) << w0.transpose();
  }
}

// A symmetric body (I1 = I2) precesses: in its frame, w turns about the symmetry axis at
// (I3 - I1) / I1 * w3 while w3 stays constant.
TEST(Integrator, SymmetricBodyPrecessesAtTheClosedFormRate) {
  RigidBody b = RigidBody::dynamic(boxMassProperties({0.1, 0.1, 0.02}, 500));
  const Eigen::Matrix3d inertia = b.inertiaBody;
  const double w3 = 4.0, rate = (inertia(2, 2) - inertia(0, 0)) / inertia(0, 0) * w3;
  b.angularVelocity = {1.0, 0.0, w3};
  std::vector<RigidBody> bodies = {b};
  RigidBodyIntegrator integrator;
  const double t = 2.0;
  steps(bodies, integrator, static_cast<int>(std::lround(t / kDt)));
  const Vector3d body = bodies[0].orientation.conjugate() * bodies[0].angularVelocity;
  EXPECT_NEAR(body.z(), w3, 1e-12);
  const double angle = std::atan2(body.y(), body.x());
  const double expected = std::remainder(rate * t, 2 * M_PI);
  EXPECT_NEAR(std::remainder(angle - expected, 2 * M_PI), 0.0, 2e-3);
  EXPECT_NEAR(body.head<2>().norm(), 1.0, 1e-12);
}

// What a contact solver does between the stages (w += I_w^-1 tau for an angular impulse tau)
// ends up in the angular momentum exactly, whatever the body turned meanwhile.
TEST(Integrator, ContactMomentsAddToTheMomentumExactly) {
  std::vector<RigidBody> bodies = {tumblingBox({3, 4, 5})};
  const Vector3d tau(0.002, -0.001, 0.003);
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  const PseudoVelocities none;
  Vector3d momentum = bodies[0].angularMomentum();
  for (int i = 0; i < 240; ++i) {
    integrator.integrateVelocities(bodies, Vector3d::Zero(), kDt, rotations);
    bodies[0].angularVelocity += bodies[0].inverseInertiaWorld() * tau;
    integrator.integratePositions(bodies, rotations, none, kDt);
    momentum += tau;
    EXPECT_NEAR((bodies[0].angularMomentum() - momentum).norm(), 0.0, 1e-12 * momentum.norm());
  }
}

TEST(Integrator, OnlyLimitedBodiesTurnAtMostTheLimit) {
  // Three fast spinners and a slow one; the first and the slow one are flagged (they touch
  // something): only the first is slowed.
  std::vector<RigidBody> bodies = {tumblingBox({300, -200, 100}), tumblingBox({300, -200, 100}),
                                   tumblingBox({3000, 1000, -2000}), tumblingBox({10, 20, 30})};
  const std::vector<char> limited = {1, 0, 0, 1};
  const double limit = 0.25 * M_PI;
  std::vector<RigidBody> before = bodies;
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  const IntegratorStats stats =
      integrator.integrateVelocities(bodies, Vector3d::Zero(), kDt, rotations, limited, limit);
  EXPECT_EQ(stats.limitedBodies, 1);
  // The step velocity of the torque-free turn at the limited speed: the speed is kept exactly
  // by the limit and nearly by the gyroscopic step.
  EXPECT_LT(bodies[0].angularVelocity.norm() * kDt, 1.01 * limit);
  EXPECT_GT(bodies[0].angularVelocity.norm() * kDt, 0.5 * limit);
  // The free ones keep their angular momentum and energy, however fast they spin.
  integrator.integratePositions(bodies, rotations, {}, kDt);
  for (int i = 1; i < 4; ++i) {
    const double l0 = before[i].angularMomentum().norm();
    EXPECT_NEAR((bodies[i].angularMomentum() - before[i].angularMomentum()).norm(), 0.0,
                1e-12 * l0);
    EXPECT_NEAR(bodies[i].kineticEnergy(), before[i].kineticEnergy(),
                1e-9 * before[i].kineticEnergy());
  }
}

TEST(Integrator, ThePositionCorrectionsTurnCarriesTheSpinAlong) {
  // The same step with and without a pseudo turn: the body-frame angular velocity and the
  // energy are the same.
  std::vector<RigidBody> plain = {tumblingBox({3, -20, 7})};
  std::vector<RigidBody> corrected = plain;
  RigidBodyIntegrator a, b;
  RotationSteps rotations;
  PseudoVelocities pseudo;
  pseudo.linear = {Vector3d(0, 0, 0.5)};
  pseudo.angular = {Vector3d(40, 10, -25)};
  a.integrateVelocities(plain, Vector3d::Zero(), kDt, rotations);
  a.integratePositions(plain, rotations, {}, kDt);
  b.integrateVelocities(corrected, Vector3d::Zero(), kDt, rotations);
  b.integratePositions(corrected, rotations, pseudo, kDt);
  const auto bodyFrame = [](const RigidBody& r) {
    return Vector3d(r.orientation.conjugate() * r.angularVelocity);
  };
  EXPECT_LT((bodyFrame(plain[0]) - bodyFrame(corrected[0])).norm(), 1e-12);
  EXPECT_NEAR(plain[0].kineticEnergy(), corrected[0].kineticEnergy(), 1e-12);
  EXPECT_GT(Eigen::AngleAxisd(plain[0].orientation.conjugate() * corrected[0].orientation).angle(),
            0.3);
  EXPECT_NEAR((corrected[0].position - plain[0].position).z(), 0.5 * kDt, 1e-15);
}

TEST(Integrator, AStrayStepRotationDoesNotSpinAThinBodyUp) {
  // A thin plate spinning fast, whose step velocity a contact-like moment turns far from the
  // free rotation: the end spin carries the step's momentum in its direction, with no more
  // energy than that momentum had at the start (plus the percent the guard lets through).
  std::mt19937 rng(5);
  int guarded = 0;
  for (int trial = 0; trial < 200; ++trial) {
    RigidBody plate = RigidBody::dynamic(boxMassProperties({0.1, 0.03, 0.002}, 500));
    std::normal_distribution<double> n(0.0, 1.0);
    plate.orientation = Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized();
    plate.angularVelocity = 80.0 * Vector3d(n(rng), n(rng), n(rng)).normalized();
    std::vector<RigidBody> bodies = {plate};
    const Eigen::Matrix3d r = plate.orientation.toRotationMatrix();
    const Eigen::Matrix3d inertia = r * plate.inertiaBody * r.transpose();
    const Vector3d start = plate.angularMomentum();
    RigidBodyIntegrator integrator;
    RotationSteps rotations;
    integrator.integrateVelocities(bodies, Vector3d::Zero(), kDt, rotations);
    const Vector3d offset = start - inertia * bodies[0].angularVelocity;
    const Vector3d moment = start.norm() * Vector3d(n(rng), n(rng), n(rng));
    bodies[0].angularVelocity += inertia.inverse() * moment;
    const Vector3d momentum = inertia * bodies[0].angularVelocity + offset;
    integrator.integratePositions(bodies, rotations, {}, kDt);
    const double allowed = 0.5 * momentum.dot(inertia.inverse() * momentum);
    EXPECT_LE(bodies[0].kineticEnergy(), 1.01 * allowed * (1 + 1e-12)) << trial;
    const Vector3d end = bodies[0].angularMomentum();
    EXPECT_LT((end.normalized() - momentum.normalized()).norm(), 1e-9) << trial;
    if (end.norm() < momentum.norm() * (1 - 1e-9)) ++guarded;
  }
  EXPECT_GT(guarded, 10);
}

TEST(Integrator, NonFiniteSpinIsReportedNotPropagatedIntoOthers) {
  std::vector<RigidBody> bodies = {tumblingBox({NAN, 1, 1}), tumblingBox({1, 2, 3})};
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  const IntegratorStats stats = integrator.integrateVelocities(bodies, kGravity, kDt, rotations);
  EXPECT_EQ(stats.unconvergedRotations, 1);
  EXPECT_TRUE(bodies[1].angularVelocity.allFinite());
}

TEST(Integrator, SleepingAndStaticBodiesStayPut) {
  std::vector<RigidBody> bodies = {RigidBody::fixed(), tumblingBox({1, 2, 3})};
  bodies[1].sleeping = true;
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  integrator.integrateVelocities(bodies, kGravity, kDt, rotations);
  integrator.integratePositions(bodies, rotations, {}, kDt);
  EXPECT_EQ(bodies[1].position, Vector3d::Zero());
  EXPECT_EQ(bodies[1].angularVelocity, Vector3d(1, 2, 3));
}

}  // namespace
}  // namespace hb

namespace hb {
namespace {

// A state a step can continue from: finite, a unit orientation, velocities whose squares (the
// kinetic energy) do not overflow.
TEST(RigidBody, ValidStateIsFiniteUnitAndOfFiniteEnergy) {
  RigidBody b = RigidBody::dynamic(boxMassProperties(Eigen::Vector3d(0.1, 0.1, 0.1), 500.0));
  EXPECT_TRUE(b.isValid());
  RigidBody zero = b;
  zero.orientation.coeffs().setZero();  // what 1e300 rad/s made of it
  EXPECT_FALSE(zero.isValid());
  RigidBody fast = b;
  fast.linearVelocity.x() = 1e300;  // finite, but its energy is not
  EXPECT_FALSE(fast.isValid());
  RigidBody nan = b;
  nan.position.y() = std::nan("");
  EXPECT_FALSE(nan.isValid());
}

}  // namespace
}  // namespace hb
