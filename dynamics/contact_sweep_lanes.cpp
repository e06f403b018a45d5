// A sweep of a colour group in SIMD lanes, the soft step's or the rigid schedule's: the manifolds
// of a colour share no moving body, so their visits commute, and two, four or eight of them (a
// bundle) are visited at once, point p of each in one lane (lane_sweep.inl). Each lane repeats the
// scalar sweep's operations, so the states are the same bits with any number of lanes, on any CPU
// (ContactSolverOptions::sweepLanes; tests/dynamics/test_contact_sweep_lanes.cpp).

#include <immintrin.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "dynamics/contact_solver.hpp"

// Lanes pass by value only within this file, all inlined: GCC's note that a 32-byte vector's
// calling convention depends on AVX concerns no interface.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace hb {

namespace lanes2 {
constexpr int W = 2;
using Lanes = LaneTypes<W>::Lanes;
[[gnu::always_inline]] inline Lanes sqrtOf(Lanes x) {
  return reinterpret_cast<Lanes>(_mm_sqrt_pd(reinterpret_cast<__m128d>(x)));
}
#include "dynamics/lane_sweep.inl"
}  // namespace lanes2

// Everything defined from here to the end of lanes4 is compiled for AVX, and lanes8 for
// AVX-512F.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx")
#endif
namespace lanes4 {
constexpr int W = 4;
using Lanes = LaneTypes<W>::Lanes;
[[gnu::always_inline]] inline Lanes sqrtOf(Lanes x) {
  return reinterpret_cast<Lanes>(_mm256_sqrt_pd(reinterpret_cast<__m256d>(x)));
}
#include "dynamics/lane_sweep.inl"
}  // namespace lanes4
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f")
#endif
namespace lanes8 {
constexpr int W = 8;
using Lanes = LaneTypes<W>::Lanes;
[[gnu::always_inline]] inline Lanes sqrtOf(Lanes x) {
  const __m512d v = reinterpret_cast<__m512d>(x);
  return reinterpret_cast<Lanes>(_mm512_mask_sqrt_pd(v, static_cast<__mmask8>(0xff), v));
}
#include "dynamics/lane_sweep.inl"
}  // namespace lanes8
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

double sweepLaneBundle2(const LaneBundle& bundle, LanePoint<2>* points, SolverBody* bodies,
                        SoftBody* softBodies, const LaneSweepSettings& settings) {
  return settings.rigid ? lanes2::sweep<true>(bundle, points, bodies, softBodies, settings)
                        : lanes2::sweep<false>(bundle, points, bodies, softBodies, settings);
}

double sweepLaneBundle4(const LaneBundle& bundle, LanePoint<4>* points, SolverBody* bodies,
                        SoftBody* softBodies, const LaneSweepSettings& settings) {
  return settings.rigid ? lanes4::sweep<true>(bundle, points, bodies, softBodies, settings)
                        : lanes4::sweep<false>(bundle, points, bodies, softBodies, settings);
}

double sweepLaneBundle8(const LaneBundle& bundle, LanePoint<8>* points, SolverBody* bodies,
                        SoftBody* softBodies, const LaneSweepSettings& settings) {
  return settings.rigid ? lanes8::sweep<true>(bundle, points, bodies, softBodies, settings)
                        : lanes8::sweep<false>(bundle, points, bodies, softBodies, settings);
}

int widestLanes() {
  static const int widest = __builtin_cpu_supports("avx512f") ? 8
                            : __builtin_cpu_supports("avx")   ? 4
                                                              : 2;
  return widest;
}

namespace {

/// Point p of `row` into lane l.
template <int W, typename Row>
void loadLane(const Row& row, int l, LanePoint<W>& lanes) {
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < 3; ++j) {
      lanes.direction[k][j][l] = row.direction[k][j];
      lanes.armA[k][j][l] = row.armA[k][j];
      lanes.armB[k][j][l] = row.armB[k][j];
      lanes.turnA[k][j][l] = row.turnA[k][j];
      lanes.turnB[k][j][l] = row.turnB[k][j];
      lanes.delassusInverse[k][j][l] = row.response.delassusInverse[k][j];
    }
    lanes.impulse[k][l] = row.impulse[k];
  }
  lanes.normalMass[l] = row.response.normalMass;
  lanes.normalToTangent[0][l] = row.response.normalToTangent[0];
  lanes.normalToTangent[1][l] = row.response.normalToTangent[1];
  lanes.tangentStep[l] = row.response.tangentStep;
  lanes.friction[l] = row.friction;
  lanes.separation[l] = row.separation;
  lanes.slop[l] = row.slop;
  lanes.target[l] = row.targetNormalVelocity;
  lanes.largestNormalImpulse[l] = row.largestNormalImpulse;
}

}  // namespace

void ContactSolver::checkLanes(int lanes) {
  if (lanes != 0 && lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8) {
    throw std::invalid_argument("ContactSolverOptions::sweepLanes is " + std::to_string(lanes) +
                                ": it must be 0 (the CPU's widest), 1, 2, 4 or 8");
  }
}

void ContactSolver::buildLanes() {
  bundles_.clear();
  groupBundles_.assign(colourGroups_.size() + 1, 0);
  const int lanes = options_.sweepLanes;
  laneWidth_ = lanes == 0 ? widestLanes() : std::min(lanes, widestLanes());
  // Visits of several passes read the manifold's Delassus matrix (solvePasses): one by one.
  const bool inLanes = laneWidth_ > 1 && options_.manifoldIterations == 1;
  int points = 0;
  for (std::size_t g = 0; g < colourGroups_.size(); ++g) {
    groupBundles_[g] = static_cast<int>(bundles_.size());
    const ColourGroup& group = colourGroups_[g];
    // The leftover group's manifolds may share bodies: swept one by one (sweepGroup).
    if (group.shared || !inLanes) continue;
    // The manifolds with the most points first, so that a bundle's lanes have as many points
    // (a colour's visits commute: their order within it changes no bit).
    laneOrder_.clear();
    for (int count = NormalBlock::kMaxPoints; count >= 1; --count) {
      for (int q = group.first; q < group.first + group.count; ++q) {
        if (manifolds_[islandManifolds_[q]].count == count) {
          laneOrder_.push_back(islandManifolds_[q]);
        }
      }
    }
    const std::size_t width = laneWidth_;
    for (std::size_t q = 0; q < laneOrder_.size(); q += width) {
      LaneBundle bundle;
      bundle.firstPoint = points;
      bundle.points = manifolds_[laneOrder_[q]].count;
      for (std::size_t l = 0; l < width; ++l) {
        const bool used = q + l < laneOrder_.size();
        const int k = laneOrder_[used ? q + l : q];
        const Row& first = rows_[manifolds_[k].first];
        bundle.manifold[l] = used ? k : -1;
        bundle.count[l] = used ? manifolds_[k].count : 0;
        bundle.bodyA[l] = first.bodyA;
        bundle.bodyB[l] = first.bodyB;
        bundle.movesA[l] = used && moves_[first.bodyA];
        bundle.movesB[l] = used && moves_[first.bodyB];
      }
      points += bundle.points;
      bundles_.push_back(bundle);
    }
  }
  groupBundles_.back() = static_cast<int>(bundles_.size());
  // The rows, transposed into lanes on the workers.
  const auto load = [&]<int W>(std::vector<LanePoint<W>>& lanePoints) {
    lanePoints.resize(points);
    parallelFor_(bundles_.size(), [&](std::size_t index) {
      const LaneBundle& bundle = bundles_[index];
      for (int p = 0; p < bundle.points; ++p) {
        LanePoint<W>& lanes = lanePoints[bundle.firstPoint + p];
        lanes = LanePoint<W>{};
        for (int l = 0; l < W; ++l) {
          if (p < bundle.count[l])
            loadLane(rows_[manifolds_[bundle.manifold[l]].first + p], l, lanes);
        }
      }
    });
  };
  if (laneWidth_ == 8) {
    load(lanePoints8_);
  } else if (laneWidth_ == 4) {
    load(lanePoints4_);
  } else {
    load(lanePoints2_);
  }
  laneSettings_.substep = softSubstep_;
  laneSettings_.movingBiasRate = softMoving_.biasRate;
  laneSettings_.movingA2 = softMoving_.a2;
  laneSettings_.fixedBiasRate = softFixed_.biasRate;
  laneSettings_.fixedA2 = softFixed_.a2;
  laneSettings_.maxCorrectionVelocity = options_.maxCorrectionVelocity;
}

double ContactSolver::sweepBundle(int index) {
  LaneSweepSettings settings = laneSettings_;
  settings.push = softSweep_ == SoftSweep::Push;
  settings.rigid = softSweep_ == SoftSweep::None;
  const LaneBundle& bundle = bundles_[index];
  if (laneWidth_ == 8) {
    return sweepLaneBundle8(bundle, &lanePoints8_[bundle.firstPoint], solverBodies_.data(),
                            softBodies_.data(), settings);
  }
  if (laneWidth_ == 4) {
    return sweepLaneBundle4(bundle, &lanePoints4_[bundle.firstPoint], solverBodies_.data(),
                            softBodies_.data(), settings);
  }
  return sweepLaneBundle2(bundle, &lanePoints2_[bundle.firstPoint], solverBodies_.data(),
                          softBodies_.data(), settings);
}

void ContactSolver::unloadLanes(int begin, int end) {
  const auto unload = [&]<int W>(const std::vector<LanePoint<W>>& lanePoints) {
    for (int index = begin; index < end; ++index) {
      const LaneBundle& bundle = bundles_[index];
      for (int l = 0; l < W; ++l) {
        for (int p = 0; p < bundle.count[l]; ++p) {
          const LanePoint<W>& lanes = lanePoints[bundle.firstPoint + p];
          Row& row = rows_[manifolds_[bundle.manifold[l]].first + p];
          for (int k = 0; k < 3; ++k) row.impulse[k] = lanes.impulse[k][l];
          row.largestNormalImpulse = lanes.largestNormalImpulse[l];
        }
      }
    }
  };
  if (laneWidth_ == 8) {
    unload(lanePoints8_);
  } else if (laneWidth_ == 4) {
    unload(lanePoints4_);
  } else {
    unload(lanePoints2_);
  }
}

}  // namespace hb
