// EPA against analytic penetration depths (sphere-sphere, sphere-box, box-box) and against an
// independent Qhull reference for random polytopes, all under random rigid transforms of the
// whole pair; plus robustness: touching contacts, identical shapes at identical poses, tiny and
// huge scales, hand-built degenerate simplices, iteration and polytope caps.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "collision/collide.hpp"
#include "collision/epa.hpp"
#include "collision/gjk.hpp"
#include "random_geometry.hpp"
#include "reference_distance.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

struct EpaRun {
  GjkResult gjk;
  EpaResult epa;
};

// GJK on the cores, then EPA from its simplex whenever GJK reports a collision. (EPA does not
// rely on GjkResult::coresOverlap: GJK may stop on its duality gap with the origin within
// rounding of, but not exactly inside, its simplex.)
EpaRun runEpa(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
              const EpaOptions& options = {}) {
  const MinkowskiDifference difference(a, poseA, b, poseB);
  EpaRun run;
  run.gjk = gjk(difference, poseA.p - poseB.p, GjkOptions{});
  SupportHints hints = run.gjk.hints;
  run.epa = epa(difference, run.gjk.simplex, options, hints);
  return run;
}

// EPA from a hand-built simplex (points given as support directions, or raw support points).
EpaResult runEpaFrom(const MinkowskiDifference& difference, const std::vector<SupportPoint>& pts,
                     const EpaOptions& options = {}) {
  Simplex simplex;
  for (const SupportPoint& p : pts) {
    simplex.points[simplex.size] = p;
    simplex.weights[simplex.size] = 1.0 / static_cast<double>(pts.size());
    ++simplex.size;
  }
  SupportHints hints;
  return epa(difference, simplex, options, hints);
}

bool finite(const EpaResult& r) {
  return std::isfinite(r.depth) && r.normal.allFinite() && r.witnessA.allFinite() &&
         r.witnessB.allFinite();
}

// Checks depth, normal and the witness relation witnessA - witnessB = depth * normal.
void expectPenetration(const EpaResult& r, double depth, const Vector3d& normal, double depthTol,
                       double normalTol) {
  ASSERT_TRUE(finite(r));
  EXPECT_NE(r.status, EpaStatus::Degenerate);
  EXPECT_NEAR(r.depth, depth, depthTol);
  EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12);
  EXPECT_LT((r.normal - normal).norm(), normalTol)
      << r.normal.transpose() << " vs " << normal.transpose();
  EXPECT_LT((r.witnessA - r.witnessB - r.depth * r.normal).norm(), depthTol + 1e-9);
}

Pose compose(const Pose& t, const Pose& p) {
  return t * p;
}

// A hull pair recorded from a simulation: per shape N, N local vertices and a pose line
// "qw qx qy qz px py pz"; then GJK's initial guess in world coordinates.
struct HullPair {
  std::vector<Vector3d> va, vb;
  Pose poseA, poseB;
  Vector3d guess = Vector3d::UnitX();
};

bool readHullPair(const std::string& path, HullPair& pair) {
  std::ifstream in(path);
  const auto readShape = [&in](std::vector<Vector3d>& points, Pose& pose) {
    int n = 0;
    if (!(in >> n) || n <= 0) return false;
    points.resize(n);
    for (Vector3d& p : points) in >> p.x() >> p.y() >> p.z();
    double qw, qx, qy, qz;
    in >> qw >> qx >> qy >> qz >> pose.p.x() >> pose.p.y() >> pose.p.z();
    pose.q = Eigen::Quaterniond(qw, qx, qy, qz);
    return static_cast<bool>(in);
  };
  if (!readShape(pair.va, pair.poseA) || !readShape(pair.vb, pair.poseB)) return false;
  in >> pair.guess.x() >> pair.guess.y() >> pair.guess.z();
  return static_cast<bool>(in);
}

Shape hullShape(const std::vector<Vector3d>& points) {
  return Shape::convexHull(std::make_shared<const ConvexHull>(ConvexHull::build(points)));
}

TEST(Epa, StatusNames) {
  EXPECT_EQ(toString(EpaStatus::Converged), "converged");
  EXPECT_EQ(toString(EpaStatus::MaxIterations), "max_iterations");
  EXPECT_EQ(toString(EpaStatus::PolytopeFull), "polytope_full");
  EXPECT_EQ(toString(EpaStatus::Degenerate), "degenerate");
}

// Spheres modelled as ellipsoids with equal radii have no convex radius, so GJK hands EPA a
// genuine simplex around the origin and EPA works on a curved D (a ball of radius r1 + r2).
TEST(Epa, SphereSphereAsEllipsoidsMatchesAnalyticDepth) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> radius(0.05, 0.5), fraction(0.2, 0.9);
  int converged = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const double r1 = radius(rng), r2 = radius(rng);
    const Shape a = Shape::ellipsoid(Vector3d::Constant(r1));
    const Shape b = Shape::ellipsoid(Vector3d::Constant(r2));
    const Vector3d axis = test::randomUnitVector(rng);
    const double centres = fraction(rng) * (r1 + r2);
    const Pose world = test::randomPose(rng, 2.0);
    const Pose poseA = compose(world, {test::randomRotation(rng), Vector3d::Zero()});
    const Pose poseB = compose(world, {test::randomRotation(rng), centres * axis});
    const EpaRun run = runEpa(a, poseA, b, poseB);
    ASSERT_TRUE(run.gjk.collide()) << trial;
    // EPA converges linearly on curved shapes; the closer the centres, the flatter the depth
    // function around its minimum and the more of the sphere must be refined, so the iteration
    // cap may end the run first. Then the closest face is still a lower bound within 2 mm.
    // On a curved D a depth error e tilts the normal by about sqrt(2 e / (r1 + r2)).
    const double exact = r1 + r2 - centres;
    if (run.epa.status == EpaStatus::Converged) {
      ++converged;
      expectPenetration(run.epa, exact, world.q * axis, 1e-5, 1e-2);
    } else {
      EXPECT_EQ(run.epa.status, EpaStatus::MaxIterations);
      expectPenetration(run.epa, exact, world.q * axis, 2e-3, 0.2);
      EXPECT_LE(run.epa.depth, exact + 1e-9);
    }
  }
  EXPECT_GE(converged, 80);
  RecordProperty("converged", converged);
}

// True spheres (convex radius) overlap only as points: GJK's core simplex is the single point
// c_A - c_B. With coincident centres it is the origin, and EPA must grow from it on the full
// shapes: any unit normal, depth r1 + r2. Every direction is equally deep, so EPA has to refine
// the whole ball and stops on a cap with a lower bound a few percent short.
TEST(Epa, ConcentricSpheresGrowFromTheCoreSimplex) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 20; ++trial) {
    const Shape a = Shape::sphere(0.1 + 0.01 * trial), b = Shape::sphere(0.3);
    const Pose pose = test::randomPose(rng, 3.0);
    const EpaRun run = runEpa(a, pose, b, pose);
    ASSERT_TRUE(run.gjk.collide());
    ASSERT_TRUE(finite(run.epa));
    EXPECT_NE(run.epa.status, EpaStatus::Degenerate);
    EXPECT_LE(run.epa.depth, a.radius() + b.radius() + 1e-9);
    EXPECT_GE(run.epa.depth, 0.95 * (a.radius() + b.radius()));
    EXPECT_LT((run.epa.witnessA - run.epa.witnessB - run.epa.depth * run.epa.normal).norm(), 1e-5);
  }
}

// Spheres whose centres are close but apart: EPA from a tetrahedron of full supports enclosing
// the origin (the directions of a regular tetrahedron) must find depth r1 + r2 - |c1 - c2|.
TEST(Epa, NearlyConcentricSpheresFromHandBuiltTetrahedron) {
  std::mt19937 rng(13);
  const Shape a = Shape::sphere(0.4), b = Shape::sphere(0.25);
  const std::vector<Vector3d> dirs = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  for (int trial = 0; trial < 50; ++trial) {
    const Vector3d offset = 0.2 * test::randomUnitVector(rng);  // < (r1 + r2) / 3
    const Pose world = test::randomPose(rng, 1.0);
    const Pose poseA = compose(world, {test::randomRotation(rng), Vector3d::Zero()});
    const Pose poseB = compose(world, {test::randomRotation(rng), offset});
    const MinkowskiDifference difference(a, poseA, b, poseB);
    std::vector<SupportPoint> pts;
    SupportHints hints;
    for (const Vector3d& d : dirs) pts.push_back(difference.supportFull(d, hints));
    const EpaResult r = runEpaFrom(difference, pts);
    EXPECT_EQ(r.status, EpaStatus::Converged);
    expectPenetration(r, 0.65 - 0.2, world.q * offset.normalized(), 1e-5, 1e-2);
  }
}

// A sphere whose centre is inside a box: the cores overlap and the answer is the nearest face.
TEST(Epa, SphereInsideBoxFaceMatchesAnalyticDepth) {
  std::mt19937 rng(14);
  const Vector3d h(0.5, 0.3, 0.2);
  const Shape box = Shape::box(h);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), radius(0.02, 0.3);
  for (int trial = 0; trial < 100; ++trial) {
    const Shape sphere = Shape::sphere(radius(rng));
    // Centre inside the box, clearly closest to one face (margin 0.02 to the second closest).
    Vector3d c;
    int axis = trial % 3;
    const double side = trial % 2 ? 1.0 : -1.0;
    for (int i = 0; i < 3; ++i) c[i] = 0.5 * h[i] * unit(rng);
    const double inset = 0.01 + 0.5 * std::abs(unit(rng)) * (h.minCoeff() * 0.5 - 0.03);
    c[axis] = side * (h[axis] - inset);
    const Pose world = test::randomPose(rng, 2.0);
    const EpaRun run = runEpa(box, world, sphere, compose(world, {test::randomRotation(rng), c}));
    ASSERT_TRUE(run.gjk.collide());
    // D's face is flat here, but a face of P tilted by t over D's face (0.4 m across) gains
    // t * 0.4 < tolerance: the normal is exact only to a few 1e-6.
    expectPenetration(run.epa, inset + sphere.radius(), world.q * (side * Vector3d::Unit(axis)),
                      1e-6, 1e-5);
  }
}

// Axis-aligned boxes: the depth is the smallest overlap of the face axes.
TEST(Epa, AxisAlignedBoxesMatchMinimumFaceOverlap) {
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> extent(0.05, 0.6), unit(-1.0, 1.0);
  int tested = 0;
  for (int trial = 0; trial < 300 && tested < 100; ++trial) {
    const Vector3d ha(extent(rng), extent(rng), extent(rng));
    const Vector3d hb(extent(rng), extent(rng), extent(rng));
    Vector3d t;
    for (int i = 0; i < 3; ++i) t[i] = unit(rng) * (ha[i] + hb[i]);
    const Vector3d overlap = ha + hb - t.cwiseAbs();
    int axis = 0;
    const double depth = overlap.minCoeff(&axis);
    // A unique answer: the second smallest overlap is clearly larger.
    Vector3d others = overlap;
    others[axis] = 1e9;
    if (depth < 1e-3 || others.minCoeff() < depth + 1e-3) continue;
    ++tested;
    const Shape a = Shape::box(ha), b = Shape::box(hb);
    const Pose world = test::randomPose(rng, 5.0);
    const EpaRun run = runEpa(a, world, b, compose(world, Pose::translation(t)));
    ASSERT_TRUE(run.gjk.collide());
    const Vector3d normal = (t[axis] < 0 ? -1.0 : 1.0) * Vector3d::Unit(axis);
    expectPenetration(run.epa, depth, world.q * normal, 1e-6, 1e-6);
  }
  EXPECT_GE(tested, 50);
}

// A small box pressed into a large box's top face, spun about the face normal by a random
// angle: the depth stays the press depth, the normal the face normal.
TEST(Epa, RotatedBoxPressedIntoFace) {
  std::mt19937 rng(16);
  std::uniform_real_distribution<double> angle(0.0, 2.0 * std::numbers::pi), press(0.001, 0.08);
  const Shape big = Shape::box({1.0, 1.0, 0.5}), small = Shape::box({0.2, 0.15, 0.1});
  for (int trial = 0; trial < 100; ++trial) {
    const double depth = press(rng);
    const Pose local{Eigen::Quaterniond(Eigen::AngleAxisd(angle(rng), Vector3d::UnitZ())),
                     {0.1, -0.2, 0.5 + 0.1 - depth}};
    const Pose world = test::randomPose(rng, 5.0);
    const EpaRun run = runEpa(big, world, small, compose(world, local));
    ASSERT_TRUE(run.gjk.collide());
    expectPenetration(run.epa, depth, world.q * Vector3d::UnitZ(), 1e-6, 1e-6);
    // Witness A lies on the big box's top face, witness B on the small box's bottom face.
    EXPECT_NEAR(world.applyInverse(run.epa.witnessA).z(), 0.5, 1e-6);
    EXPECT_NEAR(world.applyInverse(run.epa.witnessB).z(), 0.5 - depth, 1e-6);
  }
}

// Randomly rotated boxes and random hulls against the explicit Minkowski difference.
TEST(Epa, RandomPolytopesMatchQhullReference) {
  std::mt19937 rng(17);
  int tested = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Vector3d> va, vb;
    Shape a = Shape::sphere(1.0), b = Shape::sphere(1.0);
    if (trial % 2 == 0) {
      const Vector3d ha = test::randomVector(rng, 0.1, 0.5), hb = test::randomVector(rng, 0.1, 0.5);
      a = Shape::box(ha);
      b = Shape::box(hb);
      for (int c = 0; c < 8; ++c) {
        const Vector3d s(c & 1 ? 1 : -1, c & 2 ? 1 : -1, c & 4 ? 1 : -1);
        va.push_back(s.cwiseProduct(ha));
        vb.push_back(s.cwiseProduct(hb));
      }
    } else {
      va = test::randomCloud(rng, 20, 0.4);
      vb = test::randomCloud(rng, 20, 0.4);
      auto ha = std::make_shared<const ConvexHull>(ConvexHull::build(va));
      auto hb = std::make_shared<const ConvexHull>(ConvexHull::build(vb));
      a = Shape::convexHull(ha);
      b = Shape::convexHull(hb);
    }
    const Pose poseA = test::randomPose(rng, 0.2), poseB = test::randomPose(rng, 0.2);
    const double reference =
        test::referenceSignedDistance(test::transformed(va, poseA), test::transformed(vb, poseB));
    if (reference > -1e-3) continue;
    const EpaRun run = runEpa(a, poseA, b, poseB);
    if (!run.gjk.collide()) continue;  // GJK may stop within eps_col: nothing for EPA to do
    ++tested;
    ASSERT_TRUE(finite(run.epa));
    EXPECT_EQ(run.epa.status, EpaStatus::Converged) << trial;
    EXPECT_NEAR(run.epa.depth, -reference, 1e-5) << trial;
    EXPECT_LT((run.epa.witnessA - run.epa.witnessB - run.epa.depth * run.epa.normal).norm(), 1e-5);
    // The normal is a direction of minimum translation: moving B by depth along it separates.
    const Pose movedB{poseB.q, poseB.p + (run.epa.depth + 1e-4) * run.epa.normal};
    EXPECT_GT(
        test::referenceSignedDistance(test::transformed(va, poseA), test::transformed(vb, movedB)),
        0.0)
        << trial;
  }
  EXPECT_GE(tested, 60);
}

// Two elongated hulls (hammer handles) crossing each other, recorded from a simulation: EPA
// converged on a face deeper than D's true boundary.
TEST(Epa, RecordedHammersMatchQhullReference) {
  HullPair pair;
  ASSERT_TRUE(readHullPair(HB_SOURCE_DIR "/tests/collision/data/epa_hammers.txt", pair));
  const Shape a = hullShape(pair.va), b = hullShape(pair.vb);
  const double reference = test::referenceSignedDistance(test::transformed(pair.va, pair.poseA),
                                                         test::transformed(pair.vb, pair.poseB));
  ASSERT_LT(reference, 0.0);
  const CollisionResult r = collide(a, pair.poseA, b, pair.poseB, pair.guess, CollisionOptions{});
  ASSERT_TRUE(r.epaStatus.has_value());
  EXPECT_EQ(*r.epaStatus, EpaStatus::Converged);
  EXPECT_NEAR(r.distance, reference, 1e-5);
  // The depth does not depend on where the pair is, nor on GJK's path to the starting simplex.
  std::mt19937 rng(29);
  for (int trial = 0; trial < 40; ++trial) {
    const Pose world = test::randomPose(rng, 2.0);
    CollisionOptions options;
    options.gjk.variant = static_cast<GjkVariant>(trial % 4);
    const Vector3d guess =
        trial % 2 == 0 ? Vector3d(world.q * pair.guess) : Vector3d(test::randomUnitVector(rng));
    const CollisionResult moved =
        collide(a, compose(world, pair.poseA), b, compose(world, pair.poseB), guess, options);
    ASSERT_TRUE(moved.epaStatus.has_value()) << trial;
    EXPECT_EQ(*moved.epaStatus, EpaStatus::Converged) << trial;
    EXPECT_NEAR(moved.distance, reference, 1e-5) << trial;
  }
}

// Points filling an elongated ellipsoid-like shell: semi-axes `radii`, each point pushed out to
// between 80% and 100% of the surface, so many of them end up on the hull. With `boxy`, every
// point is pushed onto the circumscribed box instead: large exactly coplanar faces.
std::vector<Vector3d> elongatedCloud(std::mt19937& rng, int n, const Vector3d& radii, bool boxy) {
  std::uniform_real_distribution<double> shell(0.8, 1.0);
  std::vector<Vector3d> points;
  for (int i = 0; i < n; ++i) {
    Vector3d p = shell(rng) * test::randomUnitVector(rng);
    if (boxy) {
      int k = 0;
      p.cwiseAbs().maxCoeff(&k);
      p[k] = p[k] > 0.0 ? 1.0 : -1.0;
    }
    points.push_back(p.cwiseProduct(radii));
  }
  return points;
}

double maxDot(const std::vector<Vector3d>& points, const Vector3d& d) {
  double best = -std::numeric_limits<double>::infinity();
  for (const Vector3d& p : points) best = std::max(best, p.dot(d));
  return best;
}

// Random elongated hulls (stick- and plank-like objects, as in a pile of YCB items), crossing at
// random angles and overlapping by 0 to 50% of their extent along a random direction.
TEST(Epa, RandomElongatedHullsMatchQhullReference) {
  std::mt19937 rng(23);
  std::uniform_int_distribution<int> count(20, 300);
  std::uniform_real_distribution<double> length(0.05, 0.3), aspect(0.05, 0.5), overlap(0.0, 0.5);
  constexpr int kTrials = 300;
  int tested = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<Vector3d> local[2];
    for (auto& points : local) {
      const double l = length(rng);
      const Vector3d radii(l, aspect(rng) * l, aspect(rng) * l);
      // Box-like clouds put most points on the hull: fewer of them keep the reference quick.
      const bool boxy = trial % 3 == 2;
      points = elongatedCloud(rng, boxy ? count(rng) / 3 : count(rng), radii, boxy);
    }
    const Shape a = hullShape(local[0]), b = hullShape(local[1]);
    const Pose poseA = test::randomPose(rng, 1.0);
    Pose poseB{test::randomRotation(rng), Vector3d::Zero()};
    const Vector3d u = test::randomUnitVector(rng);
    const std::vector<Vector3d> worldA = test::transformed(local[0], poseA);
    // Along u, A reaches reachA beyond its origin and B reaches reachB back from its own.
    const double reachA = maxDot(worldA, u) - poseA.p.dot(u);
    const double reachB = maxDot(test::transformed(local[1], poseB), -u);
    poseB.p = poseA.p + (1.0 - overlap(rng)) * (reachA + reachB) * u;
    const double reference =
        test::referenceSignedDistance(worldA, test::transformed(local[1], poseB));
    if (reference > -1e-4) continue;
    CollisionOptions options;
    options.gjk.variant = static_cast<GjkVariant>(trial % 4);
    const CollisionResult r = collide(a, poseA, b, poseB, poseA.p - poseB.p, options);
    if (!r.epaStatus) continue;  // GJK stopped within eps_col of touching
    ++tested;
    EXPECT_EQ(*r.epaStatus, EpaStatus::Converged) << trial;
    EXPECT_NEAR(r.distance, reference, 1e-5) << trial << ", " << r.epaIterations << " iterations";
    EXPECT_LT((r.witnessA - r.witnessB + r.distance * r.normal).norm(), 1e-5) << trial;
  }
  EXPECT_GE(tested, kTrials / 3);
}

// Faces exactly touching: the origin lies on D's boundary. Depth ~0, never NaN.
TEST(Epa, TouchingBoxesGiveZeroDepth) {
  std::mt19937 rng(18);
  const Vector3d h(0.3, 0.2, 0.1);
  const Shape a = Shape::box(h), b = Shape::box(h);
  for (int trial = 0; trial < 20; ++trial) {
    const Pose world = test::randomPose(rng, 3.0);
    const Pose poseB = compose(world, Pose::translation({0.05, -0.02, 2 * h.z()}));
    const MinkowskiDifference difference(a, world, b, poseB);
    // A one-point simplex at the origin: a point of A's top face that is also on B's bottom.
    const Vector3d p(0.05, -0.02, h.z());
    const SupportPoint origin{Vector3d::Zero(), p, p};
    // And a triangle on D's top face around the origin.
    SupportHints hints;
    std::vector<SupportPoint> tri;
    for (const Vector3d& d : {Vector3d(1, 1, 1), Vector3d(-1, 0.2, 1), Vector3d(0.2, -1, 1)}) {
      tri.push_back(difference.supportFull(d, hints));
    }
    for (const auto& pts : {std::vector<SupportPoint>{origin}, tri}) {
      const EpaResult r = runEpaFrom(difference, pts);
      ASSERT_TRUE(finite(r));
      EXPECT_NE(r.status, EpaStatus::Degenerate);
      EXPECT_NEAR(r.depth, 0.0, 1e-9);
      // Converged means D reaches at most the tolerance beyond the face's plane, and D's top face
      // extends 0.38 around the origin: the normal is within 1e-6 / 0.38 of D's.
      EXPECT_LT((r.normal - world.q * Vector3d::UnitZ()).norm(), 1e-5);
    }
    // And whatever GJK hands over.
    const EpaRun run = runEpa(a, world, b, poseB);
    ASSERT_TRUE(finite(run.epa));
    if (run.gjk.collide()) {
      EXPECT_NEAR(run.epa.depth, 0.0, 1e-6);
    }
  }
}

// Identical shapes at identical poses: D is symmetric about the origin, which is its centre.
// For spheres (every direction equally deep), capsules and cylinders (a ring of directions) EPA
// must refine a whole sphere or ring and may stop on a cap: then it returns a lower bound.
TEST(Epa, IdenticalShapesAtIdenticalPoses) {
  std::mt19937 rng(19);
  const auto hull =
      std::make_shared<const ConvexHull>(ConvexHull::build(test::randomCloud(rng, 30, 0.3)));
  struct Case {
    Shape shape;
    double depth;  // exact answer, or negative when not known in closed form
  };
  const std::vector<Case> cases = {
      {Shape::box({0.3, 0.2, 0.1}), 0.2},  // twice the smallest half extent
      {Shape::sphere(0.25), 0.5},         {Shape::capsule(0.1, 0.3), 0.2},
      {Shape::cylinder(0.2, 0.5), 0.4},   {Shape::ellipsoid({0.3, 0.2, 0.15}), 0.3},
      {Shape::cone(0.2, 0.3), -1.0},      {Shape::convexHull(hull), -1.0},
  };
  for (const auto& [shape, depth] : cases) {
    for (int trial = 0; trial < 5; ++trial) {
      const Pose pose = test::randomPose(rng, 10.0);
      const EpaRun run = runEpa(shape, pose, shape, pose);
      const std::string_view name = toString(shape.type());
      ASSERT_TRUE(run.gjk.collide()) << name;
      ASSERT_TRUE(finite(run.epa)) << name;
      EXPECT_NE(run.epa.status, EpaStatus::Degenerate) << name;
      EXPECT_GT(run.epa.depth, 0.0) << name;
      EXPECT_LT((run.epa.witnessA - run.epa.witnessB - run.epa.depth * run.epa.normal).norm(),
                1e-5);
      if (depth < 0.0) continue;
      if (run.epa.status == EpaStatus::Converged) {
        EXPECT_NEAR(run.epa.depth, depth, 1e-5) << name;
      } else {
        EXPECT_LE(run.epa.depth, depth + 1e-9) << name;
        EXPECT_GE(run.epa.depth, 0.95 * depth) << name;
      }
    }
  }
}

// Axis-aligned boxes at 1e-4 m and 100 m: the relative answer must not depend on the scale.
TEST(Epa, TinyAndHugeScales) {
  std::mt19937 rng(20);
  for (const double scale : {1e-4, 100.0}) {
    EpaOptions options;
    options.tolerance = 1e-6 * scale;
    for (int trial = 0; trial < 30; ++trial) {
      const Vector3d ha = scale * Vector3d(0.5, 0.4, 0.3), hb = scale * Vector3d(0.3, 0.35, 0.2);
      const Vector3d t = scale * Vector3d(0.2, -0.1, 0.45);  // overlaps 0.6, 0.65, 0.05
      const Pose world{test::randomRotation(rng), scale * test::randomVector(rng, -3.0, 3.0)};
      const EpaRun run = runEpa(Shape::box(ha), world, Shape::box(hb),
                                compose(world, Pose::translation(t)), options);
      ASSERT_TRUE(run.gjk.collide());
      expectPenetration(run.epa, 0.05 * scale, world.q * Vector3d::UnitZ(), 1e-6 * scale, 1e-6);
      // Curved shapes at that scale: finite, sensible, within the caps.
      const Shape ea = Shape::ellipsoid(scale * Vector3d(0.5, 0.3, 0.4));
      const Shape eb = Shape::sphere(0.2 * scale);
      const EpaRun curved = runEpa(ea, world, eb, world, options);
      ASSERT_TRUE(finite(curved.epa));
      EXPECT_NE(curved.epa.status, EpaStatus::Degenerate);
      EXPECT_NEAR(curved.epa.depth, 0.5 * scale, 2e-3 * scale);  // 0.3 + 0.2, min semi-axis
      EXPECT_LE(curved.epa.iterations, options.maxIterations);
    }
  }
}

// Caps: a single iteration, a zero tolerance, and a large iteration budget that must end on the
// polytope's capacity. All finite, never hanging.
TEST(Epa, WitnessesAreOneDepthApartAlongTheNormalOnExtremeBoxes) {
  // Aligned boxes with half extents from 1e-6 to 1e6 m at a GJK tolerance of 1e-20: sliver
  // faces once gave witnesses metres apart with a depth of a millimetre (194 in 200,000).
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> exponent(-6.0, 6.0), unit(-1.0, 1.0);
  const auto halfExtents = [&] {
    return Vector3d(std::pow(10.0, exponent(rng)), std::pow(10.0, exponent(rng)),
                    std::pow(10.0, exponent(rng)));
  };
  int overlapping = 0;
  for (int trial = 0; trial < 50000; ++trial) {
    const Vector3d ha = halfExtents(), hb = halfExtents();
    const Vector3d p = Vector3d(unit(rng), unit(rng), unit(rng)).cwiseProduct(ha + hb) * 1.2;
    CollisionOptions options;
    options.gjk.tolerance = 1e-20;
    const CollisionResult r =
        collide(Shape::box(ha), Pose::identity(), Shape::box(hb), Pose::translation(p), p, options);
    if (!r.ok()) continue;
    overlapping += r.distance < 0.0;
    const double scale = std::max({ha.maxCoeff(), hb.maxCoeff(), p.norm()});
    ASSERT_LE((r.witnessA - r.witnessB + r.distance * r.normal).norm(), 1e-9 * scale)
        << trial << ": " << ha.transpose() << " / " << hb.transpose() << " at " << p.transpose();
  }
  EXPECT_GT(overlapping, 10000);
}

TEST(Epa, CapsAreRespected) {
  const Shape a = Shape::ellipsoid({0.5, 0.4, 0.3}), b = Shape::ellipsoid({0.3, 0.3, 0.3});
  const Pose poseA = Pose::identity(), poseB = Pose::translation({0.2, 0.1, 0.05});
  EpaOptions one;
  one.maxIterations = 1;
  const EpaRun capped = runEpa(a, poseA, b, poseB, one);
  ASSERT_TRUE(capped.gjk.coresOverlap);
  EXPECT_EQ(capped.epa.status, EpaStatus::MaxIterations);
  EXPECT_LE(capped.epa.iterations, 1);
  EXPECT_TRUE(finite(capped.epa));

  EpaOptions none;
  none.maxIterations = 0;
  const EpaRun zero = runEpa(a, poseA, b, poseB, none);
  EXPECT_EQ(zero.epa.status, EpaStatus::MaxIterations);
  EXPECT_EQ(zero.epa.iterations, 0);
  EXPECT_TRUE(finite(zero.epa));

  EpaOptions exact;
  exact.tolerance = 0.0;
  exact.maxIterations = 100000;
  const EpaRun full = runEpa(a, poseA, b, poseB, exact);
  EXPECT_TRUE(full.epa.status == EpaStatus::PolytopeFull ||
              full.epa.status == EpaStatus::Converged);
  EXPECT_LE(full.epa.iterations, defaults::kEpaMaxVertices);
  EXPECT_TRUE(finite(full.epa));

  // The lower bound only improves with more iterations, and the default answer is accurate.
  const EpaRun normal = runEpa(a, poseA, b, poseB);
  EXPECT_LE(capped.epa.depth, normal.epa.depth + 1e-12);
  EXPECT_NEAR(full.epa.depth, normal.epa.depth, 1e-5);
}

// Inputs EPA cannot work with give Degenerate with finite values, never NaN.
TEST(Epa, DegenerateInputsStayFinite) {
  const Shape a = Shape::box({0.3, 0.2, 0.1}), b = Shape::box({0.3, 0.2, 0.1});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  {
    const Pose bad{Eigen::Quaterniond::Identity(), {nan, 0.0, 0.0}};
    const MinkowskiDifference difference(a, Pose::identity(), b, bad);
    const EpaResult r = runEpaFrom(difference, {});
    EXPECT_EQ(r.status, EpaStatus::Degenerate);
    EXPECT_TRUE(finite(r));
  }
  {
    const MinkowskiDifference difference(a, Pose::identity(), b, Pose::identity());
    // Non-finite simplex points are dropped; EPA still succeeds from its own supports.
    const SupportPoint junk{Vector3d::Constant(nan), Vector3d::Zero(), Vector3d::Zero()};
    const EpaResult r = runEpaFrom(difference, {junk, junk});
    EXPECT_TRUE(finite(r));
    EXPECT_NEAR(r.depth, 0.2, 1e-6);
    // Repeated and collinear points are skipped too.
    SupportHints hints;
    const SupportPoint p = difference.supportFull(Vector3d::UnitX(), hints);
    const SupportPoint q = difference.supportFull(-Vector3d::UnitX(), hints);
    const SupportPoint mid{0.5 * (p.w + q.w), 0.5 * (p.a + q.a), 0.5 * (p.b + q.b)};
    const EpaResult s = runEpaFrom(difference, {p, p, q, mid});
    EXPECT_TRUE(finite(s));
    EXPECT_NEAR(s.depth, 0.2, 1e-6);
  }
}

}  // namespace
}  // namespace hb
