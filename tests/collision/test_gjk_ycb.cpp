// The GJK variants on real YCB convex hulls: at least 1000 random problems from deep overlap to
// far apart, all variants agree on status and distance, Boolean mode agrees with the distance,
// and witness points lie on the hull surfaces.

#include <gtest/gtest.h>

#include <string>

#include "collision/collide.hpp"
#include "random_geometry.hpp"
#include "ycb_vertices.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

std::vector<Shape> ycbHulls() {
  std::vector<Shape> shapes;
  for (const char* name : {"003_cracker_box", "005_tomato_soup_can", "011_banana", "025_mug",
                           "037_scissors", "055_baseball"}) {
    auto points = test::ycbVertices(name);
    EXPECT_GT(points.size(), 1000u) << name;
    shapes.push_back(
        Shape::convexHull(std::make_shared<const ConvexHull>(ConvexHull::build(points))));
  }
  return shapes;
}

double hullPlaneResidual(const ConvexHull& hull, const Vector3d& local) {
  double worst = -1e300;
  for (int f = 0; f < hull.numFaces(); ++f)
    worst = std::max(worst, hull.faceNormal(f).dot(local) - hull.faceOffset(f));
  return worst;  // 0 on the surface, < 0 inside
}

TEST(GjkYcb, VariantsAgreeOnThousandProblems) {
  const std::vector<Shape> shapes = ycbHulls();
  ASSERT_EQ(shapes.size(), 6u);
  std::mt19937 rng(21);
  std::uniform_int_distribution<int> pick(0, 5);
  std::uniform_real_distribution<double> reach(0.0, 0.35);
  const GjkVariant variants[] = {GjkVariant::Vanilla, GjkVariant::Polyak, GjkVariant::Nesterov,
                                 GjkVariant::Auto};
  int separated = 0, intersecting = 0;
  for (int t = 0; t < 1000; ++t) {
    const Shape& a = shapes[pick(rng)];
    const Shape& b = shapes[pick(rng)];
    // Hulls keep the scan frame (origin near the turntable), so poses are moved by the hull's
    // interior point to put the objects' middles near the pose position.
    const Pose pa{test::randomRotation(rng), Vector3d::Zero()};
    const Pose pa0 = pa * Pose::translation(-a.hull().interiorPoint());
    const Pose pb{test::randomRotation(rng), test::randomUnitVector(rng) * reach(rng)};
    const Pose pb0 = pb * Pose::translation(-b.hull().interiorPoint());
    const Vector3d guess = pa.p - pb.p;
    GjkOptions o;
    const GjkResult ref = gjk(a, pa0, b, pb0, guess, o);
    ASSERT_TRUE(ref.status == GjkStatus::Separated || ref.status == GjkStatus::Intersecting)
        << "trial " << t;
    (ref.collide() ? intersecting : separated)++;
    if (!ref.collide()) {
      // Witnesses on the surfaces.
      // Witnesses are convex combinations of hull vertices (never outside) and lie on the
      // surface to the accuracy the duality gap guarantees, sqrt(eps).
      for (const double residual : {hullPlaneResidual(a.hull(), pa0.applyInverse(ref.witnessA)),
                                    hullPlaneResidual(b.hull(), pb0.applyInverse(ref.witnessB))}) {
        EXPECT_LE(residual, 1e-9);
        EXPECT_GE(residual, -std::sqrt(defaults::kGjkTolerance));
      }
      EXPECT_NEAR((ref.witnessA - ref.witnessB - ref.separation).norm(), 0.0, 1e-12);
    }
    for (GjkVariant v : variants) {
      o.variant = v;
      o.mode = GjkMode::Distance;
      const GjkResult r = gjk(a, pa0, b, pb0, guess, o);
      ASSERT_EQ(r.status, ref.status) << "trial " << t << " " << toString(v);
      EXPECT_NEAR(r.distance, ref.distance, std::sqrt(defaults::kGjkTolerance));
      o.mode = GjkMode::Boolean;
      const GjkResult boolean = gjk(a, pa0, b, pb0, guess, o);
      EXPECT_EQ(boolean.collide(), ref.collide()) << "trial " << t << " " << toString(v);
    }
  }
  // The sample covers both outcomes in earnest.
  EXPECT_GT(separated, 200);
  EXPECT_GT(intersecting, 200);
}

// Auto follows one of the named variants exactly: on hulls whose warm-start axis shows them apart
// by up to a quarter of the centre distance, Nesterov with the late schedule (the fastest there,
// docs/gjk-benchmark.md); on shallow overlaps along it, Nesterov with the paper's. Iteration
// counts and distances equal those of the variant it names.
TEST(GjkYcb, AutoRunsTheVariantAndScheduleItPicks) {
  const std::vector<Shape> shapes = ycbHulls();
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> pick(0, 5);
  std::uniform_real_distribution<double> reach(0.0, 0.35);
  int late = 0, paper = 0;
  for (int t = 0; t < 1000; ++t) {
    const Shape& a = shapes[pick(rng)];
    const Shape& b = shapes[pick(rng)];
    const Pose pa = Pose{test::randomRotation(rng), Vector3d::Zero()} *
                    Pose::translation(-a.hull().interiorPoint());
    const Pose pb = Pose{test::randomRotation(rng), test::randomUnitVector(rng) * reach(rng)} *
                    Pose::translation(-b.hull().interiorPoint());
    const Vector3d guess = pa.apply(a.hull().interiorPoint()) - pb.apply(b.hull().interiorPoint());
    for (const GjkMode mode : {GjkMode::Distance, GjkMode::Boolean}) {
      GjkOptions o;
      o.mode = mode;
      o.variant = GjkVariant::Auto;
      const GjkResult automatic = gjk(a, pa, b, pb, guess, o);
      if (automatic.variantUsed != GjkVariant::Nesterov) continue;
      // The side of the warm-start axis Auto saw: <x_0, s_0> with s_0 the first support.
      const MinkowskiDifference d(a, pa, b, pb);
      SupportHints hints;
      const Vector3d x0 = pa.q.conjugate() * guess;
      const bool apart = x0.dot(d.supportCore(-x0, hints).w) >= 0.0;
      o.variant = GjkVariant::Nesterov;
      o.schedule = apart ? MomentumSchedule::Late : MomentumSchedule::Paper;
      const GjkResult named = gjk(a, pa, b, pb, guess, o);
      EXPECT_EQ(automatic.iterations, named.iterations) << "trial " << t;
      EXPECT_EQ(automatic.distance, named.distance) << "trial " << t;
      (apart ? late : paper)++;
    }
  }
  EXPECT_GT(late, 50);
  EXPECT_GT(paper, 50);
}

}  // namespace
}  // namespace hb
