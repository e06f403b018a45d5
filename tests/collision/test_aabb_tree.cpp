// Static AABB tree: every query reports exactly the boxes a brute-force interval test finds, each
// once, on random sets with huge, tiny, flat and coincident boxes and queries that only touch.

#include "collision/aabb_tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "random_geometry.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

struct Boxes {
  std::vector<Vector3d> lo, hi;
  std::vector<int> ids;
};

// n boxes in a cube of side 10 m: mostly 1 mm to 1 m across, some 100 m wide (a ground), some
// flat or points, some repeated exactly. Ids are distinct but neither sorted nor contiguous.
Boxes randomBoxes(std::mt19937& rng, int n) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Boxes b;
  for (int i = 0; i < n; ++i) {
    if (i > 0 && u(rng) < 0.05) {
      b.lo.push_back(b.lo.back());
      b.hi.push_back(b.hi.back());
      continue;
    }
    const Vector3d centre = test::randomVector(rng, -5.0, 5.0);
    Vector3d half;
    for (int k = 0; k < 3; ++k) half[k] = test::logUniform(rng, 5e-4, 0.5);
    const double kind = u(rng);
    if (kind < 0.05) {
      half = Vector3d(50.0, 50.0, 0.5);
    } else if (kind < 0.1) {
      half[i % 3] = 0.0;
    } else if (kind < 0.12) {
      half.setZero();
    }
    b.lo.push_back(centre - half);
    b.hi.push_back(centre + half);
  }
  b.ids.resize(n);
  std::iota(b.ids.begin(), b.ids.end(), 0);
  std::shuffle(b.ids.begin(), b.ids.end(), rng);
  for (int& id : b.ids) id = 3 * id + 7;
  return b;
}

std::vector<int> bruteForceOverlaps(const Boxes& b, const Vector3d& lo, const Vector3d& hi) {
  std::vector<int> ids;
  for (std::size_t i = 0; i < b.ids.size(); ++i) {
    bool overlap = true;
    for (int k = 0; k < 3; ++k) overlap = overlap && b.lo[i][k] <= hi[k] && lo[k] <= b.hi[i][k];
    if (overlap) ids.push_back(b.ids[i]);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<int> treeOverlaps(const AabbTree& tree, const Vector3d& lo, const Vector3d& hi) {
  std::vector<int> ids;
  tree.forEachOverlap(lo, hi, [&](int id) { ids.push_back(id); });
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST(AabbTree, RandomQueriesMatchBruteForce) {
  std::mt19937 rng(4242);
  std::uniform_int_distribution<int> count(0, 300);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  AabbTree tree;  // rebuilt for every set: exercises replacing a tree
  long found = 0;
  for (int set = 0; set < 400; ++set) {
    const Boxes b = randomBoxes(rng, count(rng));
    tree.build(b.lo, b.hi, b.ids);
    ASSERT_EQ(tree.size(), static_cast<int>(b.ids.size()));
    for (int query = 0; query < 50; ++query) {
      Vector3d lo, hi;
      if (!b.ids.empty() && u(rng) < 0.3) {
        // A query that touches a box of the set exactly, face against face.
        const int i = static_cast<int>(u(rng) * b.ids.size());
        const int axis = query % 3;
        lo = test::randomVector(rng, -5.0, 5.0);
        hi = lo + test::randomVector(rng, 0.0, 1.0);
        lo[axis] = b.hi[i][axis];
        hi[axis] = lo[axis] + test::logUniform(rng, 1e-3, 1.0);
        for (int k = 0; k < 3; ++k) {
          if (k == axis) continue;
          lo[k] = b.lo[i][k] - 0.1;
          hi[k] = b.hi[i][k] + 0.1;
        }
      } else {
        const Vector3d centre = test::randomVector(rng, -6.0, 6.0);
        const Vector3d half(test::logUniform(rng, 1e-3, 2.0), test::logUniform(rng, 1e-3, 2.0),
                            test::logUniform(rng, 1e-3, 2.0));
        lo = centre - half;
        hi = centre + half;
      }
      const std::vector<int> expected = bruteForceOverlaps(b, lo, hi);
      const std::vector<int> reported = treeOverlaps(tree, lo, hi);
      ASSERT_EQ(reported, expected) << "set " << set << ", query " << query;  // each id once
      found += static_cast<long>(expected.size());
    }
  }
  EXPECT_GT(found, 5000);  // the queries are not all empty
}

// The fewest halvings that bring n boxes down to a leaf's worth.
int balancedDepth(int n) {
  int depth = 0;
  for (long largest = n; largest > AabbTree::kLeafSize; largest = (largest + 1) / 2) ++depth;
  return depth;
}

TEST(AabbTree, MedianSplitsKeepItBalanced) {
  std::mt19937 rng(6);
  AabbTree tree;
  for (int n : {1, 2, 3, 4, 5, 17, 64, 65, 1000, 4096, 5000}) {
    const Boxes b = randomBoxes(rng, n);
    tree.build(b.lo, b.hi, b.ids);
    EXPECT_EQ(tree.depth(), balancedDepth(n)) << "n " << n;
  }
  EXPECT_EQ(balancedDepth(AabbTree::kLeafSize * 1024), 10);
  // All boxes at one place: the split still halves them.
  const int n = AabbTree::kLeafSize * 1024;
  const std::vector<Vector3d> lo(n, Vector3d::Zero()), hi(n, Vector3d::Ones());
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  tree.build(lo, hi, ids);
  EXPECT_EQ(tree.depth(), 10);
  EXPECT_EQ(treeOverlaps(tree, Vector3d::Constant(1.0), Vector3d::Constant(2.0)), ids);
}

TEST(AabbTree, SmallQueriesTestFewNodes) {
  // A 20 x 20 x 20 grid of unit cubes 2 m apart: a small query meets one cube and has to look at
  // one root-to-leaf path, the siblings along it and one leaf's boxes, not the 8000 boxes.
  std::vector<Vector3d> lo, hi;
  std::vector<int> ids;
  for (int x = 0; x < 20; ++x) {
    for (int y = 0; y < 20; ++y) {
      for (int z = 0; z < 20; ++z) {
        lo.push_back(2.0 * Vector3d(x, y, z));
        hi.push_back(lo.back() + Vector3d::Ones());
        ids.push_back(static_cast<int>(ids.size()));
      }
    }
  }
  AabbTree tree;
  tree.build(lo, hi, ids);
  std::vector<int> found;
  const int tested = tree.forEachOverlap(Vector3d(10.2, 10.2, 10.2), Vector3d(10.4, 10.4, 10.4),
                                         [&](int id) { found.push_back(id); });
  EXPECT_EQ(found, std::vector<int>{5 * 400 + 5 * 20 + 5});
  EXPECT_LE(tested, 2 * tree.depth() + 1 + AabbTree::kLeafSize);
}

TEST(AabbTree, EmptyTree) {
  AabbTree tree;
  EXPECT_TRUE(tree.empty());
  int visits = 0;
  EXPECT_EQ(tree.forEachOverlap(Vector3d::Zero(), Vector3d::Ones(), [&](int) { ++visits; }), 0);
  const std::vector<Vector3d> one = {Vector3d::Zero()};
  const std::vector<int> id = {9};
  tree.build(one, one, id);
  EXPECT_EQ(treeOverlaps(tree, Vector3d::Zero(), Vector3d::Zero()), id);  // points touch
  tree.build({}, {}, {});
  EXPECT_TRUE(tree.empty());
  EXPECT_EQ(tree.forEachOverlap(Vector3d::Zero(), Vector3d::Ones(), [&](int) { ++visits; }), 0);
  EXPECT_EQ(visits, 0);
}

}  // namespace
}  // namespace hb
