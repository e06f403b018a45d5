// PGS on the Coulomb cone: resting, sliding, sticking, restitution, split impulses, and
// agreement with a high-iteration reference on a multi-contact stack.

#include <gtest/gtest.h>

#include <random>

#include "dynamics/contact_solver.hpp"
#include "dynamics/integrator.hpp"
#include "tests/dynamics/solver_test_constants.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;
using namespace hb::solver_test;

// Ground (static, index 0) and a unit-mass box of half extents h resting on it (index 1).
std::vector<RigidBody> groundAndBox(const Vector3d& h, double zGap = 0.0) {
  std::vector<RigidBody> bodies(2);
  bodies[0] = RigidBody::fixed();
  bodies[1] = RigidBody::dynamic(boxMassProperties(h, 1.0 / (8 * h.prod())));
  bodies[1].position = {0, 0, h.z() + zGap};
  return bodies;
}

// The four bottom corners of the box as contacts with the ground (normal +z from A=ground).
std::vector<ContactConstraint> cornerContacts(const std::vector<RigidBody>& bodies,
                                              const Vector3d& h, double depth, double mu) {
  std::vector<ContactConstraint> contacts;
  for (int i = 0; i < 4; ++i) {
    ContactConstraint c;
    c.bodyA = 0;
    c.bodyB = 1;
    c.point =
        bodies[1].position + Vector3d((i & 1 ? 1 : -1) * h.x(), (i & 2 ? 1 : -1) * h.y(), -h.z());
    c.normal = Vector3d::UnitZ();
    c.buildTangents();
    c.depth = depth;
    c.friction = mu;
    contacts.push_back(c);
  }
  return contacts;
}

// The ground (static, index 0) and a ball of radius 0.1 m falling at `speed` (index 1).
std::vector<RigidBody> groundAndBall(double speed) {
  std::vector<RigidBody> bodies = {RigidBody::fixed(),
                                   RigidBody::dynamic(sphereMassProperties(0.1, 1000))};
  bodies[1].linearVelocity = {0, 0, -speed};
  return bodies;
}

// The ball's contact with the ground (normal +z), `depth` deep (< 0: a gap still open).
ContactConstraint groundContact(double depth, double restitution = 0.0) {
  ContactConstraint c;
  c.bodyA = 0;
  c.bodyB = 1;
  c.normal = Vector3d::UnitZ();
  c.buildTangents();
  c.depth = depth;
  c.restitution = restitution;
  return c;
}

ContactSolverStats step(std::vector<RigidBody>& bodies, std::vector<ContactConstraint>& contacts,
                        const ContactSolverOptions& options = {}) {
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  integrator.integrateVelocities(bodies, kGravity, kDt, rotations);
  ContactSolver solver;
  solver.prepare(bodies, contacts, kDt, options);
  solver.warmStart(bodies);
  const ContactSolverStats stats = solver.solveVelocities(bodies);
  PseudoVelocities pseudo;
  solver.solvePositions(bodies, pseudo);
  integrator.integratePositions(bodies, rotations, pseudo, kDt);
  solver.applyRestitution(bodies);
  return stats;
}

// This step's gravity on the bodies, then the velocity solve that knows of it (no positions).
void solveUnderGravity(ContactSolver& solver, std::vector<RigidBody>& bodies,
                       std::vector<ContactConstraint>& contacts) {
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  integrator.integrateVelocities(bodies, kGravity, kDt, rotations);
  solver.prepare(bodies, contacts, kDt, {}, kGravity);
  solver.warmStart(bodies);
  solver.solveVelocities(bodies);
}

TEST(ContactSolver, RestingBoxCarriesItsWeight) {
  const Vector3d h(0.2, 0.3, 0.1);
  auto bodies = groundAndBox(h);
  auto contacts = cornerContacts(bodies, h, 0.0, 0.5);
  const ContactSolverStats stats = step(bodies, contacts);
  EXPECT_TRUE(stats.converged);
  EXPECT_NEAR(bodies[1].linearVelocity.norm(), 0.0, 1e-6);
  EXPECT_NEAR(bodies[1].angularVelocity.norm(), 0.0, 1e-6);
  double normal = 0;
  for (const auto& c : contacts) {
    normal += c.impulse.x();
    EXPECT_LE(c.impulse.tail<2>().norm(), c.friction * c.impulse.x() + 1e-12);
  }
  EXPECT_NEAR(normal, 9.81 * kDt, 1e-6);  // m g dt with m = 1 kg
}

TEST(ContactSolver, OneSweepPushesARestingFaceEvenly) {
  // A face pushed corner by corner is pushed unevenly, and the box turns until later sweeps
  // even it out; the manifold's own passes spread the push within one visit, so a single sweep
  // leaves the box level, and so does the shock pass after a point-by-point sweep. The box's
  // falling speed, g dt, is what the face stops.
  const Vector3d h(0.2, 0.3, 0.1);
  auto spinAfterOneSweep = [&](int manifoldIterations, bool shockPass) {
    auto bodies = groundAndBox(h);
    auto contacts = cornerContacts(bodies, h, 0.0, 0.5);
    RigidBodyIntegrator integrator;
    RotationSteps rotations;
    integrator.integrateVelocities(bodies, kGravity, kDt, rotations);
    ContactSolverOptions options;
    options.velocityIterations = 1;
    options.tolerance = 0;
    options.manifoldIterations = manifoldIterations;
    options.shockPropagation = shockPass;
    ContactSolver solver;
    solver.prepare(bodies, contacts, kDt, options);
    solver.solveVelocities(bodies);
    // The corners' largest speed, relative to the speed the face had to stop.
    double fastest = 0;
    for (const auto& c : contacts) {
      fastest = std::max(fastest, bodies[1].pointVelocity(c.point).norm());
    }
    return fastest / (9.81 * kDt);
  };
  const double pointByPoint = spinAfterOneSweep(1, false);
  const double manifold = spinAfterOneSweep(4, false);
  const double shock = spinAfterOneSweep(1, true);
  std::printf(
      "corner speed after one sweep / g dt: point by point %.3g, manifold passes %.3g, point by "
      "point and the shock pass %.3g\n",
      pointByPoint, manifold, shock);
  EXPECT_GT(pointByPoint, 1e-3);
  EXPECT_LT(manifold, 1e-6);
  EXPECT_LT(shock, 1e-6);
}

TEST(ContactSolver, TheShockPassPushesABrickOnTwoSupportsEvenly) {
  // A brick resting across two rocking bricks (the unit of a wall): after a sweep that leaves
  // them moving, the shock pass stops the bottom bricks on the ground, then the top brick on
  // both its supports together. Visited one support after the other, the second push left the
  // brick rocking on the first.
  const Vector3d h(0.5, 0.25, 0.25);
  std::vector<RigidBody> bodies(4, RigidBody::fixed());
  for (int i = 1; i < 4; ++i) bodies[i] = RigidBody::dynamic(boxMassProperties(h, 100.0));
  bodies[1].position = {-0.5, 0, 0.25};
  bodies[2].position = {0.5, 0, 0.25};
  bodies[3].position = {0, 0, 0.75};
  std::vector<ContactConstraint> contacts;
  const auto face = [&](int a, int b, double x0, double x1, double z) {
    for (int i = 0; i < 4; ++i) {
      ContactConstraint c;
      c.bodyA = a;
      c.bodyB = b;
      c.point = Vector3d(i & 1 ? x1 : x0, (i & 2 ? 1 : -1) * h.y(), z);
      c.normal = Vector3d::UnitZ();
      c.buildTangents();
      c.friction = 0.6;
      contacts.push_back(c);
    }
  };
  face(0, 1, -1.0, 0.0, 0.0);
  face(0, 2, 0.0, 1.0, 0.0);
  face(1, 3, -0.5, 0.0, 0.5);
  face(2, 3, 0.0, 0.5, 0.5);
  // Rocking, as bricks in a wall do, about the axis along the wall.
  bodies[3].angularVelocity = {0, 0.3, 0};
  bodies[1].angularVelocity = {0, -0.2, 0};
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  integrator.integrateVelocities(bodies, kGravity, kDt, rotations);
  ContactSolverOptions options;
  options.velocityIterations = 1;
  options.iterationsPerSupportLevel = 0;
  options.tolerance = 0;
  ContactSolver solver;
  solver.prepare(bodies, contacts, kDt, options);
  solver.solveVelocities(bodies);
  // The top brick leaves neither support sinking in, and does not turn.
  double approach = 0;
  for (int i = 8; i < 16; ++i) {
    const ContactConstraint& c = contacts[i];
    approach = std::min(approach, c.normal.dot(bodies[3].pointVelocity(c.point) -
                                               bodies[c.bodyA].pointVelocity(c.point)));
  }
  std::printf("top brick: fastest approach to a support %.3g m/s, spin %.3g rad/s\n", approach,
              bodies[3].angularVelocity.norm());
  EXPECT_GT(approach, -1e-6 * 9.81 * kDt);
  EXPECT_LT(bodies[3].angularVelocity.norm(), 1e-3);  // 0.017 rad/s visited one after the other
}

TEST(ContactSolver, SlidingBoxDeceleratesByMuG) {
  const Vector3d h(0.2, 0.2, 0.1);
  const double mu = 0.4;
  auto bodies = groundAndBox(h);
  bodies[1].linearVelocity = {2.0, 0, 0};
  auto contacts = cornerContacts(bodies, h, 0.0, mu);
  step(bodies, contacts);
  // Coulomb sliding: dv = -mu g dt along the slip; the impulses sit on the cone's boundary.
  EXPECT_NEAR(bodies[1].linearVelocity.x(), 2.0 - mu * 9.81 * kDt, 1e-5);
  EXPECT_NEAR(bodies[1].linearVelocity.z(), 0.0, 1e-6);
  for (const auto& c : contacts) {
    EXPECT_NEAR(c.impulse.tail<2>().norm(), mu * c.impulse.x(), 1e-9);
    // Maximal dissipation: friction opposes the slip (along -x).
    const Vector3d friction = c.tangent1 * c.impulse.y() + c.tangent2 * c.impulse.z();
    EXPECT_NEAR(friction.normalized().dot(-Vector3d::UnitX()), 1.0, 1e-6);
  }
}

TEST(ContactSolver, SlowBoxSticks) {
  const Vector3d h(0.2, 0.2, 0.1);
  auto bodies = groundAndBox(h);
  bodies[1].linearVelocity = {0.01, -0.01, 0};
  auto contacts = cornerContacts(bodies, h, 0.0, 0.8);
  step(bodies, contacts);
  EXPECT_NEAR(bodies[1].linearVelocity.norm(), 0.0, 1e-6);
  for (const auto& c : contacts) EXPECT_LE(c.impulse.tail<2>().norm(), 0.8 * c.impulse.x() + 1e-12);
}

// The velocity solve stops the approach; the restitution stage then sends the body back at e
// times its approach speed, with the contact's impulse of the solve kept for warm starting.
TEST(ContactSolver, RestitutionBouncesInItsOwnStage) {
  std::vector<RigidBody> bodies = groundAndBall(3.0);
  bodies[1].position = {0, 0, 0.1};
  std::vector<ContactConstraint> contacts = {groundContact(0.0, 0.5)};
  ContactSolver solver;
  solver.prepare(bodies, contacts, kDt, {});
  solver.warmStart(bodies);
  solver.solveVelocities(bodies);
  EXPECT_NEAR(bodies[1].linearVelocity.z(), 0.0, 1e-9);
  const double mass = 1.0 / bodies[1].inverseMass;
  EXPECT_NEAR(contacts[0].impulse.x(), 3.0 * mass, 1e-9);
  solver.applyRestitution(bodies);
  EXPECT_NEAR(bodies[1].linearVelocity.z(), 1.5, 1e-9);
  EXPECT_NEAR(contacts[0].impulse.x(), 3.0 * mass, 1e-9);
}

// A bounce is solved in its own island only: a box resting on the ground beside the bouncing
// ball, its approach left unresolved (as a solve stopped at its cap leaves some), keeps it.
TEST(ContactSolver, ABounceStaysInItsIsland) {
  const Vector3d h(0.2, 0.2, 0.1);
  std::vector<RigidBody> bodies = groundAndBall(3.0);
  bodies[1].position = {2, 0, 0.1};
  bodies.push_back(RigidBody::dynamic(boxMassProperties(h, 100)));
  bodies[2].position = {0, 0, h.z()};
  std::vector<ContactConstraint> contacts = {groundContact(0.0, 0.5)};
  contacts[0].point = {2, 0, 0};
  std::vector<RigidBody> boxOnly = {bodies[0], bodies[2]};
  for (ContactConstraint c : cornerContacts(boxOnly, h, 0.0, 0.5)) {
    c.bodyB = 2;
    contacts.push_back(c);
  }
  ContactSolver solver;
  solveUnderGravity(solver, bodies, contacts);
  double weight = 0.0;
  for (size_t k = 1; k < contacts.size(); ++k) weight += contacts[k].impulse.x();
  ASSERT_GT(weight, 0.0);                         // the box carries its weight
  ASSERT_LT(bodies[1].linearVelocity.z(), 1e-9);  // the ball is stopped, not yet bounced
  bodies[2].linearVelocity = {0, 0, -0.01};
  const Vector3d spin = bodies[2].angularVelocity;
  solver.applyRestitution(bodies);
  EXPECT_GT(bodies[1].linearVelocity.z(), 1.0);  // the ball bounces
  EXPECT_EQ(bodies[2].linearVelocity, Vector3d(0, 0, -0.01));
  EXPECT_EQ(bodies[2].angularVelocity, spin);
}

// A speculative contact bounces when its gap closes within the step (the solve has to stop it
// there); one that stays open does not bounce.
TEST(ContactSolver, SpeculativeContactBouncesOnlyWhenItCloses) {
  for (const double gap : {0.01, 0.03}) {
    std::vector<RigidBody> bodies = groundAndBall(3.0);  // 2.5 cm per step
    std::vector<ContactConstraint> contacts = {groundContact(-gap, 0.5)};
    ContactSolver solver;
    solver.prepare(bodies, contacts, kDt, {});
    solver.warmStart(bodies);
    solver.solveVelocities(bodies);
    solver.applyRestitution(bodies);
    EXPECT_NEAR(bodies[1].linearVelocity.z(), gap < 0.025 ? 1.5 : -3.0, 1e-9) << gap;
  }
}

// Under gravity the bounce leaves as the true rebound at the impact would, half a step earlier
// (the stored velocity being half a step behind): e |v*| + g dt / 2, with v* the speed when the
// gap closes, from the state at the step's start.
TEST(ContactSolver, ABounceLeavesWithItsSpeedAtImpact) {
  const double e = 0.5, g = 9.81, gap = 0.01;
  std::vector<RigidBody> bodies = groundAndBall(3.0);
  std::vector<ContactConstraint> contacts = {groundContact(-gap, e)};
  ContactSolver solver;
  solveUnderGravity(solver, bodies, contacts);
  solver.applyRestitution(bodies);
  // At the step's start the true velocity is -3 - g dt / 2; the gap closes at t with
  // gap = 3.04 t + g t^2 / 2.
  const double start = 3.0 + 0.5 * g * kDt;
  const double t = (-start + std::sqrt(start * start + 2 * g * gap)) / g;
  const double impact = start + g * t;
  EXPECT_NEAR(bodies[1].linearVelocity.z(), e * impact + 0.5 * g * kDt, 1e-9);
}

// A flat face landing on four contacts bounces straight: the bounce is solved to convergence,
// so no corner takes more than its share and no spin appears.
TEST(ContactSolver, FlatLandingBouncesWithoutSpin) {
  const Vector3d h(0.05, 0.05, 0.05);
  auto bodies = groundAndBox(h);
  bodies[1].linearVelocity = {0, 0, -4.0};
  auto contacts = cornerContacts(bodies, h, 0.0, 0.5);
  for (auto& c : contacts) c.restitution = 0.5;
  step(bodies, contacts);
  EXPECT_NEAR(bodies[1].linearVelocity.z(), 0.5 * (4.0 + 9.81 * kDt), 1e-6);
  EXPECT_LT(bodies[1].angularVelocity.norm(), 1e-6);
}

// A face that reaches the ground exactly at the step's end, one corner a nanometre lower and
// the others a tenth of a micrometre higher (what rounding and GJK's tolerance leave): the solve
// stops that corner alone (a tiny impulse), yet the whole face bounces, straight. A cube
// dropped flat from some heights met this at its second impact and left spinning at up to
// 44 rad/s when the bounce was decided point by point.
TEST(ContactSolver, AFaceLandingAtTheStepsEndBouncesWhole) {
  const Vector3d h(0.05, 0.05, 0.05);
  const double gap = 0.00477;
  auto bodies = groundAndBox(h, gap);
  bodies[1].linearVelocity = {0, 0, -gap / kDt - kGravity.z() * kDt};  // closes it in the step
  auto contacts = cornerContacts(bodies, h, -gap, 0.5);
  contacts[0].depth += 1e-9;
  for (int i = 1; i < 4; ++i) contacts[i].depth -= 1e-7;
  for (auto& c : contacts) c.restitution = 0.5;
  step(bodies, contacts);
  EXPECT_GT(contacts[0].impulse.x(), 0.0);
  EXPECT_NEAR(bodies[1].linearVelocity.z(), 0.5 * gap / kDt, 1e-6);
  EXPECT_LT(bodies[1].angularVelocity.norm(), 1e-6);
}

// A box landing tilted: one edge reaches the ground, the other stays 5 mm above it. Only the
// edge that landed bounces (at e times its approach); the box turns.
TEST(ContactSolver, OnlyTheCornersThatLandBounce) {
  const Vector3d h(0.05, 0.05, 0.05);
  const double gap = 0.004;
  auto bodies = groundAndBox(h, gap);
  const double approach = 1.5 * gap / kDt;  // the low edge must be stopped
  bodies[1].linearVelocity = {0, 0, -approach - kGravity.z() * kDt};
  auto contacts = cornerContacts(bodies, h, -gap, 0.5);
  for (auto& c : contacts) {
    c.restitution = 0.5;
    if (c.point.x() > 0.0) c.depth -= 0.005;  // the +x edge is 5 mm higher
  }
  step(bodies, contacts);
  for (const auto& c : contacts) {
    const double up = bodies[1].pointVelocity(c.point).z();
    // (at the point's place before the step: the box has moved and turned since)
    if (c.point.x() < 0.0) {
      EXPECT_NEAR(up, 0.5 * approach, 0.05 * approach);
    } else {
      EXPECT_LT(up, 0.25 * approach);
    }
  }
  EXPECT_GT(bodies[1].angularVelocity.norm(), 1.0);
}

TEST(ContactSolver, SpeculativeContactLetsTheGapClose) {
  std::vector<RigidBody> bodies = groundAndBall(6.0);
  // 1 cm still open: at most 1.2 m/s of approach this step.
  std::vector<ContactConstraint> contacts = {groundContact(-0.01)};
  ContactSolver solver;
  solver.prepare(bodies, contacts, kDt, {});
  solver.solveVelocities(bodies);
  EXPECT_NEAR(bodies[1].linearVelocity.z(), -0.01 / kDt, 1e-9);
}

TEST(ContactSolver, SplitImpulseRemovesPenetrationWithoutEnergy) {
  const Vector3d h(0.2, 0.2, 0.1);
  auto bodies = groundAndBox(h, -0.02);  // 2 cm into the ground
  const double z0 = bodies[1].position.z();
  auto contacts = cornerContacts(bodies, h, 0.02, 0.5);
  step(bodies, contacts);
  EXPECT_GT(bodies[1].position.z(), z0 + 0.001);            // pushed out
  EXPECT_NEAR(bodies[1].linearVelocity.norm(), 0.0, 1e-6);  // and not launched
}

TEST(ContactSolver, MatchesHighIterationReference) {
  // A tilted box on the ground under a second box: 8 coupled contacts.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  for (int trial = 0; trial < 20; ++trial) {
    const Vector3d h(0.2, 0.2, 0.1);
    std::vector<RigidBody> bodies(3);
    bodies[0] = RigidBody::fixed();
    bodies[1] = RigidBody::dynamic(boxMassProperties(h, 100));
    bodies[2] = RigidBody::dynamic(boxMassProperties(h, 300));
    bodies[1].position = {0, 0, 0.1};
    bodies[2].position = {0.05, 0, 0.3};
    bodies[1].linearVelocity = {u(rng), u(rng), u(rng)};
    bodies[2].linearVelocity = {u(rng), u(rng), u(rng)};
    bodies[2].angularVelocity = {u(rng), u(rng), u(rng)};
    std::vector<ContactConstraint> contacts = cornerContacts(bodies, h, 0.0, 0.6);
    for (int i = 0; i < 4; ++i) {
      ContactConstraint c;
      c.bodyA = 1;
      c.bodyB = 2;
      c.point = Vector3d(0.05, 0, 0.2) + Vector3d((i & 1 ? 0.15 : -0.15), (i & 2 ? 0.2 : -0.2), 0);
      c.normal = Vector3d::UnitZ();
      c.buildTangents();
      c.friction = 0.3;
      contacts.push_back(c);
    }
    auto solveWith = [&](int iterations) {
      auto b = bodies;
      auto c = contacts;
      ContactSolverOptions o;
      o.velocityIterations = iterations;
      o.tolerance = 0;
      ContactSolver solver;
      solver.prepare(b, c, kDt, o);
      solver.solveVelocities(b);
      return b;
    };
    const auto reference = solveWith(5000);
    const auto pgs = solveWith(200);
    for (int i = 1; i < 3; ++i) {
      EXPECT_NEAR((pgs[i].linearVelocity - reference[i].linearVelocity).norm(), 0.0, 1e-5);
      EXPECT_NEAR((pgs[i].angularVelocity - reference[i].angularVelocity).norm(), 0.0, 1e-4);
    }
    // The reference satisfies the contact law: no approach at any contact.
    for (const auto& c : contacts) {
      const auto& a = reference[c.bodyA];
      const auto& b = reference[c.bodyB];
      const double un = c.normal.dot(b.pointVelocity(c.point) - a.pointVelocity(c.point));
      EXPECT_GT(un, -1e-6);
    }
  }
}

}  // namespace
}  // namespace hb
