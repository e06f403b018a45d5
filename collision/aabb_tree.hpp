#pragma once
// A bounding-volume hierarchy over axis-aligned boxes that do not move (Ericson, "Real-Time
// Collision Detection", Sec. 6.2): built once, top down, each node split at the median of its
// boxes' centres along their widest spread until a leaf's worth is left, then queried with one
// box at a time. The broad phase keeps its static proxies in one, apart from the moving ones, so
// that a ground plane or a funnel's panels cost a few tests per moving box instead of stretching
// the moving boxes' sweep grid.

#include <Eigen/Core>
#include <array>
#include <cassert>
#include <span>
#include <vector>

namespace hb {

class AabbTree {
 public:
  /// Replaces the tree by one over the boxes [lo[i], hi[i]] (lo <= hi coefficient-wise), box i
  /// reported as ids[i]. Allocates; meant for sets that change rarely.
  void build(std::span<const Eigen::Vector3d> lo, std::span<const Eigen::Vector3d> hi,
             std::span<const int> ids);

  /// Calls visit(id) for every box that overlaps [lo, hi] (touching counts), in no particular
  /// order. Returns the number of node and leaf boxes tested. Allocates nothing.
  template <class Visit>
  int forEachOverlap(const Eigen::Vector3d& lo, const Eigen::Vector3d& hi, Visit&& visit) const;

  int size() const { return static_cast<int>(ids_.size()); }
  bool empty() const { return nodes_.empty(); }
  /// Levels below the root: the median splits halve the count, so the fewest d with
  /// ceil(size() / 2^d) <= kLeafSize.
  int depth() const { return depth_; }

  /// Boxes per leaf at most: a leaf's boxes are tested all at once, without branches (the loop
  /// vectorises), which costs less than walking down to them one by one.
  static constexpr int kLeafSize = 32;

 private:
  // A leaf holds the boxes [first, first + count) (count > 0); an inner node's children are
  // nodes first and first + 1 (count == 0).
  struct Node {
    Eigen::Vector3d lo, hi;
    int first;
    int count;
  };
  // The depth-first walk keeps at most one pending sibling per level, plus the node's two
  // children; median splits halve the count, so even 2^31 boxes make only 31 levels.
  static constexpr int kMaxPending = 64;

  void buildNode(int node, int begin, int end, int level, std::span<const Eigen::Vector3d> lo,
                 std::span<const Eigen::Vector3d> hi);

  std::vector<Node> nodes_;  // the root first
  int depth_ = 0;
  // The boxes in leaf order, one array per bound and axis, so that a leaf's tests vectorise.
  std::array<std::vector<double>, 3> lo_, hi_;
  std::vector<int> ids_;
  // Build scratch: the boxes (indices into the build's spans) in leaf order, and their centres.
  std::vector<int> items_;
  std::vector<Eigen::Vector3d> centres_;
  int nextNode_ = 0;
};

template <class Visit>
int AabbTree::forEachOverlap(const Eigen::Vector3d& lo, const Eigen::Vector3d& hi,
                             Visit&& visit) const {
  if (nodes_.empty()) return 0;
  std::array<int, kMaxPending> pending;
  int top = 0;
  pending[top++] = 0;
  int tested = 0;
  while (top > 0) {
    const Node& node = nodes_[pending[--top]];
    ++tested;
    if ((node.lo.array() > hi.array()).any() || (lo.array() > node.hi.array()).any()) continue;
    if (node.count == 0) {
      assert(top + 2 <= kMaxPending);
      pending[top++] = node.first + 1;
      pending[top++] = node.first;
      continue;
    }
    // All of the leaf's boxes at once (& rather than &&: no branches), then the few that overlap.
    std::array<bool, kLeafSize> overlaps;
    for (int k = 0; k < node.count; ++k) {
      const int i = node.first + k;
      overlaps[k] =
          (int{lo_[0][i] <= hi[0]} & int{lo_[1][i] <= hi[1]} & int{lo_[2][i] <= hi[2]} &
           int{lo[0] <= hi_[0][i]} & int{lo[1] <= hi_[1][i]} & int{lo[2] <= hi_[2][i]}) != 0;
    }
    for (int k = 0; k < node.count; ++k) {
      if (overlaps[k]) visit(ids_[node.first + k]);
    }
    tested += node.count;
  }
  return tested;
}

}  // namespace hb
