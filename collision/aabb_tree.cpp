// Static AABB tree: top-down median splits (Ericson, "Real-Time Collision Detection", Sec. 6.2.1).

#include "collision/aabb_tree.hpp"

#include <algorithm>
#include <numeric>

namespace hb {

using Eigen::Vector3d;

void AabbTree::build(std::span<const Vector3d> lo, std::span<const Vector3d> hi,
                     std::span<const int> ids) {
  assert(lo.size() == ids.size() && hi.size() == ids.size());
  const int n = static_cast<int>(ids.size());
  nodes_.clear();
  for (int k = 0; k < 3; ++k) {
    lo_[k].clear();
    hi_[k].clear();
  }
  ids_.clear();
  depth_ = 0;
  if (n == 0) return;
  items_.resize(n);
  std::iota(items_.begin(), items_.end(), 0);
  centres_.resize(n);
  for (int i = 0; i < n; ++i) centres_[i] = 0.5 * (lo[i] + hi[i]);
  // A binary tree has fewer than 2n nodes; sized up front, so node references stay valid.
  nodes_.resize(2 * n - 1);
  nextNode_ = 1;
  buildNode(0, 0, n, 0, lo, hi);
  nodes_.resize(nextNode_);
  assert(depth_ + 2 <= kMaxPending);
  for (const int i : items_) {
    for (int k = 0; k < 3; ++k) {
      lo_[k].push_back(lo[i][k]);
      hi_[k].push_back(hi[i][k]);
    }
    ids_.push_back(ids[i]);
  }
}

// Node `node` over items_[begin, end): its bounds, then a leaf or two halves split at the median
// centre along the axis where the centres spread most (ties by index, so the tree is the same on
// every platform).
void AabbTree::buildNode(int node, int begin, int end, int level, std::span<const Vector3d> lo,
                         std::span<const Vector3d> hi) {
  Node& out = nodes_[node];
  out.lo = lo[items_[begin]];
  out.hi = hi[items_[begin]];
  Vector3d centreLo = centres_[items_[begin]], centreHi = centreLo;
  for (int k = begin + 1; k < end; ++k) {
    const int i = items_[k];
    out.lo = out.lo.cwiseMin(lo[i]);
    out.hi = out.hi.cwiseMax(hi[i]);
    centreLo = centreLo.cwiseMin(centres_[i]);
    centreHi = centreHi.cwiseMax(centres_[i]);
  }
  if (end - begin <= kLeafSize) {
    out.first = begin;
    out.count = end - begin;
    depth_ = std::max(depth_, level);
    return;
  }
  int axis;
  (centreHi - centreLo).maxCoeff(&axis);
  const int middle = begin + (end - begin) / 2;
  std::nth_element(items_.begin() + begin, items_.begin() + middle, items_.begin() + end,
                   [&](int a, int b) {
                     const double ca = centres_[a][axis], cb = centres_[b][axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  out.first = nextNode_;
  out.count = 0;
  nextNode_ += 2;
  const int children = out.first;
  buildNode(children, begin, middle, level + 1, lo, hi);
  buildNode(children + 1, middle, end, level + 1, lo, hi);
}

}  // namespace hb
