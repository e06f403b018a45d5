// The sweeps in SIMD lanes (dynamics/contact_sweep_lanes.cpp), the soft step's and the rigid
// schedule's: visiting two, four or eight manifolds of a colour at once gives the same bits as
// visiting them one by one, for manifolds of one to four points, sticking and sliding, pushing
// out and speculative, against the ground and between moving bodies, on one thread and on a
// team.

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "dynamics/contact_solver.hpp"
#include "dynamics/integrator.hpp"
#include "dynamics/sweep_lanes.hpp"
#include "tests/dynamics/solver_test_constants.hpp"
#include "tests/run_tasks.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;
using namespace hb::solver_test;

constexpr int kColumns = 20, kLayers = 15;

struct Wall {
  std::vector<RigidBody> bodies;
  std::vector<ContactConstraint> contacts;
};

/// A wall of cubes, kColumns wide and kLayers high, on the ground (body 0): each cube meets the
/// one below (or the ground), the one to its right and some the one below to its left, at one to
/// four points (as a pile's
/// manifolds have), some overlapping and some a little apart, the cubes moving at random, with
/// friction that holds some points and lets others slide; `speed` scales their velocities, and
/// every contact bounces with `restitution`.
Wall wallOfCubes(unsigned seed, double speed = 0.3, double restitution = 0.0) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Wall wall;
  wall.bodies.push_back(RigidBody::fixed());
  const Vector3d h(kCubeHalf, kCubeHalf, kCubeHalf);
  const auto cube = [](int column, int layer) { return 1 + layer * kColumns + column; };
  for (int layer = 0; layer < kLayers; ++layer) {
    for (int column = 0; column < kColumns; ++column) {
      RigidBody body = RigidBody::dynamic(boxMassProperties(h, 500.0 + 20.0 * column));
      body.position = {2.0 * kCubeHalf * column, 0.0, kCubeHalf + 2.0 * kCubeHalf * layer};
      body.linearVelocity = speed * Vector3d(unit(random), unit(random), unit(random));
      body.angularVelocity = 0.5 * Vector3d(unit(random), unit(random), unit(random));
      wall.bodies.push_back(body);
    }
  }
  const auto meet = [&](int a, int b, const Vector3d& centre, const Vector3d& normal,
                        const Vector3d& across1, const Vector3d& across2, int points) {
    for (int k = 0; k < points; ++k) {
      ContactConstraint c;
      c.bodyA = a;
      c.bodyB = b;
      c.point = centre + kCubeHalf * ((k & 1 ? 1 : -1) * across1 + (k & 2 ? 1 : -1) * across2);
      c.normal = normal;
      c.buildTangents();
      c.friction = 0.2 + 0.2 * (k + a % 3);
      c.restitution = restitution;
      c.depth = 0.004 * unit(random);
      c.impulse = {std::max(0.0, 50.0 * unit(random)), 5.0 * unit(random), 5.0 * unit(random)};
      wall.contacts.push_back(c);
    }
  };
  for (int layer = 0; layer < kLayers; ++layer) {
    for (int column = 0; column < kColumns; ++column) {
      const int body = cube(column, layer);
      const Vector3d centre = wall.bodies[body].position;
      const int below = layer == 0 ? 0 : cube(column, layer - 1);
      // Every third cube also rests on the one below to its left, as a staggered wall's brick
      // rests on two: the shock pass then takes both supports together.
      if (layer > 0 && column > 0 && (column + layer) % 3 == 0) {
        meet(cube(column - 1, layer - 1), body, centre - Vector3d(kCubeHalf, 0, kCubeHalf),
             Vector3d::UnitZ(), Vector3d::UnitX(), Vector3d::UnitY(), 1 + column % 4);
      }
      meet(below, body, centre - Vector3d(0, 0, kCubeHalf), Vector3d::UnitZ(), Vector3d::UnitX(),
           Vector3d::UnitY(), 1 + (column + layer) % 4);
      if (column + 1 < kColumns) {
        meet(body, cube(column + 1, layer), centre + Vector3d(kCubeHalf, 0, 0), Vector3d::UnitX(),
             Vector3d::UnitY(), Vector3d::UnitZ(), 1 + (column * 3 + layer) % 4);
      }
    }
  }
  return wall;
}

struct Solved {
  Wall wall;
  PseudoVelocities motion;
  ContactSolverStats stats, bounces;
  int width = 0, bundles = 0;
};

/// The soft step on wallOfCubes(seed); with `bounce`, on a faster wall whose contacts bounce,
/// and the bounces applied after it.
Solved solveSoft(unsigned seed, int lanes, int workers = 1, bool bounce = false) {
  Solved solved{bounce ? wallOfCubes(seed, 3.0, 0.5) : wallOfCubes(seed), {}, {}, {}, 0, 0};
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  integrator.integrateVelocities(solved.wall.bodies, Vector3d::Zero(), kCubeDt, rotations);
  ContactSolver solver;
  if (workers > 1) {
    solver.setTeam(test::threadPerTask, workers);
  }
  ContactSolverOptions options;
  options.softSubsteps = 4;
  options.sweepLanes = lanes;
  solver.prepare(solved.wall.bodies, solved.wall.contacts, kCubeDt, options, kCubeGravity);
  solved.stats = solver.solveSoftStep(solved.wall.bodies, solved.motion);
  if (bounce) solved.bounces = solver.applyRestitution(solved.wall.bodies);
  solved.width = solver.laneWidth();
  solved.bundles = solver.laneBundles();
  return solved;
}

/// The rigid schedule on a fast wallOfCubes(seed) whose contacts bounce: warm start, velocity
/// sweeps, shock pass, position pass and bounces, as the world's step runs them.
Solved solveRigid(unsigned seed, int lanes, int workers = 1) {
  Solved solved{wallOfCubes(seed, 3.0, 0.5), {}, {}, {}, 0, 0};
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  integrator.integrateVelocities(solved.wall.bodies, kCubeGravity, kCubeDt, rotations);
  ContactSolver solver;
  if (workers > 1) {
    solver.setTeam(test::threadPerTask, workers);
  }
  ContactSolverOptions options;
  options.sweepLanes = lanes;
  solver.prepare(solved.wall.bodies, solved.wall.contacts, kCubeDt, options, kCubeGravity);
  solver.warmStart(solved.wall.bodies);
  solved.stats = solver.solveVelocities(solved.wall.bodies);
  solver.solvePositions(solved.wall.bodies, solved.motion);
  solved.bounces = solver.applyRestitution(solved.wall.bodies);
  solved.width = solver.laneWidth();
  solved.bundles = solver.laneBundles();
  return solved;
}

bool sameBits(const Vector3d& x, const Vector3d& y) {
  return std::memcmp(x.data(), y.data(), 3 * sizeof(double)) == 0;
}

void expectSameBits(const Solved& x, const Solved& y) {
  EXPECT_EQ(std::memcmp(&x.stats.residual, &y.stats.residual, sizeof(double)), 0);
  for (std::size_t i = 1; i < x.wall.bodies.size(); ++i) {
    EXPECT_TRUE(sameBits(x.wall.bodies[i].linearVelocity, y.wall.bodies[i].linearVelocity))
        << "cube " << i;
    EXPECT_TRUE(sameBits(x.wall.bodies[i].angularVelocity, y.wall.bodies[i].angularVelocity))
        << "cube " << i;
    EXPECT_TRUE(sameBits(x.motion.linear[i], y.motion.linear[i])) << "cube " << i;
    EXPECT_TRUE(sameBits(x.motion.angular[i], y.motion.angular[i])) << "cube " << i;
  }
  for (std::size_t k = 0; k < x.wall.contacts.size(); ++k) {
    EXPECT_TRUE(sameBits(x.wall.contacts[k].impulse, y.wall.contacts[k].impulse))
        << "contact " << k;
  }
}

TEST(ContactSweepLanes, TwoFourOrEightLanesGiveTheBitsOfOneByOne) {
  for (const unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    const Solved oneByOne = solveSoft(seed, 1);
    EXPECT_EQ(oneByOne.width, 1);
    EXPECT_EQ(oneByOne.bundles, 0);
    EXPECT_GT(oneByOne.stats.residual, 0.0);
    const int widest = widestLanes();
    for (const int lanes : {2, 4, 8, 0}) {
      SCOPED_TRACE(lanes);
      const Solved inLanes = solveSoft(seed, lanes);
      EXPECT_EQ(inLanes.width, lanes == 0 ? widest : std::min(lanes, widest));
      // Every manifold but the colours' leftovers, in bundles.
      EXPECT_GT(inLanes.bundles * inLanes.width, 500);
      expectSameBits(oneByOne, inLanes);
    }
    // The step met every case of the point's update: points that separate, stick inside the
    // friction cone and slide on its edge.
    int separating = 0, sticking = 0, sliding = 0;
    for (const ContactConstraint& c : oneByOne.wall.contacts) {
      const double friction = c.impulse.tail<2>().norm(), limit = c.friction * c.impulse.x();
      separating += c.impulse.x() == 0.0;
      sticking += c.impulse.x() > 0.0 && friction < 0.99 * limit;
      sliding += c.impulse.x() > 0.0 && friction > (1.0 - 1e-9) * limit;
    }
    EXPECT_GT(separating, 20);
    EXPECT_GT(sticking, 20);
    EXPECT_GT(sliding, 20);
  }
}

// The soft step in lanes leaves the rows in pair order; the bounces after it visit them in sweep
// order all the same.
TEST(ContactSweepLanes, BouncesAfterASoftStepInLanesGiveTheBitsOfOneByOne) {
  const Solved oneByOne = solveSoft(5, 1, 1, true);
  const Solved inLanes = solveSoft(5, 0, 1, true);
  EXPECT_GT(inLanes.bundles, 0);
  EXPECT_GT(oneByOne.bounces.iterations, 1);  // rows bounced, over several sweeps
  EXPECT_EQ(oneByOne.bounces.iterations, inLanes.bounces.iterations);
  expectSameBits(oneByOne, inLanes);
}

TEST(ContactSweepLanes, ATeamInLanesGivesTheSameBits) {
  const Solved oneByOne = solveSoft(7, 1);
  const Solved team = solveSoft(7, 0, 3);
  EXPECT_GT(team.bundles, 0);
  expectSameBits(oneByOne, team);
}

// The rigid schedule's velocity sweeps in lanes; its shock pass, position pass and bounces read
// the rows, which stay in pair order, and visit them in sweep order all the same.
TEST(ContactSweepLanes, TheRigidScheduleInLanesGivesTheBitsOfOneByOne) {
  for (const unsigned seed : {11u, 12u}) {
    SCOPED_TRACE(seed);
    const Solved oneByOne = solveRigid(seed, 1);
    EXPECT_EQ(oneByOne.bundles, 0);
    // The sweeps ran to their cap or converged after several; rows bounced.
    EXPECT_GT(oneByOne.stats.iterations, 5);
    EXPECT_GT(oneByOne.bounces.iterations, 1);
    for (const int lanes : {2, 4, 8, 0}) {
      SCOPED_TRACE(lanes);
      const Solved inLanes = solveRigid(seed, lanes);
      EXPECT_GT(inLanes.bundles * inLanes.width, 500);
      EXPECT_EQ(oneByOne.stats.iterations, inLanes.stats.iterations);
      EXPECT_EQ(oneByOne.bounces.iterations, inLanes.bounces.iterations);
      expectSameBits(oneByOne, inLanes);
    }
    const Solved team = solveRigid(seed, 0, 3);
    EXPECT_GT(team.bundles, 0);
    expectSameBits(oneByOne, team);
  }
}

TEST(ContactSweepLanes, AWidthItCannotRunIsAClearError) {
  Wall wall = wallOfCubes(1);
  ContactSolver solver;
  ContactSolverOptions options;
  options.softSubsteps = 4;
  options.sweepLanes = 3;
  try {
    solver.prepare(wall.bodies, wall.contacts, kCubeDt, options, kCubeGravity);
    FAIL() << "three lanes were accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("0 (the CPU's widest), 1, 2, 4 or 8"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace hb
