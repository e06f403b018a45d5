// Large islands swept colour by colour (dynamics/contact_colouring.cpp): every manifold is still
// visited, the solution carries the weight, and any way of running a colour's visits at once
// gives the same bits as running them one after the other; the soft step's substeps, run as one
// team, the passes over every manifold (dynamics/contact_manifold_pass.cpp: the warm start,
// the soft step's carried impulses) and the position pass (dynamics/contact_position_pass.cpp),
// too.

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "dynamics/contact_solver.hpp"
#include "dynamics/integrator.hpp"
#include "tests/dynamics/solver_test_constants.hpp"
#include "tests/run_tasks.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;
using namespace hb::solver_test;

/// A row of `count` unit cubes (1000 kg) side by side on the ground (body 0), each touching the
/// next: `count` ground manifolds and `count - 1` between neighbours, one island.
struct Row {
  std::vector<RigidBody> bodies;
  std::vector<ContactConstraint> contacts;
};

ContactConstraint corner(int a, int b, const Vector3d& point, const Vector3d& normal) {
  ContactConstraint c;
  c.bodyA = a;
  c.bodyB = b;
  c.point = point;
  c.normal = normal;
  c.buildTangents();
  c.friction = 0.6;
  return c;
}

Row rowOfCubes(int count) {
  Row row;
  row.bodies.push_back(RigidBody::fixed());
  const Vector3d h(kCubeHalf, kCubeHalf, kCubeHalf);
  for (int i = 0; i < count; ++i) {
    RigidBody cube = RigidBody::dynamic(boxMassProperties(h, 1000.0));
    cube.position = {2.0 * kCubeHalf * i, 0.0, kCubeHalf};
    row.bodies.push_back(cube);
  }
  for (int i = 1; i <= count; ++i) {
    const Vector3d c = row.bodies[i].position;
    for (int k = 0; k < 4; ++k) {
      const Vector3d offset((k & 1 ? 1 : -1) * kCubeHalf, (k & 2 ? 1 : -1) * kCubeHalf, -kCubeHalf);
      row.contacts.push_back(corner(0, i, c + offset, Vector3d::UnitZ()));
    }
    if (i == count) continue;
    for (int k = 0; k < 4; ++k) {
      const Vector3d offset(kCubeHalf, (k & 1 ? 1 : -1) * kCubeHalf, (k & 2 ? 1 : -1) * kCubeHalf);
      row.contacts.push_back(corner(i, i + 1, c + offset, Vector3d::UnitX()));
    }
  }
  return row;
}

/// One step's velocity solve (gravity, warm start, sweeps) with `workers` tasks sharing the
/// colours, run by `runTasks`; returns the solver's statistics.
ContactSolverStats solve(Row& row, const ParallelFor& runTasks = {}, int workers = 1) {
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  integrator.integrateVelocities(row.bodies, kCubeGravity, kCubeDt, rotations);
  ContactSolver solver;
  if (runTasks) solver.setTeam(runTasks, workers);
  ContactSolverOptions options;
  options.velocityIterations = 200;
  solver.prepare(row.bodies, row.contacts, kCubeDt, options, kCubeGravity);
  solver.warmStart(row.bodies);
  return solver.solveVelocities(row.bodies);
}

/// Adds `count` cubes apart from the others on the ground, each an island of its own (too
/// small to colour).
void addLoneCubes(Row& row, int count) {
  const Vector3d h(kCubeHalf, kCubeHalf, kCubeHalf);
  for (int i = 0; i < count; ++i) {
    RigidBody cube = RigidBody::dynamic(boxMassProperties(h, 1000.0));
    cube.position = {-10.0 - 3.0 * i, 0.0, kCubeHalf};
    row.bodies.push_back(cube);
    const int body = static_cast<int>(row.bodies.size()) - 1;
    for (int k = 0; k < 4; ++k) {
      const Vector3d offset((k & 1 ? 1 : -1) * kCubeHalf, (k & 2 ? 1 : -1) * kCubeHalf, -kCubeHalf);
      row.contacts.push_back(corner(0, body, cube.position + offset, Vector3d::UnitZ()));
    }
  }
}

/// One step of the soft step (4 substeps) with `workers` tasks, run by `runTasks`; the motion
/// it leaves for the integrator goes to `motion`.
ContactSolverStats solveSoft(Row& row, PseudoVelocities& motion, const ParallelFor& runTasks = {},
                             int workers = 1) {
  RigidBodyIntegrator integrator;
  RotationSteps rotations;
  integrator.integrateVelocities(row.bodies, Vector3d::Zero(), kCubeDt, rotations);
  ContactSolver solver;
  if (runTasks) solver.setTeam(runTasks, workers);
  ContactSolverOptions options;
  options.softSubsteps = 4;
  solver.prepare(row.bodies, row.contacts, kCubeDt, options, kCubeGravity);
  return solver.solveSoftStep(row.bodies, motion);
}

/// Runs a team's tasks, counting them in `tasks`: four on threads of their own, any other
/// number one after the other.
ParallelFor countedTeam(int workers, int& tasks) {
  return [workers, &tasks](std::size_t count, const std::function<void(std::size_t)>& task) {
    tasks += static_cast<int>(count);
    if (workers == 4) {
      test::threadPerTask(count, task);
    } else {
      // The first does all the work, the others find every colour done.
      test::lastTaskFirst(count, task);
    }
  };
}

/// Impulses from a step before, different for every contact, so that a warm start moves the
/// bodies.
void carryImpulses(Row& row) {
  for (std::size_t k = 0; k < row.contacts.size(); ++k) {
    row.contacts[k].impulse = {10.0 + static_cast<double>(k % 13), 0.1 * static_cast<double>(k % 5),
                               -0.05 * static_cast<double>(k % 7)};
  }
}

constexpr int kCubes = 150;  // 299 manifolds: above ContactSolver::kColouredIsland
static_assert(2 * kCubes - 1 >= ContactSolver::kColouredIsland);

TEST(ContactColouring, AColouredRowOfCubesRestsAndCarriesItsWeight) {
  Row row = rowOfCubes(kCubes);
  const ContactSolverStats stats = solve(row);
  EXPECT_TRUE(stats.converged);
  // Every cube is held: no velocity left after gravity's.
  for (int i = 1; i <= kCubes; ++i) {
    EXPECT_LT(row.bodies[i].linearVelocity.norm(), 1e-6) << "cube " << i;
    EXPECT_LT(row.bodies[i].angularVelocity.norm(), 1e-6) << "cube " << i;
  }
  // The ground's four corners under each cube carry its weight over the step, m g dt.
  for (int i = 0; i < kCubes; ++i) {
    double normal = 0.0;
    for (const ContactConstraint& c : row.contacts) {
      if (c.bodyA == 0 && c.bodyB == i + 1) normal += c.impulse.x();
    }
    EXPECT_NEAR(normal, 1000.0 * 10.0 * kCubeDt, 1e-6) << "cube " << i + 1;
  }
}

void expectSameBits(const Row& inOrder, const Row& atOnce, const ContactSolverStats& a,
                    const ContactSolverStats& b) {
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(std::memcmp(&a.residual, &b.residual, sizeof(double)), 0);
  for (std::size_t i = 1; i < inOrder.bodies.size(); ++i) {
    const RigidBody& x = inOrder.bodies[i];
    const RigidBody& y = atOnce.bodies[i];
    EXPECT_EQ(std::memcmp(x.linearVelocity.data(), y.linearVelocity.data(), 3 * sizeof(double)), 0)
        << "body " << i;
    EXPECT_EQ(std::memcmp(x.angularVelocity.data(), y.angularVelocity.data(), 3 * sizeof(double)),
              0)
        << "body " << i;
  }
  for (size_t k = 0; k < inOrder.contacts.size(); ++k) {
    EXPECT_EQ(std::memcmp(inOrder.contacts[k].impulse.data(), atOnce.contacts[k].impulse.data(),
                          3 * sizeof(double)),
              0)
        << "contact " << k;
  }
}

/// The same motion, bit for bit, for every body the solver may move (all but the ground, 0).
void expectSameMotion(const PseudoVelocities& inOrder, const PseudoVelocities& atOnce) {
  ASSERT_EQ(inOrder.linear.size(), atOnce.linear.size());
  for (std::size_t i = 1; i < inOrder.linear.size(); ++i) {
    EXPECT_EQ(std::memcmp(inOrder.linear[i].data(), atOnce.linear[i].data(), 3 * sizeof(double)), 0)
        << "body " << i;
    EXPECT_EQ(std::memcmp(inOrder.angular[i].data(), atOnce.angular[i].data(), 3 * sizeof(double)),
              0)
        << "body " << i;
  }
}

TEST(ContactColouring, TheSoftStepAsOneTeamGivesTheSameBits) {
  for (const int workers : {4, 3}) {
    SCOPED_TRACE(workers);
    Row inOrder = rowOfCubes(kCubes);
    addLoneCubes(inOrder, 20);
    // Sinking a little, so that the soft rows push.
    for (std::size_t i = 1; i < inOrder.bodies.size(); ++i) {
      inOrder.bodies[i].linearVelocity = {0.01 * (i % 7), 0.02 * (i % 3) - 0.02, -0.05};
    }
    for (ContactConstraint& c : inOrder.contacts) c.depth = 0.002;
    carryImpulses(inOrder);
    Row atOnce = inOrder;
    PseudoVelocities motionInOrder, motionAtOnce;
    const ContactSolverStats a = solveSoft(inOrder, motionInOrder);
    int tasks = 0;
    const ContactSolverStats b =
        solveSoft(atOnce, motionAtOnce, countedTeam(workers, tasks), workers);
    EXPECT_EQ(tasks, 2 * workers);  // the carried impulses, then the whole step: two teams
    EXPECT_EQ(a.iterations, 8);
    EXPECT_GT(a.residual, 0.0);
    expectSameBits(inOrder, atOnce, a, b);
    expectSameMotion(motionInOrder, motionAtOnce);
    // The lone cubes moved up out of the ground, as the row did.
    EXPECT_GT(motionInOrder.linear.back().z(), 0.0);
  }
}

TEST(ContactColouring, RunningAColourAtOnceGivesTheSameBits) {
  for (const int workers : {4, 3}) {
    SCOPED_TRACE(workers);
    // With islands too small to colour, which the workers take before they join the sweeps.
    Row inOrder = rowOfCubes(kCubes);
    addLoneCubes(inOrder, 20);
    // A little motion, so that the sweeps have work in every colour and every lone cube.
    for (std::size_t i = 1; i < inOrder.bodies.size(); ++i) {
      inOrder.bodies[i].linearVelocity = {0.01 * (i % 7), 0.02 * (i % 3) - 0.02, -0.05};
    }
    Row atOnce = inOrder;
    const ContactSolverStats a = solve(inOrder);
    int tasks = 0;
    const ContactSolverStats b = solve(atOnce, countedTeam(workers, tasks), workers);
    EXPECT_EQ(tasks, 2 * workers);  // the warm start, then the island's sweeps
    EXPECT_GT(a.iterations, 1);
    expectSameBits(inOrder, atOnce, a, b);
  }
}

/// A solver on this thread and one on a team of `workers` (its tasks counted in `tasks`), each
/// prepared for one of two copies of the same row.
struct Prepared {
  Prepared(Row& inOrder, Row& atOnce, int workers, int& tasks) {
    team.setTeam(countedTeam(workers, tasks), workers);
    const ContactSolverOptions options;
    alone.prepare(inOrder.bodies, inOrder.contacts, kCubeDt, options, kCubeGravity);
    team.prepare(atOnce.bodies, atOnce.contacts, kCubeDt, options, kCubeGravity);
  }
  ContactSolver alone, team;
};

TEST(ContactColouring, AWarmStartOnATeamGivesTheSameBits) {
  // A coloured island whose colours all share the ground, and islands too small to colour: on a
  // team each body still takes its manifolds' impulses in the same order.
  for (const int workers : {4, 3, 2}) {
    SCOPED_TRACE(workers);
    Row inOrder = rowOfCubes(kCubes);
    addLoneCubes(inOrder, 20);
    carryImpulses(inOrder);
    Row atOnce = inOrder;
    int tasks = 0;
    Prepared solvers(inOrder, atOnce, workers, tasks);
    solvers.alone.warmStart(inOrder.bodies);
    solvers.team.warmStart(atOnce.bodies);
    EXPECT_EQ(tasks, workers);
    for (std::size_t i = 1; i < inOrder.bodies.size(); ++i) {
      const RigidBody& x = inOrder.bodies[i];
      const RigidBody& y = atOnce.bodies[i];
      EXPECT_GT(x.linearVelocity.norm(), 0.0) << "body " << i;
      EXPECT_EQ(std::memcmp(x.linearVelocity.data(), y.linearVelocity.data(), 3 * sizeof(double)),
                0)
          << "body " << i;
      EXPECT_EQ(std::memcmp(x.angularVelocity.data(), y.angularVelocity.data(), 3 * sizeof(double)),
                0)
          << "body " << i;
    }
    // The ground does not move, though every colour pushed on it.
    EXPECT_EQ(atOnce.bodies[0].linearVelocity, Vector3d::Zero());
  }
}

TEST(ContactColouring, ThePositionPassOnATeamGivesTheSameBits) {
  // A coloured island whose colours all share the ground and islands too small to colour, two of
  // every three contacts beyond the slop: on a team each body still takes its manifolds'
  // pushes in the same order, and the ground takes none.
  for (const int workers : {4, 3, 2}) {
    SCOPED_TRACE(workers);
    Row inOrder = rowOfCubes(kCubes);
    addLoneCubes(inOrder, 20);
    for (std::size_t k = 0; k < inOrder.contacts.size(); ++k) {
      inOrder.contacts[k].depth = k % 3 == 0 ? 0.0 : 0.01 + 0.001 * static_cast<double>(k % 5);
    }
    Row atOnce = inOrder;
    int tasks = 0;
    Prepared solvers(inOrder, atOnce, workers, tasks);
    PseudoVelocities pushedInOrder, pushedAtOnce;
    solvers.alone.solvePositions(inOrder.bodies, pushedInOrder);
    solvers.team.solvePositions(atOnce.bodies, pushedAtOnce);
    EXPECT_EQ(tasks, workers);  // the coloured island's passes, as one team
    expectSameMotion(pushedInOrder, pushedAtOnce);
    for (std::size_t i = 1; i < inOrder.bodies.size(); ++i) {
      EXPECT_GT(pushedInOrder.linear[i].z(), 0.0) << "body " << i;
    }
    EXPECT_EQ(pushedAtOnce.linear[0], Vector3d::Zero());
    EXPECT_EQ(pushedAtOnce.angular[0], Vector3d::Zero());
  }
}

}  // namespace
}  // namespace hb
