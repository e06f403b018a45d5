// GJK, EPA on cores and collide() on boxes and hulls rounded by a convex radius: the distance of
// two rounded shapes is the distance of their cores minus both radii, so each answer is checked
// against an independent one for the cores (analytic for boxes against planes and spheres, the
// Qhull Minkowski-difference reference otherwise), on thousands of seeded random poses. Face-face
// contacts must not see the rounding at all: they agree with the sharp shapes.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "collision/collide.hpp"
#include "random_geometry.hpp"
#include "reference_distance.hpp"
#include "ycb_vertices.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

constexpr GjkVariant kVariants[] = {GjkVariant::Vanilla, GjkVariant::Polyak, GjkVariant::Nesterov,
                                    GjkVariant::Auto};

const double kCollisionTolerance = std::sqrt(defaults::kGjkTolerance);

// The duality gap bounds the error of the core distance: |x|^2 - |x*|^2 <= eps.
double gapTolerance(double coreDistance) {
  const double eps = defaults::kGjkTolerance;
  return std::min(std::sqrt(eps), eps / std::max(1e-300, 2.0 * std::abs(coreDistance))) + 1e-9;
}

// Error allowed on a distance whose cores are `coreDistance` apart: GJK's above eps_col; below
// it the pair counts as touching (eps_col); EPA's when the cores overlap.
double distanceTolerance(double coreDistance) {
  if (coreDistance > kCollisionTolerance) return gapTolerance(coreDistance);
  return coreDistance > 0.0 ? kCollisionTolerance : 1e-5;
}

// Signed distance from a point to the box [-h, h] (negative inside: minus the depth).
double pointBoxDistance(const Vector3d& p, const Vector3d& h) {
  const Vector3d q = p.cwiseAbs() - h;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

std::vector<Vector3d> boxCorners(const Vector3d& h) {
  std::vector<Vector3d> corners;
  for (int k = 0; k < 8; ++k) {
    corners.emplace_back((k & 1) ? h.x() : -h.x(), (k & 2) ? h.y() : -h.y(),
                         (k & 4) ? h.z() : -h.z());
  }
  return corners;
}

// A random box rounded by a random fraction (0 included) of its largest convex radius.
Shape randomRoundedBox(std::mt19937& rng) {
  const Shape box = Shape::box(test::randomVector(rng, 0.02, 0.2));
  std::uniform_real_distribution<double> fraction(0.0, 1.0);
  const double r = fraction(rng) < 0.1 ? 0.0 : fraction(rng) * box.maxConvexRadius();
  return box.withConvexRadius(r);
}

std::vector<Vector3d> coreVertices(const Shape& s) {
  return s.type() == ShapeType::Box ? boxCorners(s.coreHalfExtents()) : s.coreHull().vertices();
}

// Checks a collide() answer against the signed distance of the cores (Qhull reference), and
// its witnesses: on the rounded surfaces (their core distance is the radius) and related by
// witnessA - witnessB = -distance * normal.
void expectRoundedAnswer(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                         const CollisionResult& r, const std::string& what) {
  const double core = test::referenceSignedDistance(test::transformed(coreVertices(a), pa),
                                                    test::transformed(coreVertices(b), pb));
  const double radii = a.convexRadius() + b.convexRadius();
  ASSERT_TRUE(r.ok()) << what;
  if (core > std::sqrt(defaults::kGjkTolerance)) {
    // Cores apart: a GJK distance, however deep the rounded shapes overlap.
    EXPECT_NEAR(r.distance, core - radii, gapTolerance(core)) << what;
    EXPECT_FALSE(r.epaStatus.has_value()) << what;
  } else if (core > 0.0) {
    EXPECT_NEAR(r.distance, core - radii, std::sqrt(defaults::kGjkTolerance)) << what;
  } else {
    // Cores overlap: EPA on the cores, plus the radii.
    EXPECT_TRUE(r.epaStatus.has_value()) << what;
    EXPECT_NEAR(r.distance, core - radii, 1e-5) << what << " (EPA depth)";
  }
  EXPECT_EQ(r.collide, r.distance <= std::sqrt(defaults::kGjkTolerance)) << what;
  EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12) << what;
  EXPECT_LE((r.witnessA - r.witnessB + r.distance * r.normal).norm(), 1e-9) << what;
  // A witness is the radius away from its core (within GJK's accuracy on the point).
  const auto surfaceGap = [](const Shape& s, const Pose& pose, const Vector3d& w) {
    const Vector3d local = pose.applyInverse(w);
    const double toCore = s.type() == ShapeType::Box
                              ? pointBoxDistance(local, s.coreHalfExtents())
                              : test::referenceSignedDistance({local}, s.coreHull().vertices());
    return toCore - s.convexRadius();
  };
  EXPECT_NEAR(surfaceGap(a, pa, r.witnessA), 0.0, 1e-4) << what;
  EXPECT_NEAR(surfaceGap(b, pb, r.witnessB), 0.0, 1e-4) << what;
}

TEST(RoundedShapes, BoxPairsAreCoreDistanceMinusRadii) {
  std::mt19937 rng(101);
  int coresApart = 0, coresOverlap = 0;
  for (int t = 0; t < 2000; ++t) {
    const Shape a = randomRoundedBox(rng), b = randomRoundedBox(rng);
    const Pose pa = test::randomPose(rng, 0.15), pb = test::randomPose(rng, 0.15);
    CollisionOptions o;
    o.gjk.variant = kVariants[t % 4];
    const CollisionResult r = collide(a, pa, b, pb, pa.p - pb.p, o);
    expectRoundedAnswer(a, pa, b, pb, r, "trial " + std::to_string(t));
    (r.epaStatus ? coresOverlap : coresApart)++;
  }
  // Both regimes are covered, the rounded-contact one (cores apart, shapes overlapping) too.
  EXPECT_GT(coresApart, 300);
  EXPECT_GT(coresOverlap, 300);
}

TEST(RoundedShapes, CoresTouchingWithinTheToleranceKeepTheirGap) {
  // Cores closer than eps_col (1e-4 m) but apart: GJK calls them overlapping and EPA, finding
  // the origin just outside their difference, reports depth 0 with witnesses that keep the gap.
  // The distance is that gap minus the radii, so witnessA - witnessB = -distance n holds (it
  // was off by the gap before).
  const Shape a = Shape::box({0.1, 0.1, 0.1}).withConvexRadius(0.004);
  const Shape b = Shape::box({0.05, 0.05, 0.05}).withConvexRadius(0.003);
  std::mt19937 rng(105);
  int touching = 0;
  for (int t = 0; t < 400; ++t) {
    const double gap = std::uniform_real_distribution<double>(1e-6, 9e-5)(rng);
    const Vector3d slide = 0.04 * test::randomVector(rng, -1.0, 1.0);
    const Pose pa{Eigen::Quaterniond::Identity(), Vector3d::Zero()};
    // B's core face gap above A's core face (cores: 0.096 and 0.047 half heights).
    const Pose pb{Eigen::Quaterniond::Identity(),
                  Vector3d(slide.x(), slide.y(), 0.096 + 0.047 + gap)};
    CollisionOptions o;
    o.gjk.variant = kVariants[t % 4];
    const CollisionResult r = collide(a, pa, b, pb, pa.p - pb.p, o);
    const std::string what = "trial " + std::to_string(t);
    expectRoundedAnswer(a, pa, b, pb, r, what);
    EXPECT_NEAR(r.distance, gap - 0.007, 1e-9) << what;
    if (r.epaStatus) ++touching;
  }
  EXPECT_GT(touching, 0);  // the case this test is about came up
}

TEST(RoundedShapes, ShallowOverlapsOfRoundedBoxesNeedNoEpa) {
  // Boxes pressed together by less than the two radii: every answer is a GJK distance between
  // the cores, from deep inside the rounding to just apart.
  std::mt19937 rng(102);
  int shallow = 0;
  for (int t = 0; t < 600; ++t) {
    const Shape a = Shape::box(test::randomVector(rng, 0.03, 0.2)).withConvexRadius(0.004);
    const Shape b = Shape::box(test::randomVector(rng, 0.03, 0.2)).withConvexRadius(0.003);
    // Move B along a random direction until the rounded shapes are at the drawn signed
    // distance: the cores' distance is then known, and every contact type (face, edge, corner)
    // comes up.
    const Pose pa = test::randomPose(rng, 0.1);
    const Eigen::Quaterniond qb = test::randomRotation(rng);
    const Vector3d axis = test::randomUnitVector(rng);
    const double target = std::uniform_real_distribution<double>(-0.0065, 0.002)(rng);
    double lo = 0.0, hi = 1.0;  // bisection on the offset along `axis`, on the core reference
    const auto coreDistance = [&](double s) {
      return test::referenceSignedDistance(
          test::transformed(coreVertices(a), pa),
          test::transformed(coreVertices(b), Pose{qb, pa.p + s * axis}));
    };
    for (int i = 0; i < 40; ++i) {
      const double mid = 0.5 * (lo + hi);
      (coreDistance(mid) - 0.007 < target ? lo : hi) = mid;
    }
    const Pose pb{qb, pa.p + 0.5 * (lo + hi) * axis};
    CollisionOptions o;
    o.gjk.variant = kVariants[t % 4];
    const CollisionResult r = collide(a, pa, b, pb, pa.p - pb.p, o);
    expectRoundedAnswer(a, pa, b, pb, r, "trial " + std::to_string(t));
    EXPECT_FALSE(r.epaStatus.has_value()) << "trial " << t;
    if (r.distance < 0.0) ++shallow;
  }
  EXPECT_GT(shallow, 300);
}

TEST(RoundedShapes, BoxOnRoundedGroundMatchesTheLowestCoreCorner) {
  // The ground's top face is flat where the box meets it: the distance is the height of the
  // box's lowest core corner minus the box's radius.
  const Shape ground = Shape::box({5.0, 5.0, 0.5}).withConvexRadius(0.002);
  const Pose groundPose = Pose::translation({0.0, 0.0, -0.5});
  std::mt19937 rng(103);
  for (int t = 0; t < 2000; ++t) {
    const Shape box = randomRoundedBox(rng);
    const Eigen::Quaterniond q = test::randomRotation(rng);
    const Eigen::Matrix3d rotation = q.toRotationMatrix();
    const Vector3d reach = rotation.row(2).cwiseAbs().transpose();
    const double lowest = reach.dot(box.coreHalfExtents()) + box.convexRadius();
    const double z = lowest + std::uniform_real_distribution<double>(-0.02, 0.01)(rng);
    const Pose pose{q, Vector3d(test::randomVector(rng, -1.0, 1.0).x(), 0.3, z)};
    CollisionOptions o;
    o.gjk.variant = kVariants[t % 4];
    const CollisionResult r = collide(ground, groundPose, box, pose, groundPose.p - pose.p, o);
    ASSERT_TRUE(r.ok()) << "trial " << t;
    const double expected = z - lowest;
    const double core = expected + box.convexRadius() + ground.convexRadius();
    EXPECT_NEAR(r.distance, expected, distanceTolerance(core)) << "trial " << t;
    EXPECT_LT((r.normal - Vector3d::UnitZ()).norm(), 1e-3) << "trial " << t;
  }
}

TEST(RoundedShapes, BoxAgainstSphereIsPointToCoreDistance) {
  std::mt19937 rng(104);
  int inside = 0;
  for (int t = 0; t < 3000; ++t) {
    const Shape box = randomRoundedBox(rng);
    const double radius = std::uniform_real_distribution<double>(0.005, 0.1)(rng);
    const Shape sphere = Shape::sphere(radius);
    const Pose pb = test::randomPose(rng, 0.5);
    const Vector3d local = test::randomVector(rng, -0.35, 0.35);
    const Pose ps = Pose::translation(pb.apply(local));
    const double toCore = pointBoxDistance(local, box.coreHalfExtents());
    const double expected = toCore - box.convexRadius() - radius;
    CollisionOptions o;
    o.gjk.variant = kVariants[t % 4];
    const CollisionResult r = collide(box, pb, sphere, ps, pb.p - ps.p, o);
    ASSERT_TRUE(r.ok()) << "trial " << t;
    EXPECT_NEAR(r.distance, expected, distanceTolerance(toCore)) << "trial " << t;
    if (toCore < 0.0) ++inside;
  }
  EXPECT_GT(inside, 50);
}

TEST(RoundedShapes, RandomRoundedHullsAreCoreDistanceMinusRadii) {
  std::mt19937 rng(105);
  std::uniform_real_distribution<double> fraction(0.0, 1.0);
  for (int t = 0; t < 600; ++t) {
    auto hullA = std::make_shared<const ConvexHull>(
        ConvexHull::build(test::randomCloud(rng, 6 + t % 12, 0.15)));
    auto hullB = std::make_shared<const ConvexHull>(
        ConvexHull::build(test::randomCloud(rng, 6 + (t / 2) % 14, 0.1)));
    const Shape a = Shape::convexHull(hullA).withConvexRadius(fraction(rng) * 0.01);
    const Shape b = Shape::convexHull(hullB).withConvexRadius(fraction(rng) * 0.01);
    const Pose pa = test::randomPose(rng, 0.12), pb = test::randomPose(rng, 0.12);
    CollisionOptions o;
    o.gjk.variant = kVariants[t % 4];
    const CollisionResult r = collide(a, pa, b, pb, pa.p - pb.p, o);
    expectRoundedAnswer(a, pa, b, pb, r, "trial " + std::to_string(t));
  }
}

TEST(RoundedShapes, BooleanModeAgreesWithTheDistance) {
  std::mt19937 rng(106);
  const double epsCol = std::sqrt(defaults::kGjkTolerance);
  for (int t = 0; t < 2000; ++t) {
    const Shape a = randomRoundedBox(rng), b = randomRoundedBox(rng);
    const Pose pa = test::randomPose(rng, 0.2), pb = test::randomPose(rng, 0.2);
    const double expected = test::referenceSignedDistance(test::transformed(coreVertices(a), pa),
                                                          test::transformed(coreVertices(b), pb)) -
                            a.convexRadius() - b.convexRadius();
    if (std::abs(expected - epsCol) < 1e-6) continue;  // too close to the threshold to call
    for (GjkVariant v : kVariants) {
      GjkOptions o;
      o.variant = v;
      o.mode = GjkMode::Boolean;
      const GjkResult g = gjk(a, pa, b, pb, pa.p - pb.p, o);
      ASSERT_TRUE(g.status == GjkStatus::Separated || g.status == GjkStatus::Intersecting);
      EXPECT_EQ(g.collide(), expected <= epsCol) << "trial " << t << " " << toString(v);
    }
  }
}

// Face-face contacts: a rounded shape's faces are the sharp shape's, so the answers agree. A is
// below B, the face between them of world normal `up`.
void expectSameFaceContact(const Shape& sharpA, const Shape& roundA, const Pose& pa,
                           const Shape& sharpB, const Shape& roundB, const Pose& pb,
                           const Vector3d& up, const std::string& what) {
  CollisionOptions o;
  const CollisionResult sharp = collide(sharpA, pa, sharpB, pb, pa.p - pb.p, o);
  const CollisionResult round = collide(roundA, pa, roundB, pb, pa.p - pb.p, o);
  ASSERT_TRUE(sharp.ok() && round.ok()) << what;
  // The sharp pair's answer comes from EPA or from GJK on touching shapes (to eps_col), the
  // rounded pair's from GJK on cores a few millimetres apart.
  const double roundCore = round.distance + roundA.convexRadius() + roundB.convexRadius();
  // Sharp shapes closer than eps_col count as touching (distance 0).
  const double sharpTolerance = std::abs(sharp.distance) < kCollisionTolerance ? kCollisionTolerance
                                : sharp.distance > 0.0 ? gapTolerance(sharp.distance)
                                                       : 1e-5;
  const double tolerance = sharpTolerance + distanceTolerance(roundCore);
  EXPECT_NEAR(round.distance, sharp.distance, tolerance) << what;
  // The separation's direction, to GJK's accuracy (observed ~1e-6; the duality gap bounds the
  // iterate's error by sqrt(eps), over cores a few millimetres apart).
  EXPECT_LT((round.normal - up).norm(), 1e-5) << what;
  if (std::abs(sharp.distance - kCollisionTolerance) > tolerance) {
    EXPECT_EQ(round.collide, sharp.collide) << what;
  }
  EXPECT_FALSE(round.epaStatus.has_value()) << what;
}

TEST(RoundedShapes, FaceFaceContactsAgreeWithTheSharpShapes) {
  std::mt19937 rng(107);
  const Shape table = Shape::box({0.4, 0.4, 0.05});
  const Shape roundTable = table.withConvexRadius(0.002);
  for (int t = 0; t < 1000; ++t) {
    const Vector3d h = test::randomVector(rng, 0.02, 0.1);
    const Shape box = Shape::box(h);
    const Shape roundBox = box.withConvexRadius(std::min(
        0.002, std::uniform_real_distribution<double>(0.0, 1.0)(rng) * box.maxConvexRadius()));
    // B on A's top face, its bottom face parallel to it, anywhere on the table, from 1 mm apart
    // to 1 mm pressed in.
    const double yaw =
        std::uniform_real_distribution<double>(-std::numbers::pi, std::numbers::pi)(rng);
    const double gap = std::uniform_real_distribution<double>(-0.001, 0.001)(rng);
    const Pose pa = test::randomPose(rng, 0.3);
    const Pose onTable{Eigen::Quaterniond(Eigen::AngleAxisd(yaw, Vector3d::UnitZ())),
                       Vector3d(test::randomVector(rng, -0.2, 0.2).x(),
                                test::randomVector(rng, -0.2, 0.2).y(), 0.05 + h.z() + gap)};
    expectSameFaceContact(table, roundTable, pa, box, roundBox, pa * onTable,
                          pa.q * Vector3d::UnitZ(), "trial " + std::to_string(t));
  }
}

TEST(RoundedShapes, HullsOnTheirLargestFaceAgreeWithTheSharpHulls) {
  // Random hulls and YCB hulls set on a table by their largest face.
  std::mt19937 rng(108);
  std::vector<std::shared_ptr<const ConvexHull>> hulls;
  for (int i = 0; i < 40; ++i) {
    hulls.push_back(std::make_shared<const ConvexHull>(
        ConvexHull::build(test::randomCloud(rng, 10 + 5 * i, 0.1))));
  }
  for (const char* name : {"003_cracker_box", "036_wood_block", "061_foam_brick"}) {
    hulls.push_back(std::make_shared<const ConvexHull>(ConvexHull::build(test::ycbVertices(name))));
  }
  const Shape table = Shape::box({0.5, 0.5, 0.05});
  const Shape roundTable = table.withConvexRadius(0.002);
  int checked = 0;
  for (const auto& hull : hulls) {
    int largest = 0;
    double largestArea = 0.0;
    for (int f = 0; f < hull->numFaces(); ++f) {
      const auto face = hull->face(f);
      Vector3d area = Vector3d::Zero();
      for (std::size_t i = 1; i + 1 < face.size(); ++i) {
        area += (hull->vertices()[face[i]] - hull->vertices()[face[0]])
                    .cross(hull->vertices()[face[i + 1]] - hull->vertices()[face[0]]);
      }
      if (area.norm() > largestArea) {
        largestArea = area.norm();
        largest = f;
      }
    }
    const Shape sharp = Shape::convexHull(hull);
    const Shape round = sharp.withConvexRadius(std::min(0.002, sharp.maxConvexRadius()));
    // The face must be wider than the rounding to keep a flat part: its plane touches the core.
    const Vector3d& n = hull->faceNormal(largest);
    int hint = -1;
    const double coreReach =
        n.dot(round.coreHull().vertices()[round.coreHull().supportVertex(n, hint)]);
    if (std::abs(coreReach - (hull->faceOffset(largest) - round.convexRadius())) > 1e-9) continue;
    for (int t = 0; t < 20; ++t) {
      // The face's outward normal turned to -z, the face at the drawn gap above the table.
      const Eigen::Quaterniond down =
          Eigen::AngleAxisd(
              std::uniform_real_distribution<double>(-std::numbers::pi, std::numbers::pi)(rng),
              Vector3d::UnitZ()) *
          Eigen::Quaterniond::FromTwoVectors(n, -Vector3d::UnitZ());
      const double gap = std::uniform_real_distribution<double>(-0.001, 0.001)(rng);
      const Vector3d centre = down * hull->centroid();
      const Pose onTable{
          down, Vector3d(-centre.x(), -centre.y(), 0.05 + hull->faceOffset(largest) + gap)};
      const Pose pa = test::randomPose(rng, 0.3);
      expectSameFaceContact(table, roundTable, pa, sharp, round, pa * onTable,
                            pa.q * Vector3d::UnitZ(),
                            "hull " + std::to_string(checked) + " trial " + std::to_string(t));
    }
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

}  // namespace
}  // namespace hb
