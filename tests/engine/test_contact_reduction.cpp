// Contact reduction per region: a compound's many points on the ground become four that span
// most of the area the best four would (brute force over every choice) and keep the deepest
// (or one within the margin of it); regions of other normals, speculative points and other body
// pairs keep their own.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <random>
#include <vector>

#include "engine/contact_reduction.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

ContactConstraint contactAt(int a, int b, const Vector3d& point, const Vector3d& normal,
                            double depth) {
  ContactConstraint c;
  c.bodyA = a;
  c.bodyB = b;
  c.point = point;
  c.normal = normal.normalized();
  c.depth = depth;
  return c;
}

// Area of the convex hull of up to four points in the plane z = const (x, y).
double quadArea(std::vector<Eigen::Vector2d> p) {
  if (p.size() < 3) return 0.0;
  std::sort(p.begin(), p.end(), [](const auto& u, const auto& v) {
    return u.x() < v.x() || (u.x() == v.x() && u.y() < v.y());
  });
  // Monotone chain.
  std::vector<Eigen::Vector2d> hull;
  const auto cross = [](const Eigen::Vector2d& o, const Eigen::Vector2d& a,
                        const Eigen::Vector2d& b) {
    return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
  };
  for (int pass = 0; pass < 2; ++pass) {
    const size_t start = hull.size();
    for (const auto& q : p) {
      while (hull.size() >= start + 2 && cross(hull[hull.size() - 2], hull.back(), q) <= 0) {
        hull.pop_back();
      }
      hull.push_back(q);
    }
    hull.pop_back();
    std::reverse(p.begin(), p.end());
  }
  double area = 0.0;
  for (size_t i = 0; i < hull.size(); ++i) {
    const auto& u = hull[i];
    const auto& v = hull[(i + 1) % hull.size()];
    area += u.x() * v.y() - u.y() * v.x();
  }
  return 0.5 * std::abs(area);
}

TEST(ContactReduction, ManyPointsOfOneRegionBecomeFourSpanningIt) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.1, 0.1), depth(0.0, 0.0004), tilt(-0.02, 0.02);
  double worst = 1.0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<ContactConstraint> contacts;
    const int n = 8 + trial % 20;
    for (int i = 0; i < n; ++i) {
      contacts.push_back(
          contactAt(0, 3, {u(rng), u(rng), 0.0}, {tilt(rng), tilt(rng), 1.0}, depth(rng)));
    }
    std::vector<std::uint8_t> keep;
    reduceContactRegions(contacts, keep);
    std::vector<Eigen::Vector2d> kept, all;
    double deepest = 0.0, deepestKept = 0.0;
    for (int i = 0; i < n; ++i) {
      all.push_back(contacts[i].point.head<2>());
      deepest = std::max(deepest, contacts[i].depth);
      if (keep[i]) {
        kept.push_back(contacts[i].point.head<2>());
        deepestKept = std::max(deepestKept, contacts[i].depth);
      }
    }
    ASSERT_EQ(kept.size(), 4u) << trial;
    // Resting depths, within the margin of each other: the outline alone.
    EXPECT_GE(deepestKept, deepest - ContactReductionOptions{}.depthMargin) << trial;
    // Against the best four by brute force.
    double bestArea = 0.0;
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        for (int c = b + 1; c < n; ++c) {
          for (int d = c + 1; d < n; ++d) {
            bestArea = std::max(bestArea, quadArea({all[a], all[b], all[c], all[d]}));
          }
        }
      }
    }
    EXPECT_GE(quadArea(kept), 0.75 * bestArea) << trial;
    worst = std::min(worst, quadArea(kept) / bestArea);
  }
  std::printf("smallest share of the best four's area: %.2f\n", worst);
}

TEST(ContactReduction, AClearlyDeeperPointIsKept) {
  std::vector<ContactConstraint> contacts;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      contacts.push_back(contactAt(0, 1, {0.01 * i, 0.01 * j, 0}, {0, 0, 1}, 0.0001));
    }
  }
  contacts[12].depth = 0.003;  // the middle one, which the outline leaves out
  std::vector<std::uint8_t> keep;
  reduceContactRegions(contacts, keep);
  EXPECT_TRUE(keep[12]);
  EXPECT_EQ(std::count(keep.begin(), keep.end(), 1), 4);
}

TEST(ContactReduction, OtherNormalsAndOtherPairsKeepTheirPoints) {
  std::vector<ContactConstraint> contacts;
  // Body pair (0, 1): six points on the floor, three on a wall (normal 90 degrees away).
  for (int i = 0; i < 6; ++i) contacts.push_back(contactAt(0, 1, {0.01 * i, 0, 0}, {0, 0, 1}, 0));
  for (int i = 0; i < 3; ++i) contacts.push_back(contactAt(0, 1, {0, 0.01 * i, 0}, {1, 0, 0}, 0));
  // Five speculative points (5 mm apart) under the floor's: a region of their own.
  for (int i = 0; i < 5; ++i)
    contacts.push_back(contactAt(0, 1, {0.01 * i, 0.01, 0}, {0, 0, 1}, -0.005));
  // Body pair (1, 2): four points, fewer than a region keeps.
  for (int i = 0; i < 4; ++i) contacts.push_back(contactAt(1, 2, {0, 0, 0.01 * i}, {0, 0, 1}, 0));
  std::vector<std::uint8_t> keep;
  reduceContactRegions(contacts, keep);
  int floor = 0, wall = 0, speculative = 0, other = 0;
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (!keep[i]) continue;
    (i < 6 ? floor : i < 9 ? wall : i < 14 ? speculative : other) += 1;
  }
  EXPECT_EQ(speculative, 2);
  // Six collinear floor points: both ends.
  EXPECT_EQ(floor, 2);
  EXPECT_EQ(wall, 3);
  EXPECT_EQ(other, 4);
  EXPECT_TRUE(keep[0] && keep[5]);
}

}  // namespace
}  // namespace hb
