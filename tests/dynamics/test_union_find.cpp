// UnionFind against connected components found by a breadth-first search, on random graphs with
// a fixed seed: the same sets, each rooted at its smallest index.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "dynamics/union_find.hpp"

namespace hb {
namespace {

TEST(UnionFind, SetsAreTheConnectedComponentsRootedAtTheirSmallestIndex) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 1000; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 60)(rng);
    const int edges = std::uniform_int_distribution<int>(0, n)(rng);
    std::uniform_int_distribution<int> pick(0, n - 1);
    std::vector<std::vector<int>> neighbours(n);
    UnionFind sets;
    sets.reset(n);
    for (int e = 0; e < edges; ++e) {
      const int a = pick(rng), b = pick(rng);
      neighbours[a].push_back(b);
      neighbours[b].push_back(a);
      sets.join(a, b);
    }
    // Brute force: each component's smallest index, by breadth-first search from it.
    std::vector<int> smallest(n, -1);
    for (int start = 0; start < n; ++start) {
      if (smallest[start] >= 0) continue;
      std::vector<int> queue{start};
      smallest[start] = start;
      for (std::size_t q = 0; q < queue.size(); ++q) {
        for (const int next : neighbours[queue[q]]) {
          if (smallest[next] < 0) {
            smallest[next] = start;
            queue.push_back(next);
          }
        }
      }
    }
    for (int i = 0; i < n; ++i) ASSERT_EQ(sets.root(i), smallest[i]) << "trial " << trial;
  }
}

}  // namespace
}  // namespace hb
