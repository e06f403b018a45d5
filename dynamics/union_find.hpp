#pragma once
// Disjoint sets of indices (union–find with path halving). Joined sets take the smaller root,
// so that the roots, and whatever is numbered by them, do not depend on the order of the joins
// within a set.

#include <algorithm>
#include <numeric>
#include <vector>

namespace hb {

class UnionFind {
 public:
  /// n singletons, reusing the storage.
  void reset(int n) {
    parent_.resize(n);
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  int root(int i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(int a, int b) {
    const int ra = root(a), rb = root(b);
    if (ra != rb) parent_[std::max(ra, rb)] = std::min(ra, rb);
  }

 private:
  std::vector<int> parent_;
};

}  // namespace hb
