#pragma once
// Broad phase: the pairs of collision proxies whose world OBBs overlap. Sort and sweep on the
// boxes' enclosing AABBs (Ericson, "Real-Time Collision Detection", Sec. 7.5), the other two
// axes as a quick reject, then the exact 15-axis OBB test (obbOverlap).
//
// The sorted order persists between calls: bodies move little in one step, so insertion sort
// restores it in close to linear time (temporal coherence). A single sweep axis alone would
// cost O(n^(5/3)) on n bodies filling a volume at constant density, since every box overlaps
// n^(2/3) others along one axis; so the plane of the other two axes is cut into columns about
// two boxes wide, each swept on its own. The columns are filled from the one global order, so
// they need no sorting of their own.
//
// Static proxies are kept apart, as Jolt's static broad-phase layer and Box2D's static tree do:
// the sweep and its grid cover the moving proxies only, and each moving box is looked up in an
// AABB tree of the static ones, built when the static boxes change (compared with the last call's,
// so a caller may move or replace them at any time). Otherwise a ground plane 100 m across
// stretches the grid so far that a pile of bodies lands in one column, and sits in every column.
// A look-up is made for a box grown around the moving box's AABB and its statics kept, to serve
// the next calls while the AABB stays inside the grown box: bodies at rest or slow cost a
// containment test and their few statics' tests.

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "collision/aabb_tree.hpp"
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
  std::span<const int> owners = {};
  /// Nonzero for static proxies; static-static pairs are never reported. Empty: none static.
  std::span<const std::uint8_t> isStatic = {};
  /// Grows every half-extent by this much (metres, >= 0), so that pairs about to touch are
  /// reported too (speculative contacts).
  double margin = 0.0;
};

/// What the last update() did, for benchmarks and tuning. The sweep figures are about the moving
/// proxies, the static ones about the moving boxes' look-ups in the static tree.
struct BroadPhaseStats {
  int movingProxies = 0;        ///< proxies swept (not static)
  int sweepAxis = 0;            ///< 0, 1 or 2: x, y or z
  bool fullSort = false;        ///< the order was rebuilt by a full sort instead of insertion sort
  long insertionMoves = 0;      ///< entries shifted by insertion sort
  int columns = 1;              ///< sweep columns across the other two axes
  long columnEntries = 0;       ///< boxes summed over columns (a box may straddle several)
  long sweepOverlaps = 0;       ///< pairs within a column overlapping on the sweep axis
  int staticProxies = 0;        ///< proxies in the static tree
  bool staticRebuilt = false;   ///< the static boxes changed, so their tree was built again
  int staticLookups = 0;        ///< moving boxes looked up in the tree (the others reused theirs)
  long staticBoxesTested = 0;   ///< tree nodes, leaf boxes and kept statics tested
  long staticAabbOverlaps = 0;  ///< moving-static pairs passing the AABB and owner filters
  long aabbOverlaps = 0;  ///< pairs passing the AABB, owner and static filters (static ones too)
  long pairs = 0;         ///< pairs also passing obbOverlap
};

class BroadPhase {
 public:
  /// The overlapping pairs, sorted lexicographically (so the output never depends on the sort
  /// order or on previous calls). The reference stays valid until the next update(). Allocates
  /// nothing once the buffers have grown to the scene's size and pair count, unless the static
  /// boxes changed (their tree is then built again).
  ///
  /// The i-th moving proxy of one call is taken to be the i-th moving proxy of the previous call;
  /// the saved order is only a hint, so renumbering costs time, never correctness. The static
  /// proxies (their indices and boxes, and the margin) are compared with the previous call's.
  const std::vector<ProxyPair>& update(const BroadPhaseInput& input);

  const std::vector<ProxyPair>& pairs() const { return pairs_; }

  /// Runs item(i) for every i in [0, count), on several threads at once or not; the broad
  /// phase's items (slices of its columns, slices of its moving boxes looked up among the
  /// statics) never touch each other's data. By default one after the other. The pairs are the
  /// same either way.
  using ForEach =
      std::function<void(std::size_t count, const std::function<void(std::size_t)>& item)>;
  void setForEach(ForEach forEach) { forEach_ = std::move(forEach); }
  const BroadPhaseStats& stats() const { return stats_; }

  /// Forgets the saved order and the static tree; the next update() starts from scratch.
  void reset();

 private:
  // One moving proxy in a column: its intervals on the sweep axis and the two others, and what
  // the owner filter needs, side by side so that the sweep reads memory sequentially.
  struct SweepEntry {
    double lo, hi;    // sweep axis
    double lo1, hi1;  // next axis
    double lo2, hi2;  // the one after
    int proxy;
    int owner;
  };
  struct SortKey {
    double key;  // the moving proxy's AABB minimum on the sweep axis
    int slot;    // index into moving_
  };
  // A moving slot's last look-up in the static tree: the grown box looked up and where its
  // statics are kept in staticHits_ (count < 0: none yet).
  struct StaticLookup {
    Eigen::Vector3d lo, hi;
    int slice = 0, first = 0, count = -1;  // its statics: staticHits_[slice][first, + count)
  };
  // Columns: a grid of cells1 x cells2 over the two cross axes.
  struct Grid {
    double origin1 = 0.0, origin2 = 0.0;
    double inverseSize1 = 0.0, inverseSize2 = 0.0;  // 1 / cell size
    int cells1 = 1, cells2 = 1;
    int cell1(double v) const { return cellOf(v, origin1, inverseSize1, cells1); }
    int cell2(double v) const { return cellOf(v, origin2, inverseSize2, cells2); }
    // Monotone in v, so a point inside an interval falls in one of the interval's cells.
    static int cellOf(double v, double origin, double inverseSize, int cells);
  };

  bool splitStatics(const BroadPhaseInput& input);
  void buildStaticTree(std::span<const Obb> boxes);
  void buildAabbs(std::span<const Obb> boxes);
  void chooseSweepAxis();
  void sortAlongSweepAxis();
  Grid chooseGrid(int axis1, int axis2);
  long countColumnEntries(const Grid& grid, int axis1, int axis2) const;
  void fillColumns(const Grid& grid, const BroadPhaseInput& input);
  // What one slice of sweepColumns found.
  struct SweepResult {
    std::vector<ProxyPair> pairs;
    long aabbOverlaps = 0, sweepOverlaps = 0;
  };
  void sweepColumns(const Grid& grid, std::span<const Obb> boxes);
  // The pairs of entries [begin, end) of columns_ with the entries after them in their columns.
  void sweepSlice(const Grid& grid, std::span<const Obb> boxes, int begin, int end,
                  SweepResult& result) const;
  void queryStatics(const BroadPhaseInput& input, std::span<const Obb> boxes);
  // What one slice of queryStatics found.
  struct StaticResult {
    std::vector<ProxyPair> pairs;
    int lookups = 0;
    long boxesTested = 0, aabbOverlaps = 0;
  };
  // The statics of the moving boxes order_[begin, end) (slice k of queryStatics).
  void queryStaticsSlice(const BroadPhaseInput& input, std::span<const Obb> boxes, int k, int begin,
                         int end, StaticResult& result);

  std::vector<SortKey> order_;  // persists between calls
  int axis_ = 0;
  bool haveOrder_ = false;

  // The static proxies as of the last tree build: indices, boxes as given, and the margin.
  std::vector<int> staticProxies_;
  std::vector<Obb> staticBoxes_;
  double staticMargin_ = 0.0;
  bool haveStatics_ = false;
  AabbTree staticTree_;
  std::vector<Eigen::Vector3d> staticLo_, staticHi_;  // their AABBs; the tree's ids index them
  std::vector<int> staticIndices_;                    // 0, 1, ...
  // The moving slots' look-ups; they persist between calls, valid while the tree is unchanged.
  std::vector<StaticLookup> lookups_;
  // Statics (tree ids) of the look-ups, per slice of queryStatics: the last call's, and this
  // call's (filled, then swapped in).
  std::vector<std::vector<int>> staticHits_, nextStaticHits_;
  std::vector<StaticResult> staticResults_;  // per slice

  // Scratch, reused by every call.
  std::vector<Obb> inflated_;
  std::vector<int> moving_;               // proxy indices of the moving proxies, by slot
  std::vector<Eigen::Vector3d> lo_, hi_;  // AABBs, by slot
  Eigen::Vector3d sceneLo_, sceneHi_;     // their bounds
  Eigen::Vector3d centreVariance_;
  std::vector<double> widths_;
  std::vector<int> columnStart_;  // by cell, then one past the end
  std::vector<int> columnCursor_;
  std::vector<SweepEntry> columns_;  // column after column, each in sweep order
  std::vector<SweepResult> sliceResults_;
  std::vector<ProxyPair> candidates_;
  std::vector<int> bucket_;  // counting-sort offsets by first proxy
  std::vector<ProxyPair> pairs_;
  BroadPhaseStats stats_;
  ForEach forEach_ = [](std::size_t count, const std::function<void(std::size_t)>& item) {
    for (std::size_t i = 0; i < count; ++i) item(i);
  };
};

/// The reference: obbOverlap on every pair, same filters and margin, sorted the same way.
std::vector<ProxyPair> bruteForcePairs(const BroadPhaseInput& input);

}  // namespace hb
