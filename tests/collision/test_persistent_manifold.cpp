// Persistent manifolds: re-posed at the poses they were built at they are the built manifold;
// after a rigid motion of the whole pair they are the built manifold moved with it; after a
// small relative motion they agree with a manifold rebuilt from a fresh narrow-phase answer;
// beyond any tolerance they are refused. A touching pair's kept manifold stands in for its
// narrow-phase query while it barely moved.

#include <gtest/gtest.h>

#include <random>

#include "collision/collide.hpp"
#include "collision/contact_manifold.hpp"
#include "collision/persistent_manifold.hpp"
#include "random_geometry.hpp"

namespace hb {
namespace {

using Eigen::AngleAxisd;
using Eigen::Quaterniond;
using Eigen::Vector3d;

const Vector3d kGroundHalf(1.0, 1.0, 0.5);
const Vector3d kBoxHalf(0.1, 0.15, 0.05);
constexpr double kMargin = 0.01;

struct Pair {
  Shape a = Shape::box(kGroundHalf);
  Shape b = Shape::box(kBoxHalf);
  Pose poseA, poseB;
};

struct Built {
  CollisionResult narrow;
  ContactManifold manifold;
};

// The narrow phase and the manifold from scratch, as the world builds them.
Built build(const Pair& p, double margin = kMargin) {
  Built out;
  out.narrow = collide(p.a, p.poseA, p.b, p.poseB, p.poseB.p - p.poseA.p, CollisionOptions{});
  out.manifold =
      buildContactManifold(p.a, p.poseA, p.b, p.poseB, out.narrow.normal, out.narrow.witnessA,
                           out.narrow.witnessB, out.narrow.distance, margin);
  return out;
}

std::optional<ContactManifold> repose(const PersistentManifold& kept, const Pair& p,
                                      const ManifoldReuseTolerances& tolerances = {},
                                      double margin = kMargin) {
  const CollisionResult narrow =
      collide(p.a, p.poseA, p.b, p.poseB, p.poseB.p - p.poseA.p, CollisionOptions{});
  return reposeManifold(kept, p.poseA, p.poseB, narrow.normal, narrow.distance, margin,
                        kGroundHalf.norm(), kBoxHalf.norm(), tolerances);
}

// A box resting on the ground `depth` deep (negative: a gap), slightly tilted, the whole pair
// under a random rigid transform.
Pair restingBox(std::mt19937& rng, double depth) {
  const Pose world = test::randomPose(rng, 2.0);
  const Quaterniond tilt(AngleAxisd(0.002, test::randomUnitVector(rng)));
  Pair p;
  p.poseA = world;
  p.poseB = world * Pose{tilt, Vector3d(0.2, -0.1, 0.5 + kBoxHalf.z() - depth)};
  return p;
}

void expectConsistent(const ContactManifold& m) {
  EXPECT_NEAR(m.normal.norm(), 1.0, 1e-12);
  for (int i = 0; i < m.size; ++i) {
    const ContactPoint& c = m.points[i];
    EXPECT_LT((c.pointA - c.pointB - c.depth * m.normal).norm(), 1e-12);
  }
}

// The manifold built at the pair's poses, kept.
PersistentManifold keepBuilt(const Pair& p) {
  const Built b = build(p);
  return persistManifold(b.manifold, p.poseA, p.poseB, b.narrow.distance, kMargin);
}

// Moves the box relative to the ground by less than the motion tolerance: 0.4 of it in
// translation and a turn about its own centre that moves its corners by 0.4 of it.
void nudge(Pair& p, std::mt19937& rng, const ManifoldReuseTolerances& tolerances) {
  const double step = 0.4 * tolerances.motion;
  const Quaterniond turn(AngleAxisd(step / kBoxHalf.norm(), test::randomUnitVector(rng)));
  p.poseB = Pose{turn * p.poseB.q, p.poseB.p + step * test::randomUnitVector(rng)};
}

TEST(PersistentManifold, SamePosesGiveTheBuiltManifold) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const Pair p = restingBox(rng, 0.0005);
    const Built b = build(p);
    ASSERT_EQ(b.manifold.size, 4);
    const PersistentManifold kept =
        persistManifold(b.manifold, p.poseA, p.poseB, b.narrow.distance, kMargin);
    const auto m = repose(kept, p);
    ASSERT_TRUE(m.has_value());
    ASSERT_EQ(m->size, b.manifold.size);
    EXPECT_LT((m->normal - b.manifold.normal).norm(), 1e-12);
    for (int i = 0; i < m->size; ++i) {
      EXPECT_LT((m->points[i].pointA - b.manifold.points[i].pointA).norm(), 1e-12);
      EXPECT_LT((m->points[i].pointB - b.manifold.points[i].pointB).norm(), 1e-12);
      EXPECT_NEAR(m->points[i].depth, b.manifold.points[i].depth, 1e-12);
    }
    expectConsistent(*m);
  }
}

TEST(PersistentManifold, RigidMotionOfTheWholePairMovesIt) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 20; ++trial) {
    Pair p = restingBox(rng, 0.0005);
    const Built b = build(p);
    const PersistentManifold kept =
        persistManifold(b.manifold, p.poseA, p.poseB, b.narrow.distance, kMargin);
    // However far the pair travels together, its contact does not change.
    const Pose motion = test::randomPose(rng, 5.0);
    p.poseA = motion * p.poseA;
    p.poseB = motion * p.poseB;
    const auto m = repose(kept, p);
    ASSERT_TRUE(m.has_value());
    ASSERT_EQ(m->size, b.manifold.size);
    EXPECT_LT((m->normal - motion.q * b.manifold.normal).norm(), 1e-12);
    for (int i = 0; i < m->size; ++i) {
      EXPECT_LT((m->points[i].pointA - motion.apply(b.manifold.points[i].pointA)).norm(), 1e-9);
      EXPECT_NEAR(m->points[i].depth, b.manifold.points[i].depth, 1e-9);
    }
  }
}

TEST(PersistentManifold, SmallRelativeMotionAgreesWithARebuiltManifold) {
  std::mt19937 rng(13);
  const ManifoldReuseTolerances tolerances;
  for (int trial = 0; trial < 50; ++trial) {
    Pair p = restingBox(rng, 0.0005);
    const PersistentManifold kept = keepBuilt(p);
    nudge(p, rng, tolerances);
    const auto m = repose(kept, p, tolerances);
    ASSERT_TRUE(m.has_value());
    expectConsistent(*m);
    // The rebuilt manifold has the same four corners, moved by at most the motion.
    const Built after = build(p);
    ASSERT_EQ(m->size, after.manifold.size);
    for (int i = 0; i < m->size; ++i) {
      double nearest = INFINITY;
      int match = -1;
      for (int j = 0; j < after.manifold.size; ++j) {
        const double d = (m->points[i].pointA - after.manifold.points[j].pointA).norm();
        if (d < nearest) {
          nearest = d;
          match = j;
        }
      }
      EXPECT_LT(nearest, tolerances.motion);
      EXPECT_NEAR(m->points[i].depth, after.manifold.points[match].depth, tolerances.motion);
    }
  }
}

TEST(PersistentManifold, RefusedBeyondItsTolerances) {
  std::mt19937 rng(14);
  const ManifoldReuseTolerances tolerances;
  const Pair p = restingBox(rng, 0.0005);
  const Built b = build(p);
  const PersistentManifold kept =
      persistManifold(b.manifold, p.poseA, p.poseB, b.narrow.distance, kMargin);
  const double reachA = kGroundHalf.norm(), reachB = kBoxHalf.norm();
  const Built& n = b;
  auto reposeWith = [&](const Pair& q, const Vector3d& normal, double distance, double margin,
                        const ManifoldReuseTolerances& t) {
    return reposeManifold(kept, q.poseA, q.poseB, normal, distance, margin, reachA, reachB, t);
  };
  ASSERT_TRUE(reposeWith(p, n.narrow.normal, n.narrow.distance, kMargin, tolerances));

  // Moved too far: a sideways slide of twice the tolerance, or a turn about the box's centre
  // that moves its corners by twice the tolerance.
  Pair slid = p;
  slid.poseB.p += 2.0 * tolerances.motion * (p.poseA.q * Vector3d::UnitX());
  EXPECT_FALSE(reposeWith(slid, n.narrow.normal, n.narrow.distance, kMargin, tolerances));
  Pair turned = p;
  turned.poseB.q =
      Quaterniond(AngleAxisd(2.0 * tolerances.motion / reachB, p.poseA.q * Vector3d::UnitZ())) *
      p.poseB.q;
  EXPECT_FALSE(reposeWith(turned, n.narrow.normal, n.narrow.distance, kMargin, tolerances));

  // The narrow phase disagrees: its normal turned by 5 normal tolerances, or its distance
  // moved by 5 depth tolerances.
  const Vector3d axis = n.narrow.normal.unitOrthogonal();
  const Vector3d tiltedNormal = AngleAxisd(5.0 * tolerances.normalAngle, axis) * n.narrow.normal;
  EXPECT_FALSE(reposeWith(p, tiltedNormal, n.narrow.distance, kMargin, tolerances));
  EXPECT_FALSE(reposeWith(p, n.narrow.normal, n.narrow.distance + 5.0 * tolerances.depth, kMargin,
                          tolerances));

  // A margin grown beyond the motion tolerance, a non-finite distance, reuse switched off.
  EXPECT_FALSE(reposeWith(p, n.narrow.normal, n.narrow.distance, kMargin + 0.001, tolerances));
  EXPECT_FALSE(reposeWith(p, n.narrow.normal, NAN, kMargin, tolerances));
  ManifoldReuseTolerances off;
  off.enabled = false;
  EXPECT_FALSE(reposeWith(p, n.narrow.normal, n.narrow.distance, kMargin, off));
}

// Within the motion tolerance of where it was built, a touching pair's kept manifold answers as
// the narrow phase would: the same normal and signed distance to the motion, witnesses that
// far apart along the normal; beyond it, apart, or with the stand-in off, it does not answer.
TEST(PersistentManifold, StandsInForTheQueryOfATouchingPairThatBarelyMoved) {
  std::mt19937 rng(16);
  const ManifoldReuseTolerances tolerances;
  const double reachA = kGroundHalf.norm(), reachB = kBoxHalf.norm();
  for (int trial = 0; trial < 200; ++trial) {
    Pair p = restingBox(rng, 0.0005);
    const PersistentManifold kept = keepBuilt(p);
    nudge(p, rng, tolerances);
    const auto r = standInResult(kept, p.poseA, p.poseB, kMargin, reachA, reachB, tolerances);
    ASSERT_TRUE(r.has_value());
    const CollisionResult queried =
        collide(p.a, p.poseA, p.b, p.poseB, p.poseB.p - p.poseA.p, CollisionOptions{});
    EXPECT_TRUE(r->collide);
    EXPECT_EQ(r->gjkStatus, GjkStatus::Intersecting);
    EXPECT_EQ(r->gjkIterations, 0);
    EXPECT_GT(queried.normal.dot(r->normal), std::cos(1e-3));
    EXPECT_NEAR(r->distance, queried.distance, 2.0 * tolerances.motion);
    EXPECT_LT((r->witnessB - r->witnessA - r->distance * r->normal).norm(), 1e-12);
    // The witness on A is a corner of the box's resting face, on the ground's top.
    EXPECT_NEAR(p.poseA.applyInverse(r->witnessA).z(), kGroundHalf.z(), 1e-3);
    // Its manifold is the one re-posing gives with that answer, without the checks again.
    const auto standIn = reposeStandIn(kept, p.poseA, p.poseB, kMargin);
    const auto checked = reposeManifold(kept, p.poseA, p.poseB, r->normal, r->distance, kMargin,
                                        reachA, reachB, tolerances);
    ASSERT_TRUE(standIn && checked);
    ASSERT_EQ(standIn->size, checked->size);
    EXPECT_EQ(standIn->normal, checked->normal);
    for (int i = 0; i < standIn->size; ++i) {
      EXPECT_EQ(standIn->points[i].pointA, checked->points[i].pointA);
      EXPECT_EQ(standIn->points[i].depth, checked->points[i].depth);
    }
  }

  Pair p = restingBox(rng, 0.0005);
  const Built b = build(p);
  const PersistentManifold kept =
      persistManifold(b.manifold, p.poseA, p.poseB, b.narrow.distance, kMargin);
  ASSERT_TRUE(standInResult(kept, p.poseA, p.poseB, kMargin, reachA, reachB, tolerances));
  Pair slid = p;
  slid.poseB.p += 2.0 * tolerances.motion * (p.poseA.q * Vector3d::UnitX());
  EXPECT_FALSE(standInResult(kept, slid.poseA, slid.poseB, kMargin, reachA, reachB, tolerances));
  EXPECT_FALSE(standInResult(kept, p.poseA, p.poseB, kMargin + 0.001, reachA, reachB, tolerances));
  ManifoldReuseTolerances noStandIn;
  noStandIn.standIn = false;
  EXPECT_FALSE(standInResult(kept, p.poseA, p.poseB, kMargin, reachA, reachB, noStandIn));
  ManifoldReuseTolerances off;
  off.enabled = false;
  EXPECT_FALSE(standInResult(kept, p.poseA, p.poseB, kMargin, reachA, reachB, off));
  // Apart by 5 mm within a 10 mm margin: the query decides (a speculative contact may be an
  // impact), not the kept manifold.
  const Pair above = restingBox(rng, -0.005);
  const Built a = build(above);
  ASSERT_GT(a.manifold.size, 0);
  const PersistentManifold keptAbove =
      persistManifold(a.manifold, above.poseA, above.poseB, a.narrow.distance, kMargin);
  EXPECT_FALSE(
      standInResult(keptAbove, above.poseA, above.poseB, kMargin, reachA, reachB, tolerances));
  // Resting at zero depth, with a depth gap rounded above zero: a kept point on the surface is
  // touching, and the answer is a distance of zero, not a gap of rounding.
  const auto points = reposeStandIn(kept, p.poseA, p.poseB, kMargin);
  ASSERT_TRUE(points.has_value());
  double deepest = -INFINITY;
  for (int i = 0; i < points->size; ++i) deepest = std::max(deepest, points->points[i].depth);
  ASSERT_GE(deepest, 0.0);
  PersistentManifold atZero = kept;
  atZero.depthGap = std::nextafter(deepest, INFINITY);
  const auto touching =
      standInResult(atZero, p.poseA, p.poseB, kMargin, reachA, reachB, tolerances);
  ASSERT_TRUE(touching.has_value());
  EXPECT_EQ(touching->distance, 0.0);
  EXPECT_EQ(touching->witnessB, touching->witnessA);  // witnessB - witnessA = distance * normal
  EXPECT_TRUE(touching->collide);
}

TEST(PersistentManifold, SpeculativePointsBeyondTheMarginAreDropped) {
  std::mt19937 rng(15);
  const Pair p = restingBox(rng, -0.005);  // 5 mm above the ground
  const Built b = build(p);
  ASSERT_EQ(b.manifold.size, 4);
  const PersistentManifold kept =
      persistManifold(b.manifold, p.poseA, p.poseB, b.narrow.distance, kMargin);
  // Every corner hangs 4.8 to 5.2 mm above the ground (the tilt): a 6 mm margin keeps them all,
  // a 5 mm margin some, a 4 mm margin none, and an empty manifold is refused.
  const auto wide = repose(kept, p, {}, 0.006);
  ASSERT_TRUE(wide.has_value());
  EXPECT_EQ(wide->size, 4);
  const auto middle = repose(kept, p, {}, 0.005);
  ASSERT_TRUE(middle.has_value());
  EXPECT_GT(middle->size, 0);
  EXPECT_LT(middle->size, 4);
  for (int i = 0; i < middle->size; ++i) EXPECT_GE(middle->points[i].depth, -0.005);
  EXPECT_FALSE(repose(kept, p, {}, 0.004).has_value());
}

// Bodies that roll do not keep their manifolds: on their curved surface the contact moves over
// the material.
TEST(PersistentManifold, NotKeptForBodiesThatRoll) {
  const Shape box = Shape::box({0.1, 0.2, 0.3});
  const std::vector<Vector3d> points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  const Shape hull = Shape::convexHull(std::make_shared<ConvexHull>(ConvexHull::build(points)));
  EXPECT_TRUE(manifoldMayBeKept(box, hull));
  EXPECT_TRUE(manifoldMayBeKept(box.withConvexRadius(0.01), box));
  EXPECT_TRUE(manifoldMayBeKept(Shape::superquadric({0.1, 0.1, 0.1}, 0.5, 0.5), box));
  for (const Shape& round :
       {Shape::sphere(0.1), Shape::capsule(0.1, 0.2), Shape::cylinder(0.1, 0.2),
        Shape::cone(0.1, 0.2), Shape::ellipsoid({0.1, 0.2, 0.3})}) {
    EXPECT_FALSE(manifoldMayBeKept(round, box)) << toString(round.type());
    EXPECT_FALSE(manifoldMayBeKept(hull, round)) << toString(round.type());
  }
}

}  // namespace
}  // namespace hb
