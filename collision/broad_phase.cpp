// Broad phase: sort and sweep on enclosing AABBs with a persistent order, then the OBB
// separating-axis test (Ericson, "Real-Time Collision Detection", Sec. 7.5 and 4.4).

#include "collision/broad_phase.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>

namespace hb {
namespace {

using Eigen::Vector3d;

// obbOverlap adds a 1e-9 slack to |R| for parallel edges, so it accepts some boxes that are
// apart by a hair. The AABBs are grown by far more than that (relative to the boxes' size, plus
// round-off relative to their position) so that they never reject a pair obbOverlap accepts:
// update() then returns exactly what bruteForcePairs() does. The growth only adds a few
// obbOverlap calls on pairs that are touching to within a millionth of their size.
constexpr double kSizeSlack = 0.0;
constexpr double kPositionSlack = 0.0;

// The sweep axis changes only when another axis spreads the centres this much more (variance
// ratio): changing it throws away the saved order, and near-ties would otherwise flip it back and
// forth from one step to the next.
constexpr double kAxisSwitchRatio = 1.5;

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

void BroadPhase::reset() {
  haveOrder_ = false;
}

const std::vector<ProxyPair>& BroadPhase::update(const BroadPhaseInput& input) {
  checkInput(input);
  const int n = static_cast<int>(input.boxes.size());
  const std::span<const Obb> boxes = inflate(input.boxes, input.margin, inflated_);
  stats_ = {};
  candidates_.clear();
  if (static_cast<int>(order_.size()) != n) haveOrder_ = false;

  // Enclosing AABBs: the half-width along world axis k is sum_j |axes(k, j)| * halfExtents(j).
  // The centres' spread picks the sweep axis (Ericson, Sec. 7.5.2): the wider the centres are
  // spread along it, the fewer intervals overlap. Sums are taken relative to the first centre so
  // that far-away scenes do not lose the variance to cancellation.
  lo_.resize(n);
  hi_.resize(n);
  const Vector3d origin = n > 0 ? boxes[0].center : Vector3d::Zero();
  Vector3d sum = Vector3d::Zero(), sumSquares = Vector3d::Zero();
  for (int i = 0; i < n; ++i) {
    const Obb& box = boxes[i];
    assert(box.center.allFinite() && box.axes.allFinite() && box.halfExtents.allFinite());
    const double slack =
        kSizeSlack * box.halfExtents.sum() + kPositionSlack * box.center.cwiseAbs().maxCoeff();
    const Vector3d halfWidth = (box.axes.cwiseAbs() * box.halfExtents).array() + slack;
    lo_[i] = box.center - halfWidth;
    hi_[i] = box.center + halfWidth;
    const Vector3d d = box.center - origin;
    sum += d;
    sumSquares += d.cwiseAbs2();
  }
  if (n > 0) {
    const Vector3d variance = sumSquares / n - (sum / n).cwiseAbs2();
    int widest;
    variance.maxCoeff(&widest);
    if (!haveOrder_) {
      axis_ = widest;
    } else if (variance[widest] > kAxisSwitchRatio * variance[axis_]) {
      axis_ = widest;
      haveOrder_ = false;
    }
  }
  stats_.sweepAxis = axis_;

  // Restore the order along the sweep axis: insertion sort on last call's order, which is nearly
  // sorted when bodies moved a little; a full sort when there is no usable order or when so much
  // changed that insertion sort would cost more than n log n.
  if (!haveOrder_) {
    order_.resize(n);
    for (int k = 0; k < n; ++k) order_[k].proxy = k;
  }
  for (SortKey& entry : order_) entry.key = lo_[entry.proxy][axis_];
  const long budget = static_cast<long>(n) * std::bit_width(static_cast<unsigned>(n));
  stats_.fullSort = !haveOrder_ || !insertionSort(order_, budget, stats_.insertionMoves);
  if (stats_.fullSort) {
    std::sort(order_.begin(), order_.end(),
              [](const SortKey& a, const SortKey& b) { return a.key < b.key; });
  }
  haveOrder_ = true;

  const int axis1 = (axis_ + 1) % 3, axis2 = (axis_ + 2) % 3;
  sweep_.resize(n);
  for (int k = 0; k < n; ++k) {
    const int i = order_[k].proxy;
    sweep_[k] = {lo_[i][axis_],
                 hi_[i][axis_],
                 lo_[i][axis1],
                 hi_[i][axis1],
                 lo_[i][axis2],
                 hi_[i][axis2],
                 i,
                 ownerOf(input, i),
                 isStaticProxy(input, i)};
  }

  // The sweep: boxes are in order of their minimum, so the ones overlapping box p on the sweep
  // axis are exactly those after it that start before it ends. Touching counts as overlapping.
  for (int p = 0; p < n; ++p) {
    const SweepEntry& a = sweep_[p];
    for (int q = p + 1; q < n && sweep_[q].lo <= a.hi; ++q) {
      const SweepEntry& b = sweep_[q];
      if (b.lo1 > a.hi1 || a.lo1 > b.hi1 || b.lo2 > a.hi2 || a.lo2 > b.hi2) continue;
      if (a.owner == b.owner || (a.isStatic && b.isStatic)) continue;
      ++stats_.aabbOverlaps;
      if (!obbOverlap(boxes[a.proxy], boxes[b.proxy])) continue;
      candidates_.emplace_back(std::min(a.proxy, b.proxy), std::max(a.proxy, b.proxy));
    }
  }

  sortPairs(candidates_, n, bucket_, pairs_);
  stats_.pairs = static_cast<long>(pairs_.size());
  return pairs_;
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
