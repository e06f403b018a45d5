#pragma once
// Broad phase: the pairs of collision proxies whose world OBBs overlap. Sort and sweep on the
// boxes' enclosing AABBs along one axis, the other two axes as a quick reject, then the exact
// 15-axis OBB test (obbOverlap). The sorted order persists between calls: bodies move little in
// one step, so insertion sort restores it in close to linear time (temporal coherence). See
// Ericson, "Real-Time Collision Detection", Sec. 7.5 (sort and sweep).

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "collision/obb.hpp"

namespace hb {

/// Two proxy indices, first < second.
using ProxyPair = std::pair<int, int>;

/// The scene as the broad phase sees it: parallel spans, one entry per collision proxy.
struct BroadPhaseInput {
  /// World boxes; every coefficient finite.
  std::span<const Obb> boxes;
  /// Body owning each proxy (compound shapes have several); pairs within one body are never
  /// reported. Empty: every proxy is its own body.
  std::span<const int> owners;
  /// Nonzero for static proxies; static-static pairs are never reported. Empty: none static.
  std::span<const std::uint8_t> isStatic;
  /// Grows every half-extent by this much (metres, >= 0), so that pairs about to touch are
  /// reported too (speculative contacts).
  double margin = 0.0;
};

/// What the last update() did, for benchmarks and tuning.
struct BroadPhaseStats {
  int sweepAxis = 0;        ///< 0, 1 or 2: x, y or z
  bool fullSort = false;    ///< the order was rebuilt by a full sort instead of insertion sort
  long insertionMoves = 0;  ///< entries shifted by insertion sort
  long aabbOverlaps = 0;    ///< pairs passing the AABB, owner and static filters
  long pairs = 0;           ///< pairs also passing obbOverlap
};

class BroadPhase {
 public:
  /// The overlapping pairs, sorted lexicographically (so the output never depends on the sort
  /// order or on previous calls). The reference stays valid until the next update(). Allocates
  /// nothing once the buffers have grown to the scene's size and pair count.
  ///
  /// Proxy i of one call is taken to be proxy i of the previous call; the saved order is only a
  /// hint, so renumbering costs time, never correctness.
  const std::vector<ProxyPair>& update(const BroadPhaseInput& input);

  const std::vector<ProxyPair>& pairs() const { return pairs_; }
  const BroadPhaseStats& stats() const { return stats_; }

  /// Forgets the saved order; the next update() sorts from scratch.
  void reset();

 private:
  // One proxy in sweep order: its interval on the sweep axis, on the other two axes, and what
  // the pair filters need, side by side so that the sweep reads memory sequentially.
  struct SweepEntry {
    double lo, hi;    // sweep axis
    double lo1, hi1;  // next axis
    double lo2, hi2;  // the one after
    int proxy;
    int owner;
    bool isStatic;
  };
  struct SortKey {
    double key;  // the proxy's AABB minimum on the sweep axis
    int proxy;
  };

  std::vector<SortKey> order_;  // persists between calls
  int axis_ = 0;
  bool haveOrder_ = false;

  // Scratch, reused by every call.
  std::vector<Obb> inflated_;
  std::vector<Eigen::Vector3d> lo_, hi_;  // AABBs, by proxy
  std::vector<SweepEntry> sweep_;
  std::vector<ProxyPair> candidates_;  // in sweep order
  std::vector<int> bucket_;            // counting-sort offsets by first proxy
  std::vector<ProxyPair> pairs_;
  BroadPhaseStats stats_;
};

/// The reference: obbOverlap on every pair, same filters and margin, sorted the same way.
std::vector<ProxyPair> bruteForcePairs(const BroadPhaseInput& input);

}  // namespace hb
