// The world's step end to end: resting, friction on a slope, stacking, no tunnelling, the
// funnel, sleeping and determinism.

#include <gtest/gtest.h>

#include <limits>

#include <cmath>
#include <cstring>
#include <numbers>

#include "engine/run_summary.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"
#include "tests/engine/world_test_scenes.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

using test_scenes::groundScene;

BodyDescription boxBody(const Vector3d& h, const Vector3d& position, double friction = 0.8) {
  BodyDescription b;
  b.shape.shape = Shape::box(h);
  b.pose.p = position;
  b.material.friction = friction;
  b.density = 500.0;
  return b;
}

TEST(World, BoxComesToRestOnTheGround) {
  SceneDescription scene = groundScene();
  scene.bodies.push_back(boxBody({0.1, 0.15, 0.05}, {0, 0, 0.2}));
  World world(scene);
  const RunSummary r = runSteps(world, 240);
  const RigidBody& box = world.rigidBodies()[1];
  EXPECT_FALSE(r.nonFinite);
  EXPECT_NEAR(box.position.z(), 0.05, 0.001);  // resting within the slop
  EXPECT_LT(box.linearVelocity.norm(), 1e-3);
  EXPECT_TRUE(box.sleeping);
}

// Awake for 10 s (sleeping off): less than 1 mm of overlap and no drift.
TEST(World, RestingBoxNeitherSinksNorDrifts) {
  SceneDescription scene = groundScene();
  scene.solver.sleeping = false;
  BodyDescription box = boxBody({0.1, 0.15, 0.05}, {0, 0, 0.0502});
  box.pose.q = Eigen::AngleAxisd(0.3, Vector3d::UnitZ());
  scene.bodies.push_back(box);
  World world(scene);
  runSteps(world, 120);
  const Vector3d settled = world.rigidBodies()[1].position;
  double deepest = 0.0;
  for (int i = 0; i < 1200; ++i) {
    world.step();
    deepest = std::max(deepest, world.lastStep().maxPenetration);
  }
  EXPECT_LT(deepest, 0.001);
  EXPECT_LT((world.rigidBodies()[1].position - settled).norm(), 1e-4);
}

// Velocities no step can integrate are refused when the body is added (1e300 rad/s turned the
// orientation into zeros, 1e300 m/s gave an infinite energy, both "finite").
TEST(World, SubMillimetreBodiesRestOnTheGround) {
  // Bodies of 0.1 to 0.5 mm weigh nanograms: their impulses are far below any fixed impulse
  // tolerance (the solver measures changes as velocities), and the solver's slop is larger than
  // they are (a contact keeps at most a fifth of its thinner piece in penetration).
  for (const double s : {1e-4, 2e-4, 5e-4}) {
    SCOPED_TRACE(s);
    SceneDescription scene = groundScene();
    BodyDescription cube = boxBody({s, s, s}, {0.0, 0.0, 0.05});
    BodyDescription plate = boxBody({4 * s, 4 * s, s}, {0.1, 0.0, 0.05});
    BodyDescription ball = cube;
    ball.shape.shape = Shape::sphere(s);
    ball.pose.p = {0.2, 0.0, 0.05};
    scene.bodies = {cube, plate, ball};
    World world(scene);
    double lowest[3] = {1.0, 1.0, 1.0};
    for (int i = 0; i < 240; ++i) {
      world.step();
      for (int k = 0; k < 3; ++k) {
        lowest[k] = std::min(lowest[k], world.rigidBodies()[k + 1].position.z());
      }
    }
    // GJK stops within its tolerance on the squared distance, so a curved body of size s rests
    // up to about tolerance / (2 s) above its support (50 um for s = 0.1 mm; docs/scenes.md).
    const double gjkSlack = scene.solver.gjkTolerance / (2 * s);
    for (int k = 0; k < 3; ++k) {
      SCOPED_TRACE(k);
      // Resting at its half height (s for all three), never sunk by more than a tenth of it.
      EXPECT_NEAR(world.rigidBodies()[k + 1].position.z(), s, 0.1 * s + gjkSlack);
      EXPECT_GT(lowest[k], 0.9 * s);
    }
  }
}

TEST(World, HeavyBoxesRestOnLightOnes) {
  // A box up to a million times heavier than the 1 kg box it rests on: Gauss–Seidel alone
  // needs about the mass ratio in sweeps to carry the weight down, and meanwhile pushes the
  // light box through the ground (at 1e3 the pair sank through each other, at 1e5 the heavy
  // box's contacts were dropped as singular); the shock pass stops the heavy box on the light
  // one. Nothing moves, nothing gains energy.
  for (const double ratio : {1e2, 1e4, 1e6}) {
    SCOPED_TRACE(ratio);
    SceneDescription scene = groundScene();
    BodyDescription light = boxBody({0.05, 0.05, 0.05}, {0.0, 0.0, 0.05});
    light.density = 1000.0;
    BodyDescription heavy = light;
    heavy.pose.p.z() = 0.15;
    heavy.density = 1000.0 * ratio;
    scene.bodies = {light, heavy};
    World world(scene);
    double largestSpeed = 0.0;
    for (int i = 0; i < 600; ++i) {
      world.step();
      for (int k = 1; k <= 2; ++k) {
        largestSpeed = std::max(largestSpeed, world.rigidBodies()[k].linearVelocity.norm());
      }
    }
    EXPECT_NEAR(world.rigidBodies()[1].position.z(), 0.05, 1e-3);
    EXPECT_NEAR(world.rigidBodies()[2].position.z(), 0.15, 1e-3);
    EXPECT_LT((world.rigidBodies()[2].position - Vector3d(0, 0, 0.15)).head<2>().norm(), 1e-4);
    EXPECT_LT(largestSpeed, 1e-3);  // m/s: never more than a millimetre per second
  }
}

TEST(World, EnergyGainCountsWhatTheBodiesBroughtIn) {
  // A box thrown onto the ground and pushed by hand: the energy it was added with and the push
  // are brought in, the fall trades height for speed, the landing and friction take energy
  // away. The gain over what came in never passes the limit that flags a blow-up.
  SceneDescription scene = groundScene();
  BodyDescription box = boxBody({0.1, 0.1, 0.1}, {0.0, 0.0, 1.0});
  box.linearVelocity = {1.0, 0.0, 2.0};
  box.angularVelocity = {0.0, 3.0, 0.0};
  scene.bodies = {box};
  World world(scene);
  EXPECT_NEAR(world.energyGain(), 0.0, 1e-12);
  EXPECT_GT(world.energyGainLimit(), 0.0);
  double largest = world.energyGain();
  for (int i = 0; i < 240; ++i) {
    if (i == 120) {
      world.applyImpulse(1, world.rigidBodies()[1].position, {5.0, 0.0, 0.0});
      EXPECT_LE(world.energyGain(), largest + 1e-12);  // the push is counted as brought in
    }
    world.step();
    largest = std::max(largest, world.energyGain());
  }
  EXPECT_LT(largest, world.energyGainLimit());
  EXPECT_LT(world.energyGain(), -1.0);  // the landing and sliding took more than a joule
}

TEST(World, AbsurdVelocitiesAreRefused) {
  for (const bool spin : {true, false}) {
    SceneDescription scene = groundScene();
    BodyDescription box = boxBody({0.1, 0.1, 0.1}, {0, 0, 1});
    (spin ? box.angularVelocity : box.linearVelocity) = Vector3d(1e300, 0, 0);
    scene.bodies.push_back(box);
    try {
      World world(scene);
      ADD_FAILURE() << "accepted " << (spin ? "a spin" : "a speed") << " of 1e300";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("velocities must be finite, at most"), std::string::npos)
          << e.what();
    }
  }
}

TEST(World, ImpulsesThatWouldMakeAbsurdVelocitiesAreRefusedLeavingTheBodyAsItWas) {
  SceneDescription scene = groundScene();
  scene.bodies.push_back(boxBody({0.1, 0.1, 0.1}, {0, 0, 1}));
  World world(scene);
  const RigidBody before = world.rigidBodies()[1];
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto& [point, impulse] : {std::pair{Vector3d(0, 0, 1), Vector3d(nan, 0, 0)},
                                       {Vector3d(0, 0, 1), Vector3d(inf, 0, 0)},
                                       {Vector3d(0, 0, 1), Vector3d(1e300, 0, 0)},
                                       {Vector3d(0, 0, 1), Vector3d(0, 0, 1e7)},
                                       {Vector3d(2e6, 0, 1), Vector3d(0, 0, 1)},
                                       {Vector3d(nan, 0, 1), Vector3d(0, 0, 1)}}) {
    EXPECT_THROW(world.applyImpulse(1, point, impulse), std::invalid_argument)
        << point.transpose() << " / " << impulse.transpose();
    EXPECT_EQ(world.rigidBodies()[1].linearVelocity, before.linearVelocity);
    EXPECT_EQ(world.rigidBodies()[1].angularVelocity, before.angularVelocity);
  }
  EXPECT_THROW(world.applyImpulse(7, {0, 0, 1}, {1, 0, 0}), std::out_of_range);
  try {
    world.applyImpulse(0, {0, 0, 0}, {1, 0, 0});
    ADD_FAILURE() << "the static body took an impulse";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("static body"), std::string::npos) << e.what();
  }
  world.applyImpulse(1, {0, 0, 1}, {1, 0, 0});  // an ordinary push still works
  EXPECT_GT(world.rigidBodies()[1].linearVelocity.x(), 0.0);
}

// Bodies placed inside one another make pairs with the square of their count: past
// solver.max_pairs_per_piece per piece the step stops with an error naming the counts, before
// the narrow phase allocates for them, and leaves the world as it was; a higher limit lets the
// same scene step.
TEST(World, CoincidentBodiesStopAtThePairLimitLeavingTheWorldAsItWas) {
  SceneDescription scene = groundScene();
  BodyDescription ball;
  ball.shape.shape = Shape::sphere(0.1);
  ball.pose.p = Vector3d(0, 0, 1);
  scene.bodies.assign(300, ball);  // 44,850 pairs among 301 pieces
  {
    World world(scene);
    try {
      world.step();
      ADD_FAILURE() << "stepped 300 coincident spheres";
    } catch (const PairLimitError& e) {
      EXPECT_EQ(std::string(e.what()),
                "step 0: the broad phase found 44850 candidate pairs among 301 collision pieces, "
                "more than solver.max_pairs_per_piece (64) x 301 = 19264; bodies placed inside "
                "one another? Move them apart, or raise the setting (each pair costs the step up "
                "to about 10 kB)");
    }
    EXPECT_EQ(world.stepCount(), 0);
    for (size_t i = 1; i < world.rigidBodies().size(); ++i) {
      EXPECT_EQ(world.rigidBodies()[i].position, ball.pose.p);
      EXPECT_EQ(world.rigidBodies()[i].linearVelocity, Vector3d::Zero());
    }
  }
  scene.bodies.resize(30);  // 435 pairs: below the limit
  World small(scene);
  EXPECT_NO_THROW(small.step());
  scene.bodies.assign(300, ball);
  scene.solver.maxPairsPerPiece = 150;
  World allowed(scene);
  EXPECT_NO_THROW(allowed.step());
  EXPECT_EQ(allowed.lastStep().candidatePairs, 44850);
}

// A body whose mass properties cannot be inverted is an error naming the body.
TEST(World, SingularInertiaNamesTheBody) {
  SceneDescription scene = groundScene();
  BodyDescription box = boxBody({0.1, 0.1, 0.1}, {0, 0, 1});
  box.mass = 1e-320;  // positive, but its inertia's inverse overflows
  scene.bodies.push_back(box);
  try {
    World world(scene);
    ADD_FAILURE() << "accepted a singular inertia";
  } catch (const MassPropertiesError& e) {
    EXPECT_EQ(std::string(e.what()), "body 'box': inertia tensor is singular");
  }
}

// The ground and the box are rounded by the scene's convex radius, their faces unchanged: the box
// rests at its half height, and its resting contact is a GJK distance between the cores (no EPA).
TEST(World, RoundedBoxRestsAtItsHalfHeightWithoutEpa) {
  SceneDescription scene = groundScene();
  scene.solver.sleeping = false;
  scene.solver.convexRadius = 0.002;
  BodyDescription box = boxBody({0.1, 0.15, 0.05}, {0, 0, 0.0502});
  box.pose.q = Eigen::AngleAxisd(0.3, Vector3d::UnitZ());
  scene.bodies.push_back(box);
  World world(scene);
  runSteps(world, 120);
  long epaCalls = 0, pairs = 0;
  for (int i = 0; i < 240; ++i) {
    world.step();
    epaCalls += world.lastStep().epaCalls;
    // Queried, or answered by its kept manifold while it rests.
    pairs += world.lastStep().gjkCalls + world.lastStep().keptPairs;
    EXPECT_EQ(world.lastStep().contacts, 4);
  }
  EXPECT_EQ(epaCalls, 0);
  EXPECT_EQ(pairs, 240);
  EXPECT_NEAR(world.rigidBodies()[1].position.z(), 0.05, 5e-4);
}

TEST(World, BoxesAndHullsTakeTheScenesConvexRadius) {
  SceneDescription scene = groundScene();
  scene.solver.convexRadius = 0.003;
  scene.bodies.push_back(boxBody({0.1, 0.15, 0.05}, {0, 0, 0.2}));
  scene.bodies.push_back(boxBody({0.1, 0.1, 0.004}, {0.5, 0, 0.2}));  // too thin for 3 mm
  BodyDescription ball;
  ball.shape.shape = Shape::sphere(0.05);
  ball.pose.p = {-0.5, 0, 0.2};
  scene.bodies.push_back(ball);
  for (int i = 0; i < 2; ++i) {
    BodyDescription brick;
    brick.shape.asset = "061_foam_brick";
    brick.pose.p = {0.0, 0.5 + 0.3 * i, 0.2};
    scene.bodies.push_back(brick);
  }
  World world(scene);
  const std::vector<Proxy>& p = world.proxies();
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0].shape.convexRadius(), 0.003);  // the ground
  EXPECT_EQ(p[1].shape.convexRadius(), 0.003);
  EXPECT_EQ(p[1].shape.halfExtents(), Vector3d(0.1, 0.15, 0.05));  // faces where they were
  EXPECT_EQ(p[2].shape.convexRadius(), 0.001);                     // clamped to a quarter of 4 mm
  EXPECT_EQ(p[3].shape.convexRadius(), 0.05);                      // spheres as they are
  const double brickRadius = std::min(0.003, p[4].shape.maxConvexRadius());
  EXPECT_EQ(p[4].shape.convexRadius(), brickRadius);
  // Every body of one asset shares its core.
  EXPECT_NE(p[4].shape.coreHullPtr(), p[4].shape.hullPtr());
  EXPECT_EQ(p[4].shape.coreHullPtr(), p[5].shape.coreHullPtr());

  scene.solver.convexRadius = 0.0;
  World sharp(scene);
  for (const Proxy& q : sharp.proxies()) {
    if (q.shape.type() == ShapeType::Box) {
      EXPECT_EQ(q.shape.coreHalfExtents(), q.shape.halfExtents());
    } else if (q.shape.type() == ShapeType::ConvexHull) {
      EXPECT_EQ(q.shape.coreHullPtr(), q.shape.hullPtr());
    }
  }
}

// Head-on, no gravity: momentum is conserved and the relative velocity reverses by e.
TEST(World, HeadOnSpheresConserveMomentumWithRestitution) {
  for (double e : {0.0, 0.5, 1.0}) {
    SceneDescription scene;
    scene.assetDir = std::string(HB_SOURCE_DIR) + "/assets/ycb";
    scene.gravity.setZero();
    scene.solver.sleeping = false;
    BodyDescription a, b;
    a.shape.shape = Shape::sphere(0.1);
    b.shape.shape = Shape::sphere(0.05);
    a.pose.p = {-0.3, 0, 0};
    b.pose.p = {0.3, 0, 0};
    a.linearVelocity = {2.0, 0, 0};
    b.linearVelocity = {-1.0, 0, 0};
    a.material.restitution = b.material.restitution = e;
    a.density = b.density = 1000;
    scene.bodies = {a, b};
    World world(scene);
    const double ma = 1.0 / world.rigidBodies()[1].inverseMass;
    const double mb = 1.0 / world.rigidBodies()[2].inverseMass;
    const double before = ma * 2.0 - mb * 1.0;
    runSteps(world, 60);
    const Vector3d va = world.rigidBodies()[1].linearVelocity;
    const Vector3d vb = world.rigidBodies()[2].linearVelocity;
    EXPECT_NEAR(ma * va.x() + mb * vb.x(), before, 1e-9) << "e " << e;
    EXPECT_NEAR(vb.x() - va.x(), e * 3.0, 1e-6) << "e " << e;
  }
}

// Boxes on a ramp tilted by 20 degrees: tan 20 = 0.364, so mu = 0.6 holds and mu = 0.15 slides
// with acceleration g (sin a - mu cos a).
TEST(World, FrictionOnASlope) {
  const double angle = 20.0 * std::numbers::pi / 180.0;
  SceneDescription scene;
  scene.assetDir = std::string(HB_SOURCE_DIR) + "/assets/ycb";
  scene.solver.sleeping = false;
  StaticDescription ramp;
  ramp.kind = StaticDescription::Kind::Shape;
  ramp.shape = Shape::box({2.0, 1.0, 0.1});
  ramp.pose.q = Eigen::AngleAxisd(-angle, Vector3d::UnitY());  // descends towards +x
  ramp.material.friction = 1.0;
  scene.statics.push_back(ramp);
  const Vector3d normal = ramp.pose.q * Vector3d::UnitZ();
  Vector3d down = ramp.pose.q * Vector3d::UnitX();  // along the slope...
  if (down.z() > 0) down = -down;                   // ...downhill
  const Vector3d h(0.05, 0.05, 0.05);
  // Contact friction is the geometric mean of the two materials' (ramp: 1).
  for (double mu : {0.6, 0.15}) {
    BodyDescription b = boxBody(
        h, (0.1 + 0.05 + 1e-4) * normal + (mu > 0.3 ? -0.5 : 0.5) * Vector3d::UnitY(), mu * mu);
    b.pose.q = ramp.pose.q;
    scene.bodies.push_back(b);
  }
  World world(scene);
  const Vector3d start1 = world.rigidBodies()[1].position, start2 = world.rigidBodies()[2].position;
  const double seconds = 1.0;
  runSteps(world, std::lround(seconds / scene.dt));
  const double sticking = (world.rigidBodies()[1].position - start1).dot(down);
  const double sliding = (world.rigidBodies()[2].position - start2).dot(down);
  EXPECT_LT(std::abs(sticking), 0.005);
  const double a = 9.81 * (std::sin(angle) - 0.15 * std::cos(angle));
  EXPECT_NEAR(sliding, 0.5 * a * seconds * seconds, 0.1 * 0.5 * a * seconds * seconds);
}

TEST(World, StackOfBoxesStaysUp) {
  SceneDescription scene = groundScene();
  const Vector3d h(0.1, 0.1, 0.05);
  for (int i = 0; i < 5; ++i) scene.bodies.push_back(boxBody(h, {0, 0, 0.05 + 0.1 * i + 1e-3 * i}));
  World world(scene);
  const RunSummary r = runSteps(world, 1200);  // 10 s
  const RigidBody& top = world.rigidBodies()[5];
  EXPECT_NEAR(top.position.x(), 0.0, 0.01);
  EXPECT_NEAR(top.position.y(), 0.0, 0.01);
  EXPECT_NEAR(top.position.z(), 0.45, 0.02);
  EXPECT_FALSE(r.nonFinite);
}

// Four boxes stacked on the ground, awake throughout.
SceneDescription stackOfFourBoxes() {
  SceneDescription scene = groundScene();
  scene.solver.sleeping = false;
  const Vector3d h(0.1, 0.1, 0.05);
  for (int i = 0; i < 4; ++i) scene.bodies.push_back(boxBody(h, {0, 0, 0.05 + 0.1 * i + 1e-3 * i}));
  return scene;
}

// A resting stack keeps its manifolds from step to step (re-posed while the boxes barely move)
// and ends where the same stack with every manifold rebuilt ends, as deep in contact.
TEST(World, ReusedManifoldsHoldAStackAsRebuiltOnesDo) {
  const SceneDescription scene = stackOfFourBoxes();
  auto run = [&](bool reuse, int& reused, double& deepest) {
    World world(scene);
    world.manifoldReuse().enabled = reuse;
    reused = 0;
    deepest = 0.0;
    for (int i = 0; i < 360; ++i) {
      world.step();
      if (i >= 240) reused += world.reusedManifolds();
      deepest = std::max(deepest, world.lastStep().maxPenetration);
    }
    return world.rigidBodies();
  };
  int reused = 0, rebuiltReused = 0;
  double deepest = 0.0, rebuiltDeepest = 0.0;
  const auto kept = run(true, reused, deepest);
  const auto rebuilt = run(false, rebuiltReused, rebuiltDeepest);
  EXPECT_EQ(rebuiltReused, 0);
  // Over the last second the stack rests: most of its 4 manifolds per step are re-posed.
  EXPECT_GT(reused, 120 * 4 / 2);
  for (int i = 1; i <= 4; ++i) {
    EXPECT_LT((kept[i].position - rebuilt[i].position).norm(), 1e-3);
    EXPECT_LT(kept[i].linearVelocity.norm(), 1e-2);
  }
  EXPECT_LT(deepest, rebuiltDeepest + 1e-4);
}

// A resting stack's touching pairs barely move: their kept manifolds answer most of their
// narrow-phase queries, and the stack ends where it ends with every query run.
TEST(World, KeptManifoldsAnswerTheQueriesOfARestingStack) {
  const SceneDescription scene = stackOfFourBoxes();
  auto run = [&](bool standIn, long& kept, long& queries) {
    World world(scene);
    world.manifoldReuse().standIn = standIn;
    kept = queries = 0;
    for (int i = 0; i < 360; ++i) {
      world.step();
      if (i < 240) continue;
      kept += world.lastStep().keptPairs;
      queries += world.lastStep().gjkCalls;
      for (const NarrowPhaseRecord& r : world.narrowPhaseRecords()) {
        EXPECT_EQ(r.queried, r.result.gjkIterations > 0);
      }
    }
    return world.rigidBodies();
  };
  long kept = 0, queries = 0, keptOff = 0, queriesOff = 0;
  const auto standingIn = run(true, kept, queries);
  const auto queried = run(false, keptOff, queriesOff);
  EXPECT_EQ(keptOff, 0);
  // Over the last second (120 steps, 4 touching pairs and the pairs of boxes two apart) most
  // touching pairs take their kept manifold's answer; every pair is counted once either way.
  EXPECT_GT(kept, 120 * 4 / 2);
  EXPECT_EQ(kept + queries, queriesOff);
  for (int i = 1; i <= 4; ++i) {
    EXPECT_LT((standingIn[i].position - queried[i].position).norm(), 1e-3);
    EXPECT_LT(standingIn[i].linearVelocity.norm(), 1e-2);
  }
}

TEST(World, FastSphereDoesNotTunnelThroughAThinPlate) {
  SceneDescription scene;
  scene.assetDir = std::string(HB_SOURCE_DIR) + "/assets/ycb";
  StaticDescription plate;
  plate.kind = StaticDescription::Kind::Shape;
  plate.shape = Shape::box({1.0, 1.0, 0.005});  // 1 cm thick
  scene.statics.push_back(plate);
  BodyDescription ball;
  ball.shape.shape = Shape::sphere(0.02);
  ball.pose.p = {0, 0, 0.5};
  ball.linearVelocity = {0, 0, -15.0};  // 12.5 cm per step, far more than the plate
  scene.bodies.push_back(ball);
  World world(scene);
  runSteps(world, 120);
  EXPECT_GT(world.rigidBodies()[1].position.z(), 0.0);
}

SceneDescription funnelScene(int objects, unsigned seed) {
  SceneDescription scene = groundScene();
  StaticDescription funnel;
  funnel.kind = StaticDescription::Kind::Funnel;
  scene.statics.push_back(funnel);
  SpawnerDescription spawner;
  spawner.count = objects;
  spawner.seed = seed;
  spawner.center = {0, 0, 0.9};
  spawner.interval = 0.1;
  scene.spawner = spawner;
  return scene;
}

TEST(World, FunnelRunStaysFiniteAndContained) {
  World world(funnelScene(12, 7));
  const RunSummary r = runSteps(world, 360);
  EXPECT_EQ(r.bodies, 12);
  EXPECT_FALSE(r.nonFinite);
  EXPECT_EQ(r.escapedBodies, 0);
  // Transient overlaps of fast drops (no continuous collision): 17 mm built by GCC, 22 mm by
  // Clang without FMA on this run; a blow-up or a tunnelling body would be far deeper.
  EXPECT_LT(r.maxPenetration, 0.03);
  EXPECT_GT(r.gjkCalls, 0);
}

// The 100 YCB objects of funnel-pile.json, all present from the first step, fall into the
// funnel: after 5 s nothing is lost, nothing is NaN, and everything has come to rest.
TEST(World, HundredObjectsInTheFunnelComeToRest) {
  World world(loadScene(std::string(HB_SOURCE_DIR) + "/assets/scenes/funnel-pile.json"));
  const RunSummary r = runSteps(world, 600);
  EXPECT_EQ(r.bodies, 100);
  EXPECT_FALSE(r.nonFinite);
  EXPECT_EQ(r.escapedBodies, 0);
  int moving = 0;
  for (const RigidBody& b : world.rigidBodies()) {
    if (!b.isStatic && !b.sleeping && b.linearVelocity.norm() > 0.05) ++moving;
  }
  EXPECT_EQ(moving, 0);
}

TEST(World, SameSceneAndSeedGiveBitIdenticalStates) {
  World a(funnelScene(8, 3)), b(funnelScene(8, 3));
  runSteps(a, 200);
  runSteps(b, 200);
  ASSERT_EQ(a.rigidBodies().size(), b.rigidBodies().size());
  for (size_t i = 0; i < a.rigidBodies().size(); ++i) {
    const RigidBody& x = a.rigidBodies()[i];
    const RigidBody& y = b.rigidBodies()[i];
    EXPECT_EQ(std::memcmp(x.position.data(), y.position.data(), sizeof(double) * 3), 0);
    EXPECT_EQ(std::memcmp(x.orientation.coeffs().data(), y.orientation.coeffs().data(),
                          sizeof(double) * 4),
              0);
    EXPECT_EQ(std::memcmp(x.linearVelocity.data(), y.linearVelocity.data(), sizeof(double) * 3), 0);
  }
  World c(funnelScene(8, 4));
  runSteps(c, 200);
  EXPECT_NE(c.rigidBodies()[1].position, a.rigidBodies()[1].position);
}

// Primitives get their solids' exact masses: a cone standing on its base has its centre of
// mass a quarter of its height up, and rests there.
TEST(World, ConeRestsOnItsBaseWithItsCentreOfMassAQuarterUp) {
  SceneDescription scene = groundScene();
  BodyDescription cone;
  cone.shape.shape = Shape::cone(0.05, 0.1);  // 0.2 m tall, base at the shape's z = -0.1
  cone.pose.p = {0, 0, 0.1};                  // base on the ground
  cone.density = 600.0;
  scene.bodies.push_back(cone);
  World world(scene);
  const RigidBody& body = world.rigidBodies()[1];
  EXPECT_NEAR(1.0 / body.inverseMass, 600.0 * std::numbers::pi * 0.05 * 0.05 * 0.2 / 3.0, 1e-12);
  EXPECT_NEAR(body.position.z(), 0.05, 1e-12);
  runSteps(world, 120);
  EXPECT_NEAR(world.rigidBodies()[1].position.z(), 0.05, 5e-4);
  EXPECT_LT(Eigen::AngleAxisd(world.rigidBodies()[1].orientation).angle(), 1e-3);
}

// A resting box's contacts are warm-started from the last step's impulses at the same points,
// so the solver needs only a sweep or two.
TEST(World, RestingContactsAreWarmStarted) {
  SceneDescription scene = groundScene();
  scene.solver.sleeping = false;
  scene.bodies.push_back(boxBody({0.1, 0.15, 0.05}, {0, 0, 0.05}));
  World world(scene);
  runSteps(world, 120);
  world.step();
  EXPECT_LE(world.lastStep().solverIterations, 3);
  EXPECT_EQ(world.lastStep().contacts, 4);
}

// A sleeping stack woken by a drop gets its contacts in the step it wakes: no box of it falls
// the one step a body without contacts would, and the whole stack wakes at once.
TEST(World, WokenBodiesKeepTheirSupportInTheStepTheyWake) {
  SceneDescription scene = groundScene();
  for (int i = 0; i < 3; ++i)
    scene.bodies.push_back(boxBody({0.1, 0.1, 0.05}, {0, 0, 0.05 + 0.1 * i}));
  World world(scene);
  runSteps(world, 240);
  for (int i = 1; i <= 3; ++i) ASSERT_TRUE(world.rigidBodies()[i].sleeping) << i;
  std::vector<double> heights;
  for (int i = 1; i <= 3; ++i) heights.push_back(world.rigidBodies()[i].position.z());
  BodyDescription ball;
  ball.shape.shape = Shape::sphere(0.03);
  ball.pose.p = {0.02, 0.01, 0.4};
  ball.density = 300;
  world.addBody(ball);
  bool woke = false;
  for (int s = 0; s < 60; ++s) {
    world.step();
    const bool awake = !world.rigidBodies()[1].sleeping;
    // The island wakes whole.
    EXPECT_EQ(!world.rigidBodies()[2].sleeping, awake);
    EXPECT_EQ(!world.rigidBodies()[3].sleeping, awake);
    woke |= awake;
    for (int i = 1; i <= 3; ++i) {
      // One unsupported step would drop a box by g dt^2 = 0.68 mm.
      EXPECT_GT(world.rigidBodies()[i].position.z(), heights[i - 1] - 2e-4) << "step " << s;
    }
  }
  EXPECT_TRUE(woke);
}

TEST(World, SleepingBodyWakesWhenHit) {
  SceneDescription scene = groundScene();
  scene.bodies.push_back(boxBody({0.1, 0.1, 0.05}, {0, 0, 0.05}));
  World world(scene);
  runSteps(world, 120);
  ASSERT_TRUE(world.rigidBodies()[1].sleeping);
  BodyDescription ball;
  ball.shape.shape = Shape::sphere(0.05);
  ball.pose.p = {0, 0, 0.5};
  ball.density = 2000;
  world.addBody(ball);
  bool woke = false;
  for (int i = 0; i < 60 && !woke; ++i) {
    world.step();
    woke = !world.rigidBodies()[1].sleeping;
  }
  EXPECT_TRUE(woke);
}

}  // namespace
}  // namespace hb
