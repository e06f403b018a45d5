// The planar steps of the OBB fit, each against an independent answer: pseudo-angles against
// atan2, the angular sort against std::sort on atan2, the winding test on loops of known winding,
// the outline of sorted points against Andrew's monotone chain, tiny-edge removal against the
// polygon it was made from, and the minimum-area rectangle of random convex polygons against
// brute force over every edge direction and a fine sweep of angles, and of shapes with known
// answers.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "collision/min_area_rectangle.hpp"
#include "reference_hull_2d.hpp"

namespace hb {
namespace {

using Eigen::Vector2d;

constexpr double kPi = std::numbers::pi;

// Polar angle in [0, 2 pi).
double polarAngle(const Vector2d& d) {
  const double a = std::atan2(d.y(), d.x());
  return a < 0.0 ? a + 2.0 * kPi : a;
}

std::vector<ShadowPoint> shadowPoints(const std::vector<Vector2d>& points) {
  std::vector<ShadowPoint> result;
  for (const Vector2d& p : points) result.push_back({p, pseudoAngle(p)});
  return result;
}

// The points in the order the sort must produce: by polar angle, the nearer first on ties.
std::vector<Vector2d> sortedByPolarAngle(std::vector<Vector2d> points) {
  std::sort(points.begin(), points.end(), [](const Vector2d& a, const Vector2d& b) {
    const double angleA = polarAngle(a), angleB = polarAngle(b);
    return angleA < angleB || (angleA == angleB && a.squaredNorm() < b.squaredNorm());
  });
  return points;
}

using test::cross2;
using test::monotoneChain;

// Area of the tightest rectangle around the points with a side along the unit direction e.
double rectangleArea(const std::vector<Vector2d>& points, const Vector2d& e) {
  const Vector2d p(-e.y(), e.x());
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  double low = lo, high = -lo;
  for (const Vector2d& q : points) {
    lo = std::min(lo, e.dot(q));
    hi = std::max(hi, e.dot(q));
    low = std::min(low, p.dot(q));
    high = std::max(high, p.dot(q));
  }
  return (hi - lo) * (high - low);
}

Vector2d rotated(const Vector2d& v, double angle) {
  return {std::cos(angle) * v.x() - std::sin(angle) * v.y(),
          std::sin(angle) * v.x() + std::cos(angle) * v.y()};
}

std::vector<Vector2d> regularPolygon(int n, double radius, double phase = 0.0) {
  std::vector<Vector2d> polygon;
  for (int k = 0; k < n; ++k) {
    const double angle = phase + 2.0 * kPi * k / n;
    polygon.emplace_back(radius * std::cos(angle), radius * std::sin(angle));
  }
  return polygon;
}

// Seeded random points of one of three kinds: uniform in a rotated rectangle, on a rotated
// ellipse (every point a hull vertex), Gaussian. Aspect ratios up to 5.
std::vector<Vector2d> randomPoints(std::mt19937& rng, int kind, int n) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  const Vector2d scale(1.0, 0.2 + 0.4 * (unit(rng) + 1.0));
  const double turn = kPi * unit(rng);
  std::vector<Vector2d> points;
  for (int i = 0; i < n; ++i) {
    Vector2d p;
    if (kind == 0) {
      p = Vector2d(unit(rng), unit(rng));
    } else if (kind == 1) {
      const double angle = kPi * unit(rng);
      p = Vector2d(std::cos(angle), std::sin(angle));
    } else {
      p = Vector2d(gauss(rng), gauss(rng));
    }
    points.push_back(rotated(p.cwiseProduct(scale), turn));
  }
  return points;
}

TEST(PseudoAngle, ExactOnAxesAndDiagonals) {
  EXPECT_EQ(pseudoAngle({1.0, 0.0}), 0.0);
  EXPECT_EQ(pseudoAngle({1.0, 1.0}), 0.5);
  EXPECT_EQ(pseudoAngle({0.0, 2.0}), 1.0);
  EXPECT_EQ(pseudoAngle({-3.0, 3.0}), 1.5);
  EXPECT_EQ(pseudoAngle({-1.0, 0.0}), 2.0);
  EXPECT_EQ(pseudoAngle({-1.0, -1.0}), 2.5);
  EXPECT_EQ(pseudoAngle({0.0, -0.5}), 3.0);
  EXPECT_EQ(pseudoAngle({1.0, -1.0}), 3.5);
}

TEST(PseudoAngle, IncreasesWithThePolarAngleAndAQuarterTurnAddsOne) {
  std::mt19937 rng(11);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::vector<Vector2d> directions;
  for (int i = 0; i < 4000; ++i) directions.emplace_back(gauss(rng), gauss(rng));
  directions = sortedByPolarAngle(directions);
  for (std::size_t i = 0; i < directions.size(); ++i) {
    const Vector2d& d = directions[i];
    const double angle = pseudoAngle(d);
    EXPECT_GE(angle, 0.0);
    EXPECT_LT(angle, 4.0);
    if (i > 0) {
      EXPECT_LE(pseudoAngle(directions[i - 1]), angle) << i;
    }
    // Turned by 90 degrees: one more, modulo 4.
    const double turned = pseudoAngle(Vector2d(-d.y(), d.x()));
    EXPECT_NEAR(std::fmod(turned - angle + 4.0, 4.0), 1.0, 1e-14) << d.transpose();
  }
}

TEST(SortByAngle, MatchesASortOnPolarAngleWithTiesNearestFirst) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Vector2d> points;
  for (int i = 0; i < 500; ++i) points.emplace_back(unit(rng), unit(rng));
  // Exact ties: the same direction at several distances (powers of two keep the ratio exact).
  for (int i = 0; i < 20; ++i) {
    const Vector2d d(unit(rng), unit(rng));
    for (double s : {1.0, 0.25, 2.0, 0.5}) points.push_back(s * d);
  }
  for (const Vector2d& axis : {Vector2d(1, 0), Vector2d(0, 1), Vector2d(-1, 0), Vector2d(0, -1)}) {
    points.push_back(axis);
    points.push_back(0.5 * axis);
  }
  const std::vector<Vector2d> expected = sortedByPolarAngle(points);

  const auto expectSorted = [&](std::vector<Vector2d> input, const char* what) {
    std::vector<ShadowPoint> shadow = shadowPoints(input);
    sortByAngle(shadow);
    ASSERT_EQ(shadow.size(), expected.size()) << what;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(shadow[i].p, expected[i]) << what << ", position " << i;
      ASSERT_EQ(shadow[i].angle, pseudoAngle(expected[i])) << what << ", position " << i;
    }
  };
  // Shuffled, and reversed: far from sorted.
  std::vector<Vector2d> shuffled = points;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  expectSorted(shuffled, "shuffled");
  expectSorted(std::vector<Vector2d>(expected.rbegin(), expected.rend()), "reversed");
  // Sorted but starting anywhere, as a traced silhouette arrives, with a few neighbours swapped.
  for (int start : {0, 1, 137, static_cast<int>(expected.size()) - 1}) {
    std::vector<Vector2d> loop = expected;
    std::rotate(loop.begin(), loop.begin() + start, loop.end());
    expectSorted(loop, "rotated");
    for (std::size_t i = 5; i + 1 < loop.size(); i += 50) std::swap(loop[i], loop[i + 1]);
    expectSorted(loop, "rotated with neighbours swapped");
  }

  std::vector<ShadowPoint> empty;
  sortByAngle(empty);
  EXPECT_TRUE(empty.empty());
}

TEST(WindsOnceAround, TellsLoopsOfKnownWinding) {
  const std::vector<Vector2d> hexagon = regularPolygon(6, 1.0, 0.3);
  EXPECT_TRUE(windsOnceAround(shadowPoints(hexagon)));
  // Clockwise: minus one turn.
  EXPECT_FALSE(windsOnceAround(shadowPoints({hexagon.rbegin(), hexagon.rend()})));
  // Not around the origin: no turn.
  std::vector<Vector2d> shifted = hexagon;
  for (Vector2d& p : shifted) p += Vector2d(3.0, 0.5);
  EXPECT_FALSE(windsOnceAround(shadowPoints(shifted)));
  // A pentagram: the pentagon's vertices two apart, two turns.
  const std::vector<Vector2d> pentagon = regularPolygon(5, 1.0);
  EXPECT_FALSE(windsOnceAround(
      shadowPoints({pentagon[0], pentagon[2], pentagon[4], pentagon[1], pentagon[3]})));
  // Not convex but star-shaped around the origin: one turn.
  std::vector<Vector2d> star = regularPolygon(10, 1.0);
  for (std::size_t i = 1; i < star.size(); i += 2) star[i] *= 0.3;
  EXPECT_TRUE(windsOnceAround(shadowPoints(star)));
  EXPECT_FALSE(windsOnceAround({}));
}

TEST(ConvexHullOfSorted, MatchesMonotoneChain) {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> lattice(-3, 3);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<Vector2d> points;
    if (trial % 3 == 2) {
      // Lattice points, drawn with repeats: collinear and coincident points. The corners keep the
      // origin (left out: it has no angle) strictly inside.
      for (const Vector2d& c : {Vector2d(3, 3), Vector2d(-3, 3), Vector2d(-3, -3), Vector2d(3, -3)})
        points.push_back(c);
      for (int i = 0; i < 40; ++i) {
        const Vector2d p(lattice(rng), lattice(rng));
        if (p != Vector2d::Zero()) points.push_back(p);
      }
    } else {
      points = randomPoints(rng, trial % 3, 3 + trial * 10);
      for (Vector2d& p : points) p *= 2.0;
      for (const Vector2d& c : regularPolygon(3, 0.1, trial)) points.push_back(c);
    }
    std::vector<Vector2d> expected = monotoneChain(points);
    ASSERT_GE(expected.size(), 3u);
    for (std::size_t i = 0; i < expected.size(); ++i) {  // the precondition: origin inside
      ASSERT_GT(cross2(expected[i], expected[(i + 1) % expected.size()], Vector2d::Zero()), 0.0);
    }
    // The outline starts at the rightmost point, the topmost of those.
    std::rotate(expected.begin(),
                std::max_element(expected.begin(), expected.end(),
                                 [](const Vector2d& a, const Vector2d& b) {
                                   return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
                                 }),
                expected.end());

    std::vector<ShadowPoint> sorted = shadowPoints(points);
    sortByAngle(sorted);
    std::vector<Vector2d> outline{Vector2d(9, 9)};  // overwritten
    convexHullOfSorted(sorted, outline);
    ASSERT_EQ(outline.size(), expected.size()) << "trial " << trial;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(outline[i], expected[i]) << "trial " << trial << ", vertex " << i;
    }
  }
  std::vector<Vector2d> outline{Vector2d(1, 2)};
  convexHullOfSorted({}, outline);
  EXPECT_TRUE(outline.empty());
}

TEST(RemoveTinyEdges, DropsNearDuplicatesOnly) {
  std::mt19937 rng(14);
  const double tolerance = 1e-9;
  const std::vector<Vector2d> polygon = regularPolygon(12, 1.0, 0.1);
  // After some vertices, copies moved by less than the tolerance, and one closing the loop.
  std::vector<Vector2d> noisy;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    noisy.push_back(polygon[i]);
    for (std::size_t k = 0; k < i % 3; ++k) {
      noisy.push_back(polygon[i] + 0.5 * tolerance * rotated(Vector2d::UnitX(), 0.7 * k + i));
    }
  }
  noisy.push_back(polygon[0] + Vector2d(0.0, 0.9 * tolerance));
  removeTinyEdges(noisy, tolerance);
  EXPECT_EQ(noisy, polygon);

  // An edge just over the tolerance stays.
  std::vector<Vector2d> triangle{{0, 0}, {2e-9, 0}, {0, 1}};
  removeTinyEdges(triangle, tolerance);
  EXPECT_EQ(triangle.size(), 3u);
  // A cluster within the tolerance collapses to its first point.
  std::vector<Vector2d> cluster{{1, 1}, {1 + 3e-10, 1}, {1, 1 + 3e-10}, {1 - 3e-10, 1}};
  removeTinyEdges(cluster, tolerance);
  EXPECT_EQ(cluster, std::vector<Vector2d>{Vector2d(1, 1)});
  std::vector<Vector2d> empty;
  removeTinyEdges(empty, tolerance);
  EXPECT_TRUE(empty.empty());
}

TEST(MinimumAreaRectangle, KnownShapes) {
  std::vector<double> angles;
  // A rotated 3 x 0.5 rectangle: its own area, a side along its sides.
  for (double turn : {0.0, 0.3, 1.2, -2.0}) {
    std::vector<Vector2d> corners;
    for (const Vector2d& c :
         {Vector2d(1.5, -0.25), Vector2d(1.5, 0.25), Vector2d(-1.5, 0.25), Vector2d(-1.5, -0.25)}) {
      corners.push_back(rotated(c, turn) + Vector2d(0.7, -0.2));
    }
    const Rectangle r = minimumAreaRectangle(corners, angles);
    EXPECT_NEAR(r.area, 1.5, 1e-14);
    const Vector2d side = rotated(Vector2d::UnitX(), turn);
    EXPECT_NEAR(std::abs(r.axis.dot(side)) * std::abs(r.axis.dot(Vector2d(-side.y(), side.x()))),
                0.0, 1e-14);
  }
  // Equilateral triangle of side 1: side times height.
  EXPECT_NEAR(minimumAreaRectangle(regularPolygon(3, 1.0 / std::sqrt(3.0), 0.4), angles).area,
              std::sqrt(3.0) / 2.0, 1e-14);
  // Regular hexagon of side 1: 2 by sqrt(3) with a side on an edge.
  EXPECT_NEAR(minimumAreaRectangle(regularPolygon(6, 1.0, 0.2), angles).area, 2.0 * std::sqrt(3.0),
              1e-14);
  // Not a proper polygon: infinite area.
  EXPECT_EQ(minimumAreaRectangle({}, angles).area, std::numeric_limits<double>::infinity());
  EXPECT_EQ(minimumAreaRectangle({{0, 0}, {1, 0}}, angles).area,
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(minimumAreaRectangle({{0, 0}, {1, 0}, {1, 0}, {0, 1}}, angles).area,
            std::numeric_limits<double>::infinity());
}

TEST(MinimumAreaRectangle, RandomConvexPolygonsMatchBruteForce) {
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  constexpr int kSweepSteps = 1 << 15;  // over a quarter turn: 4.8e-5 radians apart
  std::vector<double> angles;
  int polygons = 0;
  for (int n : {3, 4, 5, 8, 20, 100, 1000}) {
    for (int kind = 0; kind < 3; ++kind) {
      for (int repeat = 0; repeat < 4; ++repeat) {
        std::vector<Vector2d> points = randomPoints(rng, kind, n);
        const Vector2d offset = 3.0 * Vector2d(unit(rng), unit(rng));
        for (Vector2d& p : points) p += offset;
        std::vector<Vector2d> polygon = monotoneChain(points);
        if (polygon.size() < 3) continue;
        // Any starting vertex.
        std::rotate(polygon.begin(), polygon.begin() + repeat % polygon.size(), polygon.end());

        const Rectangle r = minimumAreaRectangle(polygon, angles);
        double overEdges = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < polygon.size(); ++i) {
          const Vector2d e = (polygon[(i + 1) % polygon.size()] - polygon[i]).normalized();
          overEdges = std::min(overEdges, rectangleArea(polygon, e));
        }
        double overSweep = std::numeric_limits<double>::infinity();
        for (int k = 0; k < kSweepSteps; ++k) {
          const double angle = 0.5 * kPi * k / kSweepSteps;
          overSweep =
              std::min(overSweep, rectangleArea(polygon, {std::cos(angle), std::sin(angle)}));
        }
        const std::string what = "kind " + std::to_string(kind) + ", " + std::to_string(n) +
                                 " points, repeat " + std::to_string(repeat);
        EXPECT_NEAR(r.axis.norm(), 1.0, 1e-14) << what;
        EXPECT_NEAR(r.area, overEdges, 1e-12 * overEdges) << what;
        EXPECT_NEAR(rectangleArea(polygon, r.axis), r.area, 1e-12 * r.area) << what;
        // No direction does better, and the sweep comes close.
        EXPECT_GE(overSweep, r.area * (1.0 - 1e-12)) << what;
        EXPECT_LE(overSweep, r.area * (1.0 + 1e-3)) << what;
        ++polygons;
      }
    }
  }
  EXPECT_GE(polygons, 80);
}

}  // namespace
}  // namespace hb
