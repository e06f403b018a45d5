// Contact manifolds of resting configurations with known contact polygons (box on box, rotated
// box, tilted box, capsule, sphere, cylinder and cone on a box, capsule on capsule, rounded box on
// rounded box), speculative contacts within the margin, and end-to-end GJK + EPA + manifold on
// random overlapping pairs, sharp and rounded. Every configuration is placed under a random rigid
// transform of the whole pair.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "collision/collide.hpp"
#include "collision/contact_manifold.hpp"
#include "collision/support.hpp"
#include "random_geometry.hpp"

namespace hb {
namespace {

using Eigen::AngleAxisd;
using Eigen::Quaterniond;
using Eigen::Vector3d;

constexpr double kPi = std::numbers::pi;

// The ground: a box whose top face is the plane z = 0.5 of its frame.
const Vector3d kGroundHalf(1.0, 1.0, 0.5);

struct GroundPair {
  Pose world;  // random rigid transform of the whole pair
  Pose poseA;  // the ground
  Pose poseB;
  Vector3d normal;  // world, A towards B: the ground's up axis
};

GroundPair makeScene(std::mt19937& rng, const Pose& localB) {
  GroundPair s;
  s.world = test::randomPose(rng, 3.0);
  s.poseA = s.world;
  s.poseB = s.world * localB;
  s.normal = s.world.q * Vector3d::UnitZ();
  return s;
}

// Witness pair of a contact at ground point (x, y) with signed distance d along +z.
ContactManifold onGround(const GroundPair& s, const Shape& b, double x, double y, double d,
                         double margin = 0.0) {
  const Vector3d wa = s.world.apply({x, y, 0.5});
  const Vector3d wb = s.world.apply({x, y, 0.5 + d});
  return buildContactManifold(Shape::box(kGroundHalf), s.poseA, b, s.poseB, s.normal, wa, wb, d,
                              margin);
}

// Every point: the pair is separated along the normal by exactly its depth, point A lies on the
// ground's top face and point B is expressed in the ground's frame for the caller's checks.
std::vector<Vector3d> checkGroundContacts(const ContactManifold& m, const GroundPair& s,
                                          double depth, double tol = 1e-9) {
  std::vector<Vector3d> local;
  EXPECT_LT((m.normal - s.normal).norm(), 1e-12);
  for (int i = 0; i < m.size; ++i) {
    const ContactPoint& c = m.points[i];
    EXPECT_NEAR(c.depth, depth, tol);
    EXPECT_LT((c.pointA - c.pointB - c.depth * m.normal).norm(), 1e-9);
    EXPECT_NEAR(s.world.applyInverse(c.pointA).z(), 0.5, 1e-9);
    local.push_back(s.world.applyInverse(c.pointB));
  }
  return local;
}

// True when `points` and `expected` hold the same points (any order) within tol.
bool samePointSet(const std::vector<Vector3d>& points, const std::vector<Vector3d>& expected,
                  double tol) {
  if (points.size() != expected.size()) return false;
  std::vector<bool> used(expected.size(), false);
  for (const Vector3d& p : points) {
    bool found = false;
    for (size_t j = 0; j < expected.size() && !found; ++j) {
      if (!used[j] && (p - expected[j]).norm() < tol) used[j] = found = true;
    }
    if (!found) return false;
  }
  return true;
}

Quaterniond about(const Vector3d& axis, double angle) {
  return Quaterniond(AngleAxisd(angle, axis.normalized()));
}

TEST(ContactManifold, BoxRestingOnBoxFaceGivesFourCorners) {
  std::mt19937 rng(31);
  const Vector3d h(0.2, 0.3, 0.1);
  const Shape box = Shape::box(h);
  const double depth = 1e-3;
  for (int trial = 0; trial < 20; ++trial) {
    const Vector3d c(0.3 * std::sin(trial), -0.2, 0.5 + h.z() - depth);
    const GroundPair s = makeScene(rng, Pose::translation(c));
    const ContactManifold m = onGround(s, box, c.x(), c.y(), -depth);
    ASSERT_EQ(m.size, 4);
    const auto local = checkGroundContacts(m, s, depth);
    std::vector<Vector3d> corners;
    for (const double sx : {-1.0, 1.0})
      for (const double sy : {-1.0, 1.0})
        corners.push_back(c + Vector3d(sx * h.x(), sy * h.y(), -h.z()));
    EXPECT_TRUE(samePointSet(local, corners, 1e-9));
  }
}

// The same with the roles swapped (the ground is B, the normal points down): the reference face
// is then B's, and the partners are measured from B's plane.
TEST(ContactManifold, BoxRestingOnBoxFaceWithGroundAsB) {
  std::mt19937 rng(30);
  const Vector3d h(0.2, 0.3, 0.1);
  const Shape box = Shape::box(h), ground = Shape::box(kGroundHalf);
  const double depth = 1e-3;
  for (int trial = 0; trial < 10; ++trial) {
    const Vector3d c(0.1, 0.3 * std::cos(trial), 0.5 + h.z() - depth);
    const GroundPair s = makeScene(rng, Pose::translation(c));
    const Vector3d down = -s.normal;
    const ContactManifold m = buildContactManifold(box, s.poseB, ground, s.poseA, down,
                                                   s.world.apply({c.x(), c.y(), 0.5 - depth}),
                                                   s.world.apply({c.x(), c.y(), 0.5}), -depth, 0.0);
    ASSERT_EQ(m.size, 4);
    EXPECT_LT((m.normal - down).norm(), 1e-12);
    std::vector<Vector3d> local;
    for (int i = 0; i < m.size; ++i) {
      const ContactPoint& p = m.points[i];
      EXPECT_NEAR(p.depth, depth, 1e-9);
      EXPECT_LT((p.pointA - p.pointB - p.depth * m.normal).norm(), 1e-9);
      EXPECT_NEAR(s.world.applyInverse(p.pointB).z(), 0.5, 1e-9);
      local.push_back(s.world.applyInverse(p.pointA));
    }
    std::vector<Vector3d> corners;
    for (const double sx : {-1.0, 1.0})
      for (const double sy : {-1.0, 1.0})
        corners.push_back(c + Vector3d(sx * h.x(), sy * h.y(), -h.z()));
    EXPECT_TRUE(samePointSet(local, corners, 1e-9));
  }
}

// Same box on a same-size face, spun 45 degrees about the normal: the faces overlap in a regular
// octagon, whose eight vertices are reduced to four spanning most of its area.
TEST(ContactManifold, BoxRotated45DegreesGivesFourOctagonVertices) {
  std::mt19937 rng(32);
  const double a = 0.3, depth = 1e-3;
  const Shape box = Shape::box({a, a, 0.1});
  const Shape ground = Shape::box({a, a, 0.5});
  const double octagonArea = 4 * a * a - 2 * std::pow(2 * a - a * std::sqrt(2.0), 2);
  for (int trial = 0; trial < 20; ++trial) {
    const Pose local{about(Vector3d::UnitZ(), kPi / 4), {0.0, 0.0, 0.5 + 0.1 - depth}};
    const GroundPair s = makeScene(rng, local);
    const ContactManifold m =
        buildContactManifold(ground, s.poseA, box, s.poseB, s.normal, s.world.apply({0, 0, 0.5}),
                             s.world.apply({0, 0, 0.5 - depth}), -depth, 0.0);
    ASSERT_EQ(m.size, 4);
    std::vector<Vector3d> pts = checkGroundContacts(m, s, depth);
    // Inside both squares, on the boundary of one of them.
    for (const Vector3d& p : pts) {
      const Vector3d q = local.q.conjugate() * p;
      EXPECT_LE(p.head<2>().cwiseAbs().maxCoeff(), a + 1e-9);
      EXPECT_LE(q.head<2>().cwiseAbs().maxCoeff(), a + 1e-9);
      EXPECT_NEAR(std::max(p.head<2>().cwiseAbs().maxCoeff(), q.head<2>().cwiseAbs().maxCoeff()), a,
                  1e-9);
    }
    // The kept quadrilateral (convex, in reduction order or not) spans most of the octagon.
    std::sort(pts.begin(), pts.end(), [](const Vector3d& u, const Vector3d& v) {
      return std::atan2(u.y(), u.x()) < std::atan2(v.y(), v.x());
    });
    double area = 0.0;
    for (int i = 0; i < 4; ++i) {
      area += 0.5 * (pts[i].x() * pts[(i + 1) % 4].y() - pts[(i + 1) % 4].x() * pts[i].y());
    }
    EXPECT_GT(area, 0.6 * octagonArea);
  }
}

// A box tilted about an axis parallel to one of its edges touches along that edge (2 points);
// tilted about a skew axis it touches at a corner (1 point).
TEST(ContactManifold, TiltedBoxOnFaceGivesEdgeOrCorner) {
  std::mt19937 rng(33);
  const Vector3d h(0.2, 0.3, 0.1);
  const Shape box = Shape::box(h);
  const double depth = 1e-3;
  for (const double tilt : {0.05, 0.17, 0.5}) {  // inside and outside the face threshold
    for (const bool skew : {false, true}) {
      const Quaterniond q = skew ? about({1.0, 0.6, 0.0}, tilt) : about(Vector3d::UnitX(), tilt);
      // The lowest corner(s) of the tilted box, then the box lowered to penetrate by depth.
      double lowest = 1e9;
      std::vector<Vector3d> corners;
      for (int k = 0; k < 8; ++k) {
        const Vector3d c =
            q * Vector3d(k & 1 ? h.x() : -h.x(), k & 2 ? h.y() : -h.y(), k & 4 ? h.z() : -h.z());
        corners.push_back(c);
        lowest = std::min(lowest, c.z());
      }
      const Vector3d centre(0.1, 0.0, 0.5 - depth - lowest);
      const GroundPair s = makeScene(rng, {q, centre});
      std::vector<Vector3d> touching;
      for (const Vector3d& c : corners)
        if (c.z() < lowest + 1e-9) touching.push_back(centre + c);
      ASSERT_EQ(touching.size(), skew ? 1u : 2u);
      const ContactManifold m = onGround(s, box, touching[0].x(), touching[0].y(), -depth);
      EXPECT_EQ(m.size, static_cast<int>(touching.size())) << tilt << " " << skew;
      const auto local = checkGroundContacts(m, s, depth);
      EXPECT_TRUE(samePointSet(local, touching, 1e-9)) << tilt << " " << skew;
    }
  }
}

TEST(ContactManifold, CapsuleLyingOnBoxGivesTwoPoints) {
  std::mt19937 rng(34);
  const Shape capsule = Shape::capsule(0.1, 0.3);
  const double depth = 1e-3;
  for (int trial = 0; trial < 20; ++trial) {
    // Axis along the ground's x, spun about z; centre one radius above the face, minus depth.
    const double spin = 0.3 * trial;
    const Quaterniond q = about(Vector3d::UnitZ(), spin) * about(Vector3d::UnitY(), kPi / 2);
    const Vector3d centre(0.05, 0.1, 0.5 + 0.1 - depth);
    const GroundPair s = makeScene(rng, {q, centre});
    const ContactManifold m = onGround(s, capsule, centre.x(), centre.y(), -depth);
    ASSERT_EQ(m.size, 2);
    const auto local = checkGroundContacts(m, s, depth);
    const Vector3d axis = q * Vector3d::UnitZ();
    const Vector3d bottom = centre - Vector3d(0, 0, 0.1);
    EXPECT_TRUE(samePointSet(local, {bottom + 0.3 * axis, bottom - 0.3 * axis}, 1e-9));
  }
}

TEST(ContactManifold, SphereOnBoxGivesTheWitnessPair) {
  std::mt19937 rng(35);
  const Shape sphere = Shape::sphere(0.2);
  const double depth = 2e-3;
  const GroundPair s = makeScene(rng, Pose::translation({0.1, 0.2, 0.5 + 0.2 - depth}));
  const ContactManifold m = onGround(s, sphere, 0.1, 0.2, -depth);
  ASSERT_EQ(m.size, 1);
  const auto local = checkGroundContacts(m, s, depth);
  EXPECT_TRUE(samePointSet(local, {Vector3d(0.1, 0.2, 0.5 - depth)}, 1e-12));
}

TEST(ContactManifold, CylinderStandingOnBoxGivesRimPoints) {
  std::mt19937 rng(36);
  const double r = 0.2, h = 0.3, depth = 1e-3;
  const Shape cylinder = Shape::cylinder(r, h);
  for (int trial = 0; trial < 10; ++trial) {
    const Vector3d centre(-0.1, 0.3, 0.5 + h - depth);
    const GroundPair s = makeScene(rng, {about(Vector3d::UnitZ(), trial), centre});
    const ContactManifold m = onGround(s, cylinder, centre.x(), centre.y(), -depth);
    ASSERT_EQ(m.size, 4);
    const auto local = checkGroundContacts(m, s, depth);
    for (const Vector3d& p : local) {
      EXPECT_NEAR((p - centre).head<2>().norm(), r, 1e-9);
      EXPECT_NEAR(p.z(), 0.5 - depth, 1e-9);
    }
    // Spread over the rim: the quadrilateral covers a good part of the disk.
    double minGap = 1e9;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) minGap = std::min(minGap, (local[i] - local[j]).norm());
    EXPECT_GT(minGap, 0.5 * r);
  }
}

// A cone on its base gives rim points; lying on its slant, the segment from rim to apex.
TEST(ContactManifold, ConeOnBaseOrSlant) {
  std::mt19937 rng(37);
  const double r = 0.2, h = 0.3, depth = 1e-3;
  const Shape cone = Shape::cone(r, h);
  {
    const Vector3d centre(0.0, 0.0, 0.5 + h - depth);
    const GroundPair s = makeScene(rng, Pose::translation(centre));
    const ContactManifold m = onGround(s, cone, 0.0, 0.0, -depth);
    ASSERT_EQ(m.size, 4);
    for (const Vector3d& p : checkGroundContacts(m, s, depth)) {
      EXPECT_NEAR(p.head<2>().norm(), r, 1e-9);
    }
  }
  {
    // Rotated about x so that the slant line in the local -y direction faces down.
    const double slant = std::atan2(r, 2 * h);
    const Quaterniond q = about(Vector3d::UnitX(), kPi / 2 + slant);
    const Vector3d rim = q * Vector3d(0, -r, -h), apex = q * Vector3d(0, 0, h);
    ASSERT_NEAR(rim.z(), apex.z(), 1e-12);
    const Vector3d centre(0.1, 0.0, 0.5 - depth - rim.z());
    const GroundPair s = makeScene(rng, {q, centre});
    const ContactManifold m = onGround(s, cone, centre.x(), centre.y(), -depth);
    ASSERT_EQ(m.size, 2);
    const auto local = checkGroundContacts(m, s, depth);
    EXPECT_TRUE(samePointSet(local, {centre + rim, centre + apex}, 1e-9));
  }
}

// Two capsules: parallel ones touch along the overlap of their segments, crossed ones at a point.
TEST(ContactManifold, CapsuleOnCapsule) {
  std::mt19937 rng(38);
  const Shape capsule = Shape::capsule(0.1, 0.3);
  const double depth = 2e-3;
  const Pose world = test::randomPose(rng, 2.0);
  const Quaterniond alongX = about(Vector3d::UnitY(), kPi / 2);
  const Pose poseA = world * Pose{alongX, Vector3d::Zero()};
  const Vector3d normal = world.q * Vector3d::UnitZ();
  const Vector3d wa = world.apply({0.1, 0, 0.1}), wb = world.apply({0.1, 0, 0.1 - depth});
  {
    // B shifted by 0.2 along x: the segments overlap on x in [-0.1, 0.3].
    const Pose poseB = world * Pose{alongX, {0.2, 0.0, 0.2 - depth}};
    const ContactManifold m =
        buildContactManifold(capsule, poseA, capsule, poseB, normal, wa, wb, -depth, 0.0);
    ASSERT_EQ(m.size, 2);
    std::vector<Vector3d> local;
    for (int i = 0; i < m.size; ++i) {
      EXPECT_NEAR(m.points[i].depth, depth, 1e-9);
      EXPECT_LT((m.points[i].pointA - m.points[i].pointB - depth * normal).norm(), 1e-9);
      local.push_back(world.applyInverse(m.points[i].pointA));
    }
    EXPECT_TRUE(samePointSet(local, {Vector3d(-0.1, 0, 0.1), Vector3d(0.3, 0, 0.1)}, 1e-9));
  }
  {
    const Pose poseB = world * Pose{about(Vector3d::UnitX(), kPi / 2), {0.1, 0.0, 0.2 - depth}};
    const ContactManifold m =
        buildContactManifold(capsule, poseA, capsule, poseB, normal, wa, wb, -depth, 0.0);
    ASSERT_EQ(m.size, 1);
    EXPECT_EQ(m.points[0].pointA, wa);
    EXPECT_EQ(m.points[0].pointB, wb);
    EXPECT_DOUBLE_EQ(m.points[0].depth, depth);
  }
}

// Speculative contacts: a gap within the margin gives points of negative depth; beyond it none.
TEST(ContactManifold, SpeculativePointsWithinTheMargin) {
  std::mt19937 rng(39);
  const Vector3d h(0.2, 0.3, 0.1);
  const Shape box = Shape::box(h);
  const double margin = 0.01;
  for (int trial = 0; trial < 10; ++trial) {
    {
      const double gap = 0.005;
      const GroundPair s = makeScene(rng, Pose::translation({0.0, 0.0, 0.5 + h.z() + gap}));
      const ContactManifold m = onGround(s, box, 0.0, 0.0, gap, margin);
      ASSERT_EQ(m.size, 4);
      checkGroundContacts(m, s, -gap);
    }
    {
      const double gap = 0.02;
      const GroundPair s = makeScene(rng, Pose::translation({0.0, 0.0, 0.5 + h.z() + gap}));
      EXPECT_EQ(onGround(s, box, 0.0, 0.0, gap, margin).size, 0);
    }
  }
  // Tilted within the margin: only the corners that are within it are kept.
  const Quaterniond q = about(Vector3d::UnitX(), 0.05);
  const double lowest = (q * Vector3d(0, -h.y(), -h.z())).z();  // the -y edge goes down
  ASSERT_LT(lowest, (q * Vector3d(0, h.y(), -h.z())).z());
  const double gap = 0.002;
  const GroundPair s = makeScene(rng, {q, {0.0, 0.0, 0.5 + gap - lowest}});
  const ContactManifold m = onGround(s, box, 0.0, -h.y(), gap, margin);
  ASSERT_EQ(m.size, 2);  // the raised edge is 0.6 * sin(0.05) = 3 cm up
  checkGroundContacts(m, s, -gap, 1e-9);
}

TEST(ContactManifold, HullFaceOnBoxFace) {
  std::mt19937 rng(40);
  // A hexagonal prism as a hull; standing on a hexagon face it gives 4 of the 6 corners.
  std::vector<Vector3d> pts;
  for (int k = 0; k < 6; ++k) {
    const double t = k * kPi / 3;
    pts.push_back({0.2 * std::cos(t), 0.2 * std::sin(t), -0.1});
    pts.push_back({0.2 * std::cos(t), 0.2 * std::sin(t), 0.1});
  }
  const Shape prism = Shape::convexHull(std::make_shared<const ConvexHull>(ConvexHull::build(pts)));
  const double depth = 1e-3;
  const Vector3d centre(0.2, -0.1, 0.5 + 0.1 - depth);
  const GroundPair s = makeScene(rng, {about(Vector3d::UnitZ(), 0.3), centre});
  const ContactManifold m = onGround(s, prism, centre.x(), centre.y(), -depth);
  ASSERT_EQ(m.size, 4);
  for (const Vector3d& p : checkGroundContacts(m, s, depth)) {
    EXPECT_NEAR((p - centre).head<2>().norm(), 0.2, 1e-9);
  }
}

TEST(ContactManifold, NothingBeyondTheMarginAndUnusableNormals) {
  const Shape a = Shape::box({0.5, 0.5, 0.5}), b = Shape::sphere(0.1);
  const Pose pa = Pose::identity(), pb = Pose::translation({0, 0, 0.65});
  const Vector3d wa(0, 0, 0.5), wb(0, 0, 0.55);
  EXPECT_EQ(buildContactManifold(a, pa, b, pb, Vector3d::UnitZ(), wa, wb, 0.05, 0.01).size, 0);
  EXPECT_EQ(buildContactManifold(a, pa, b, pb, Vector3d::UnitZ(), wa, wb,
                                 std::numeric_limits<double>::quiet_NaN(), 0.1)
                .size,
            0);
  // A zero or NaN normal is recovered from the witnesses (B above A: +z).
  for (const Vector3d& bad : {Vector3d::Zero().eval(), Vector3d::Constant(std::nan("")).eval()}) {
    const ContactManifold m = buildContactManifold(a, pa, b, pb, bad, wa, wb, 0.05, 0.1);
    EXPECT_LT((m.normal - Vector3d::UnitZ()).norm(), 1e-12);
    ASSERT_EQ(m.size, 1);
    EXPECT_DOUBLE_EQ(m.points[0].depth, -0.05);
  }
}

// End to end: collide() (GJK, then EPA) and the manifold of random overlapping box pairs and
// box-hull pairs. Each point lies on both shapes' surfaces up to its depth, no point is deeper
// than the penetration, and the deepest point is near it.
TEST(ContactManifold, EndToEndWithCollide) {
  std::mt19937 rng(41);
  const auto hull =
      std::make_shared<const ConvexHull>(ConvexHull::build(test::randomCloud(rng, 25, 0.3)));
  const Vector3d ha(0.4, 0.3, 0.2), hb(0.25, 0.2, 0.15);
  const Shape a = Shape::box(ha);
  int tested = 0, multi = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Shape b = trial % 2 ? Shape::box(hb) : Shape::convexHull(hull);
    // Mostly near-resting pairs (B slightly rotated on A's top face), some random.
    Pose localB{test::randomRotation(rng), test::randomVector(rng, -0.4, 0.4)};
    if (trial % 4 != 3) {
      const Quaterniond wobble = about(test::randomUnitVector(rng), 0.02 * (trial % 5));
      localB = {about(Vector3d::UnitZ(), trial) * wobble, {0.1, -0.1, 0.2 + 0.15 - 0.002}};
    }
    const Pose world = test::randomPose(rng, 2.0);
    const Pose poseA = world, poseB = world * localB;
    CollisionOptions options;
    const CollisionResult r = collide(a, poseA, b, poseB, poseA.p - poseB.p, options);
    if (!r.collide || !r.epaStatus || *r.epaStatus != EpaStatus::Converged) continue;
    ++tested;
    const ContactManifold m =
        buildContactManifold(a, poseA, b, poseB, r.normal, r.witnessA, r.witnessB, r.distance, 0.0);
    ASSERT_GE(m.size, 1);
    ASSERT_LE(m.size, 4);
    if (m.size > 1) ++multi;
    double deepest = -1e9;
    for (int i = 0; i < m.size; ++i) {
      const ContactPoint& c = m.points[i];
      ASSERT_TRUE(c.pointA.allFinite() && c.pointB.allFinite() && std::isfinite(c.depth));
      EXPECT_LT((c.pointA - c.pointB - c.depth * m.normal).norm(), 1e-9);
      EXPECT_LE(c.depth, -r.distance + 1e-6);
      EXPECT_GE(c.depth, -1e-9);
      deepest = std::max(deepest, c.depth);
      // Point A on (or within rounding of) box A's surface.
      const Vector3d pa = poseA.applyInverse(c.pointA);
      EXPECT_LE((pa.cwiseAbs() - ha).maxCoeff(), 1e-6);
      EXPECT_GE((pa.cwiseAbs() - ha).maxCoeff(), -1e-6);
    }
    EXPECT_GT(deepest, -r.distance - 0.05 * std::max(-r.distance, 1e-3));
  }
  EXPECT_GE(tested, 200);
  EXPECT_GE(multi, 150);
  RecordProperty("tested", tested);
  RecordProperty("multi", multi);
}

// A rounded box resting on a rounded ground: the manifold clips their own faces, which the
// rounding leaves in place, so the points are the sharp box's corners at the same depth.
TEST(ContactManifold, RoundedBoxRestingOnRoundedGroundGivesItsFaceCorners) {
  std::mt19937 rng(42);
  const Vector3d h(0.2, 0.3, 0.1);
  const Shape box = Shape::box(h).withConvexRadius(0.003);
  const Shape ground = Shape::box(kGroundHalf).withConvexRadius(0.002);
  const double depth = 4e-4;
  for (int trial = 0; trial < 20; ++trial) {
    const Vector3d c(0.3 * std::sin(trial), -0.2, 0.5 + h.z() - depth);
    const GroundPair s = makeScene(rng, Pose{about(Vector3d::UnitZ(), trial), c});
    // The narrow phase's answer for the pair: a distance between the cores.
    CollisionOptions options;
    const CollisionResult r =
        collide(ground, s.poseA, box, s.poseB, s.poseA.p - s.poseB.p, options);
    ASSERT_TRUE(r.ok());
    EXPECT_NEAR(r.distance, -depth, 1e-6);
    EXPECT_FALSE(r.epaStatus.has_value());
    const ContactManifold m = buildContactManifold(ground, s.poseA, box, s.poseB, r.normal,
                                                   r.witnessA, r.witnessB, r.distance, 0.0);
    ASSERT_EQ(m.size, 4);
    const auto local = checkGroundContacts(m, s, depth, 1e-6);
    std::vector<Vector3d> corners;
    for (const double sx : {-1.0, 1.0})
      for (const double sy : {-1.0, 1.0})
        corners.push_back(c + about(Vector3d::UnitZ(), trial) *
                                  Vector3d(sx * h.x(), sy * h.y(), -h.z()));
    EXPECT_TRUE(samePointSet(local, corners, 1e-5));
  }
}

// How much the rounding takes off a shape's support along the unit world direction `dir`.
double roundingGap(const Shape& rounded, const Pose& pose, const Vector3d& dir) {
  const Shape sharp = rounded.withConvexRadius(0.0);
  const Vector3d local = pose.q.conjugate() * dir;
  int hint = -1;
  return local.dot(support(sharp, local, hint)) - local.dot(support(rounded, local, hint));
}

// Rounded pairs near rest: the narrow phase answers with a distance between cores (no EPA); the
// manifold's points lie on the shapes' faces, the deepest at least as deep as that distance and
// deeper by no more than what the rounding takes off the two supports along the normal.
TEST(ContactManifold, EndToEndWithRoundedShapes) {
  std::mt19937 rng(43);
  const auto hull =
      std::make_shared<const ConvexHull>(ConvexHull::build(test::randomCloud(rng, 25, 0.3)));
  // A's top face is wide enough for B's footprint: B's lowest point is over it.
  const Vector3d ha(0.7, 0.7, 0.2), hb(0.25, 0.2, 0.15);
  const Shape a = Shape::box(ha).withConvexRadius(0.002);
  int flat = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Shape b = trial % 2 ? Shape::box(hb).withConvexRadius(0.003)
                              : Shape::convexHull(hull).withConvexRadius(0.003);
    // B's lowest point 0.5 mm into A's top face, B slightly rotated.
    const Quaterniond q =
        about(Vector3d::UnitZ(), trial) * about(test::randomUnitVector(rng), 0.02 * (trial % 5));
    int hint = -1;
    const Vector3d down = q.conjugate() * -Vector3d::UnitZ();
    const double below = down.dot(support(b, down, hint));  // lowest point under the origin
    const Pose localB{q, {0.0, 0.0, ha.z() + below - 5e-4}};
    const Pose world = test::randomPose(rng, 2.0);
    const Pose poseA = world, poseB = world * localB;
    CollisionOptions options;
    const CollisionResult r = collide(a, poseA, b, poseB, poseA.p - poseB.p, options);
    ASSERT_TRUE(r.ok());
    ASSERT_NEAR(r.distance, -5e-4, 1e-6) << "trial " << trial;
    EXPECT_FALSE(r.epaStatus.has_value());
    const ContactManifold m =
        buildContactManifold(a, poseA, b, poseB, r.normal, r.witnessA, r.witnessB, r.distance, 0.0);
    ASSERT_GE(m.size, 1);
    ASSERT_LE(m.size, 4);
    // A box lying flat touches with its whole bottom face: its four corners.
    if (trial % 2 == 1 && trial % 5 == 0) {
      EXPECT_EQ(m.size, 4) << "trial " << trial;
      ++flat;
    }
    const double rounding = roundingGap(a, poseA, m.normal) + roundingGap(b, poseB, -m.normal);
    double deepest = -1e9;
    for (int i = 0; i < m.size; ++i) {
      const ContactPoint& c = m.points[i];
      EXPECT_LT((c.pointA - c.pointB - c.depth * m.normal).norm(), 1e-9);
      EXPECT_LE(c.depth, -r.distance + rounding + 1e-6) << "trial " << trial;
      deepest = std::max(deepest, c.depth);
      // Point A on box A's top face.
      const Vector3d pa = poseA.applyInverse(c.pointA);
      EXPECT_NEAR(pa.z(), ha.z(), 1e-6) << "trial " << trial;
      EXPECT_LE((pa.cwiseAbs() - ha).maxCoeff(), 1e-6) << "trial " << trial;
    }
    EXPECT_GE(deepest, -r.distance - 1e-6) << "trial " << trial;
  }
  EXPECT_EQ(flat, 40);
}

}  // namespace
}  // namespace hb
