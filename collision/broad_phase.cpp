// Broad phase: sort and sweep of the moving proxies' enclosing AABBs with a persistent order,
// their look-ups in a tree of the static ones, then the OBB separating-axis test (Ericson,
// "Real-Time Collision Detection", Sec. 7.5, 6.2 and 4.4).

#include "collision/broad_phase.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

namespace hb {
namespace {

using Eigen::Vector3d;

// obbOverlap adds a 1e-9 slack to |R| for parallel edges, so it accepts some boxes that are
// apart by a hair. The AABBs are grown by far more than that (relative to the boxes' size, plus
// round-off relative to their position) so that they never reject a pair obbOverlap accepts:
// update() then returns exactly what bruteForcePairs() does. The growth only adds a few
// obbOverlap calls on pairs that are touching to within a millionth of their size.
constexpr double kSizeSlack = 1e-6;
constexpr double kPositionSlack = 1e-12;

// The sweep axis changes only when another axis spreads the centres this much more (variance
// ratio): changing it throws away the saved order, and near-ties would otherwise flip it back and
// forth from one step to the next.
constexpr double kAxisSwitchRatio = 1.5;

// Columns: cells about this many median box widths across. Wider columns hold more boxes that
// meet on the sweep axis only; narrower ones duplicate more boxes that straddle cells.
constexpr double kCellWidths = 2.0;
// A moving box is looked up in the static tree grown by this fraction of its AABB's widest side
// on every side, and the statics found serve it while its AABB stays inside: wider means fewer
// look-ups but more kept statics to test.
constexpr double kLookupGrowth = 0.25;

// Below this many boxes per column (on average) the bookkeeping costs more than it saves.
constexpr int kMinBoxesPerColumn = 8;
// The grid is coarsened while boxes straddle so many cells that the copies exceed this many per
// box (a few huge boxes, a ground plane, are fine; many are not).
constexpr int kMaxEntriesPerBox = 3;
// The columns' entries are swept in this many slices on the workers: enough to share among a
// few workers, few enough that handing them out costs little.
constexpr long kSweepSlices = 32;

// The boxes the tests see: the input, or copies grown by the margin.
std::span<const Obb> inflate(std::span<const Obb> boxes, double margin, std::vector<Obb>& out) {
  assert(margin >= 0.0);
  if (margin == 0.0) return boxes;
  out.assign(boxes.begin(), boxes.end());  // reuses the capacity
  for (Obb& box : out) box.halfExtents.array() += margin;
  return out;
}

int ownerOf(const BroadPhaseInput& input, int proxy) {
  return input.owners.empty() ? proxy : input.owners[proxy];
}

bool isStaticProxy(const BroadPhaseInput& input, int proxy) {
  return !input.isStatic.empty() && input.isStatic[proxy] != 0;
}

bool sameBox(const Obb& a, const Obb& b) {
  return a.center == b.center && a.axes == b.axes && a.halfExtents == b.halfExtents;
}

// The box's enclosing AABB: the half-width along world axis k is sum_j |axes(k, j)| *
// halfExtents(j), plus the slack above.
inline void enclosingAabb(const Obb& box, Vector3d& lo, Vector3d& hi) {
  assert(box.center.allFinite() && box.axes.allFinite() && box.halfExtents.allFinite());
  const double slack =
      kSizeSlack * box.halfExtents.sum() + kPositionSlack * box.center.cwiseAbs().maxCoeff();
  const Vector3d halfWidth = box.aabbHalfExtents().array() + slack;
  lo = box.center - halfWidth;
  hi = box.center + halfWidth;
}

void checkInput(const BroadPhaseInput& input) {
  assert(input.owners.empty() || input.owners.size() == input.boxes.size());
  assert(input.isStatic.empty() || input.isStatic.size() == input.boxes.size());
  (void)input;
}

// Sorts by key, stably. Gives up after `budget` shifts (returning false, the entries still a
// permutation): past that point a full sort is cheaper than finishing.
template <class Entry>
bool insertionSort(std::vector<Entry>& entries, long budget, long& moves) {
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const Entry entry = entries[i];
    std::size_t j = i;
    while (j > 0 && entries[j - 1].key > entry.key) {
      entries[j] = entries[j - 1];
      --j;
      if (++moves > budget) {
        entries[j] = entry;
        return false;
      }
    }
    entries[j] = entry;
  }
  return true;
}

// Counting sort on the first index (the proxies are 0..n-1), then each short run on the second:
// linear in n plus the pairs, where a comparison sort of the pairs would not be.
void sortPairs(const std::vector<ProxyPair>& candidates, int n, std::vector<int>& bucket,
               std::vector<ProxyPair>& out) {
  bucket.assign(n + 1, 0);
  for (const ProxyPair& p : candidates) ++bucket[p.first + 1];
  for (int i = 0; i < n; ++i) bucket[i + 1] += bucket[i];
  out.resize(candidates.size());
  for (const ProxyPair& p : candidates) out[bucket[p.first]++] = p;
  // bucket[i] is now the end of run i, i.e. the start of run i + 1.
  int begin = 0;
  for (int i = 0; i < n; ++i) {
    std::sort(out.begin() + begin, out.begin() + bucket[i]);
    begin = bucket[i];
  }
}

}  // namespace

int BroadPhase::Grid::cellOf(double v, double origin, double inverseSize, int cells) {
  if (cells == 1) return 0;
  const double x = std::clamp((v - origin) * inverseSize, 0.0, cells - 1.0);
  return static_cast<int>(x);
}

void BroadPhase::reset() {
  haveOrder_ = false;
  haveStatics_ = false;
}

const std::vector<ProxyPair>& BroadPhase::update(const BroadPhaseInput& input) {
  checkInput(input);
  const int n = static_cast<int>(input.boxes.size());
  const std::span<const Obb> boxes = inflate(input.boxes, input.margin, inflated_);
  stats_ = {};
  candidates_.clear();
  if (splitStatics(input)) buildStaticTree(boxes);
  stats_.movingProxies = static_cast<int>(moving_.size());
  stats_.staticProxies = staticTree_.size();
  if (order_.size() != moving_.size()) haveOrder_ = false;

  // Moving against moving.
  buildAabbs(boxes);
  chooseSweepAxis();
  sortAlongSweepAxis();
  const Grid grid = chooseGrid((axis_ + 1) % 3, (axis_ + 2) % 3);
  fillColumns(grid, input);
  sweepColumns(grid, boxes);

  // Moving against static.
  queryStatics(input, boxes);
  stats_.aabbOverlaps += stats_.staticAabbOverlaps;

  sortPairs(candidates_, n, bucket_, pairs_);
  stats_.pairs = static_cast<long>(pairs_.size());
  return pairs_;
}

// Lists the moving proxies, and tells whether the static ones differ from those the tree was
// built over: other indices, other boxes (compared exactly: any change may change the pairs) or
// another margin. One pass over the input; the statics cost a comparison, not a rebuild.
bool BroadPhase::splitStatics(const BroadPhaseInput& input) {
  const int n = static_cast<int>(input.boxes.size());
  const int saved = static_cast<int>(staticProxies_.size());
  bool same = haveStatics_ && input.margin == staticMargin_;
  int statics = 0, moving = 0;
  moving_.resize(n);
  for (int i = 0; i < n; ++i) {
    if (!isStaticProxy(input, i)) {
      moving_[moving++] = i;
      continue;
    }
    same = same && statics < saved && staticProxies_[statics] == i &&
           sameBox(staticBoxes_[statics], input.boxes[i]);
    ++statics;
  }
  moving_.resize(moving);
  if (same && statics == saved) return false;
  staticProxies_.clear();
  staticBoxes_.clear();
  for (int i = 0; i < n; ++i) {
    if (!isStaticProxy(input, i)) continue;
    staticProxies_.push_back(i);
    staticBoxes_.push_back(input.boxes[i]);
  }
  staticMargin_ = input.margin;
  haveStatics_ = true;
  return true;
}

// The tree over the static proxies' AABBs, grown by the margin as the moving ones are.
void BroadPhase::buildStaticTree(std::span<const Obb> boxes) {
  const int statics = static_cast<int>(staticProxies_.size());
  staticLo_.resize(statics);
  staticHi_.resize(statics);
  for (int s = 0; s < statics; ++s) {
    enclosingAabb(boxes[staticProxies_[s]], staticLo_[s], staticHi_[s]);
  }
  staticIndices_.resize(statics);
  std::iota(staticIndices_.begin(), staticIndices_.end(), 0);
  staticTree_.build(staticLo_, staticHi_, staticIndices_);
  for (StaticLookup& lookup : lookups_) lookup.count = -1;  // found in the old tree
  stats_.staticRebuilt = true;
}

// The moving proxies' enclosing AABBs, their bounds and the variance of their centres, summed
// relative to the first centre so that far-away scenes do not lose it to cancellation.
void BroadPhase::buildAabbs(std::span<const Obb> boxes) {
  const int n = static_cast<int>(moving_.size());
  lo_.resize(n);
  hi_.resize(n);
  sceneLo_ = Vector3d::Constant(std::numeric_limits<double>::infinity());
  sceneHi_ = -sceneLo_;
  const Vector3d origin = n > 0 ? boxes[moving_[0]].center : Vector3d::Zero();
  Vector3d sum = Vector3d::Zero(), sumSquares = Vector3d::Zero();
  for (int i = 0; i < n; ++i) {
    const Obb& box = boxes[moving_[i]];
    enclosingAabb(box, lo_[i], hi_[i]);
    sceneLo_ = sceneLo_.cwiseMin(lo_[i]);
    sceneHi_ = sceneHi_.cwiseMax(hi_[i]);
    const Vector3d d = box.center - origin;
    sum += d;
    sumSquares += d.cwiseAbs2();
  }
  centreVariance_ =
      n > 0 ? Vector3d(sumSquares / n - (sum / n).cwiseAbs2()) : Vector3d(Vector3d::Zero());
}

// The axis along which the centres spread most (Ericson, Sec. 7.5.2): the wider the spread, the
// fewer intervals overlap on it.
void BroadPhase::chooseSweepAxis() {
  int widest;
  centreVariance_.maxCoeff(&widest);
  if (!haveOrder_) {
    axis_ = widest;
  } else if (centreVariance_[widest] > kAxisSwitchRatio * centreVariance_[axis_]) {
    axis_ = widest;
    haveOrder_ = false;
  }
  stats_.sweepAxis = axis_;
}

// Insertion sort on last call's order, which is nearly sorted when bodies moved a little; a full
// sort when there is no usable order or when so much changed that insertion sort would cost more
// than n log n.
void BroadPhase::sortAlongSweepAxis() {
  const int n = static_cast<int>(lo_.size());
  if (!haveOrder_) {
    order_.resize(n);
    for (int k = 0; k < n; ++k) order_[k].slot = k;
  }
  for (SortKey& entry : order_) entry.key = lo_[entry.slot][axis_];
  const long budget = static_cast<long>(n) * std::bit_width(static_cast<unsigned>(n));
  stats_.fullSort = !haveOrder_ || !insertionSort(order_, budget, stats_.insertionMoves);
  if (stats_.fullSort) {
    std::sort(order_.begin(), order_.end(),
              [](const SortKey& a, const SortKey& b) { return a.key < b.key; });
  }
  haveOrder_ = true;
}

// Cells kCellWidths median boxes wide over the scene's bounds on the cross axes, at most
// n / kMinBoxesPerColumn of them, coarsened while boxes straddle too many cells.
BroadPhase::Grid BroadPhase::chooseGrid(int axis1, int axis2) {
  Grid grid;
  const int n = static_cast<int>(lo_.size());
  const double maxCells = static_cast<double>(n / kMinBoxesPerColumn);
  if (maxCells < 2.0) return grid;
  const auto medianWidth = [&](int axis) {
    widths_.resize(n);
    for (int i = 0; i < n; ++i) widths_[i] = hi_[i][axis] - lo_[i][axis];
    std::nth_element(widths_.begin(), widths_.begin() + n / 2, widths_.end());
    return widths_[n / 2];
  };
  // Cells across `extent` at `width` each, at most maxCells (also for zero-width boxes).
  const auto cellsAcross = [maxCells](double extent, double width) {
    if (extent <= 0.0) return 1.0;
    return extent < width * maxCells ? extent / width : maxCells;
  };
  const double extent1 = sceneHi_[axis1] - sceneLo_[axis1];
  const double extent2 = sceneHi_[axis2] - sceneLo_[axis2];
  double cells1 = cellsAcross(extent1, kCellWidths * medianWidth(axis1));
  double cells2 = cellsAcross(extent2, kCellWidths * medianWidth(axis2));
  if (cells1 * cells2 > maxCells) {
    const double shrink = std::sqrt(maxCells / (cells1 * cells2));
    cells1 *= shrink;
    cells2 *= shrink;
  }
  grid.cells1 = std::max(1, static_cast<int>(cells1));
  grid.cells2 = std::max(1, static_cast<int>(cells2));
  for (;;) {
    grid.origin1 = sceneLo_[axis1];
    grid.origin2 = sceneLo_[axis2];
    grid.inverseSize1 = extent1 > 0.0 ? grid.cells1 / extent1 : 0.0;
    grid.inverseSize2 = extent2 > 0.0 ? grid.cells2 / extent2 : 0.0;
    if (grid.cells1 * grid.cells2 == 1) break;
    if (countColumnEntries(grid, axis1, axis2) <= static_cast<long>(kMaxEntriesPerBox) * n) break;
    grid.cells1 = std::max(1, grid.cells1 / 2);
    grid.cells2 = std::max(1, grid.cells2 / 2);
  }
  return grid;
}

long BroadPhase::countColumnEntries(const Grid& grid, int axis1, int axis2) const {
  long entries = 0;
  for (std::size_t i = 0; i < lo_.size(); ++i) {
    entries += static_cast<long>(grid.cell1(hi_[i][axis1]) - grid.cell1(lo_[i][axis1]) + 1) *
               (grid.cell2(hi_[i][axis2]) - grid.cell2(lo_[i][axis2]) + 1);
  }
  return entries;
}

// Every box goes into each column it overlaps. Walking the boxes in sweep order fills every
// column in sweep order too (a counting sort by column, which is stable).
void BroadPhase::fillColumns(const Grid& grid, const BroadPhaseInput& input) {
  const int axis1 = (axis_ + 1) % 3, axis2 = (axis_ + 2) % 3;
  const int cells = grid.cells1 * grid.cells2;
  columnStart_.assign(cells + 1, 0);
  for (const SortKey& entry : order_) {
    const int i = entry.slot;
    const int a1 = grid.cell1(lo_[i][axis1]), b1 = grid.cell1(hi_[i][axis1]);
    const int a2 = grid.cell2(lo_[i][axis2]), b2 = grid.cell2(hi_[i][axis2]);
    for (int c1 = a1; c1 <= b1; ++c1) {
      for (int c2 = a2; c2 <= b2; ++c2) ++columnStart_[c1 * grid.cells2 + c2 + 1];
    }
  }
  for (int c = 0; c < cells; ++c) columnStart_[c + 1] += columnStart_[c];
  columnCursor_.assign(columnStart_.begin(), columnStart_.end() - 1);
  columns_.resize(columnStart_[cells]);
  for (const SortKey& entry : order_) {
    const int i = entry.slot;
    const int proxy = moving_[i];
    const SweepEntry sweep{lo_[i][axis_], hi_[i][axis_], lo_[i][axis1], hi_[i][axis1],
                           lo_[i][axis2], hi_[i][axis2], proxy,         ownerOf(input, proxy)};
    const int a1 = grid.cell1(sweep.lo1), b1 = grid.cell1(sweep.hi1);
    const int a2 = grid.cell2(sweep.lo2), b2 = grid.cell2(sweep.hi2);
    for (int c1 = a1; c1 <= b1; ++c1) {
      for (int c2 = a2; c2 <= b2; ++c2) columns_[columnCursor_[c1 * grid.cells2 + c2]++] = sweep;
    }
  }
  stats_.columns = cells;
  stats_.columnEntries = static_cast<long>(columns_.size());
}

// In each column the boxes are in order of their minimum, so the ones overlapping box p on the
// sweep axis are exactly those after it that start before it ends (touching counts). A pair
// sharing several columns is reported by one only: the column holding the low corner of the
// overlap of the two boxes' cross-axis rectangles, which lies in both rectangles.
void BroadPhase::sweepColumns(const Grid& grid, std::span<const Obb> boxes) {
  // The columns' entries in slices of about equal length, swept on the workers (a column's box
  // meets the boxes after it in its column, so a slice may start and end anywhere); each slice
  // keeps its pairs and counts, gathered in slice order (the pairs are sorted at the end anyway).
  const int entries = static_cast<int>(columns_.size());
  const int slices = static_cast<int>(std::min<long>(kSweepSlices, std::max(entries, 1)));
  if (sliceResults_.size() < static_cast<std::size_t>(slices)) sliceResults_.resize(slices);
  forEach_(slices, [&](std::size_t k) {
    const int begin = static_cast<int>(static_cast<long>(entries) * k / slices);
    const int end = static_cast<int>(static_cast<long>(entries) * (k + 1) / slices);
    sweepSlice(grid, boxes, begin, end, sliceResults_[k]);
  });
  for (int k = 0; k < slices; ++k) {
    const SweepResult& result = sliceResults_[k];
    candidates_.insert(candidates_.end(), result.pairs.begin(), result.pairs.end());
    stats_.aabbOverlaps += result.aabbOverlaps;
    stats_.sweepOverlaps += result.sweepOverlaps;
  }
}

void BroadPhase::sweepSlice(const Grid& grid, std::span<const Obb> boxes, int begin, int end,
                            SweepResult& result) const {
  result.pairs.clear();
  result.aabbOverlaps = result.sweepOverlaps = 0;
  const bool oneColumn = grid.cells1 * grid.cells2 == 1;
  // The column of entry `begin`: the last one starting at or before it.
  int column = static_cast<int>(std::upper_bound(columnStart_.begin(), columnStart_.end(), begin) -
                                columnStart_.begin()) -
               1;
  for (int p = begin; p < end; ++p) {
    while (columnStart_[column + 1] <= p) ++column;
    const int c1 = column / grid.cells2, c2 = column % grid.cells2;
    const int columnEnd = columnStart_[column + 1];
    const SweepEntry& a = columns_[p];
    int q = p + 1;
    for (; q < columnEnd && columns_[q].lo <= a.hi; ++q) {
      const SweepEntry& b = columns_[q];
      if (b.lo1 > a.hi1 || a.lo1 > b.hi1 || b.lo2 > a.hi2 || a.lo2 > b.hi2) continue;
      if (a.owner == b.owner) continue;
      // A pair that two columns hold is the pair of the column holding its overlap's corner.
      if (!oneColumn &&
          (grid.cell1(std::max(a.lo1, b.lo1)) != c1 || grid.cell2(std::max(a.lo2, b.lo2)) != c2)) {
        continue;
      }
      ++result.aabbOverlaps;
      if (!obbOverlap(boxes[a.proxy], boxes[b.proxy])) continue;
      result.pairs.emplace_back(std::min(a.proxy, b.proxy), std::max(a.proxy, b.proxy));
    }
    result.sweepOverlaps += q - (p + 1);
  }
}

// Each moving box meets the statics its AABB overlaps, found among those its last look-up kept
// while the AABB lies inside the box looked up (every static overlapping the AABB then overlaps
// that box too), else by a new look-up; each such pair comes up once. In slices of the sweep
// order on the workers, so that one look-up walks much the same nodes as the one before; each
// slice keeps its statics and pairs (the pairs are sorted at the end anyway).
void BroadPhase::queryStatics(const BroadPhaseInput& input, std::span<const Obb> boxes) {
  if (staticTree_.empty()) return;
  lookups_.resize(moving_.size());
  const int n = static_cast<int>(order_.size());
  const int slices = static_cast<int>(std::min<long>(kSweepSlices, std::max(n, 1)));
  for (auto* perSlice : {&staticHits_, &nextStaticHits_}) {
    if (perSlice->size() < static_cast<std::size_t>(slices)) perSlice->resize(slices);
  }
  if (staticResults_.size() < static_cast<std::size_t>(slices)) staticResults_.resize(slices);
  forEach_(slices, [&](std::size_t k) {
    const int begin = static_cast<int>(static_cast<long>(n) * k / slices);
    const int end = static_cast<int>(static_cast<long>(n) * (k + 1) / slices);
    queryStaticsSlice(input, boxes, static_cast<int>(k), begin, end, staticResults_[k]);
  });
  for (int k = 0; k < slices; ++k) {
    const StaticResult& result = staticResults_[k];
    candidates_.insert(candidates_.end(), result.pairs.begin(), result.pairs.end());
    stats_.staticLookups += result.lookups;
    stats_.staticBoxesTested += result.boxesTested;
    stats_.staticAabbOverlaps += result.aabbOverlaps;
  }
  staticHits_.swap(nextStaticHits_);
}

void BroadPhase::queryStaticsSlice(const BroadPhaseInput& input, std::span<const Obb> boxes, int k,
                                   int begin, int end, StaticResult& result) {
  result.pairs.clear();
  result.lookups = 0;
  result.boxesTested = result.aabbOverlaps = 0;
  std::vector<int>& hits = nextStaticHits_[k];
  hits.clear();
  for (int e = begin; e < end; ++e) {
    const int slot = order_[e].slot;
    const Vector3d& lo = lo_[slot];
    const Vector3d& hi = hi_[slot];
    StaticLookup& lookup = lookups_[slot];
    const int first = static_cast<int>(hits.size());
    if (lookup.count >= 0 && (lookup.lo.array() <= lo.array()).all() &&
        (hi.array() <= lookup.hi.array()).all()) {
      const std::vector<int>& kept = staticHits_[lookup.slice];
      hits.insert(hits.end(), kept.begin() + lookup.first,
                  kept.begin() + lookup.first + lookup.count);
    } else {
      const double grow = kLookupGrowth * (hi - lo).maxCoeff();
      lookup.lo = lo.array() - grow;
      lookup.hi = hi.array() + grow;
      result.boxesTested +=
          staticTree_.forEachOverlap(lookup.lo, lookup.hi, [&](int s) { hits.push_back(s); });
      ++result.lookups;
    }
    lookup.slice = k;
    lookup.first = first;
    lookup.count = static_cast<int>(hits.size()) - first;
    result.boxesTested += lookup.count;

    const int a = moving_[slot];
    const int owner = ownerOf(input, a);
    for (int h = first; h < first + lookup.count; ++h) {
      const int s = hits[h];
      const Vector3d& sLo = staticLo_[s];
      const Vector3d& sHi = staticHi_[s];
      if ((sLo.array() > hi.array()).any() || (lo.array() > sHi.array()).any()) continue;
      const int proxy = staticProxies_[s];
      if (ownerOf(input, proxy) == owner) continue;
      ++result.aabbOverlaps;
      if (!obbOverlap(boxes[a], boxes[proxy])) continue;
      result.pairs.emplace_back(std::min(a, proxy), std::max(a, proxy));
    }
  }
}

std::vector<ProxyPair> bruteForcePairs(const BroadPhaseInput& input) {
  checkInput(input);
  std::vector<Obb> inflated;
  const std::span<const Obb> boxes = inflate(input.boxes, input.margin, inflated);
  const int n = static_cast<int>(boxes.size());
  std::vector<ProxyPair> pairs;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (ownerOf(input, i) == ownerOf(input, j)) continue;
      if (isStaticProxy(input, i) && isStaticProxy(input, j)) continue;
      if (obbOverlap(boxes[i], boxes[j])) pairs.emplace_back(i, j);
    }
  }
  return pairs;
}

}  // namespace hb
