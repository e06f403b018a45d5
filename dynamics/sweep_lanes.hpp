#pragma once
// Manifolds of one colour side by side, as the sweeps solve them in SIMD lanes
// (dynamics/contact_sweep_lanes.cpp): each field of a point holds one double per manifold
// (structure of arrays), so that one instruction updates the same point of several manifolds.

#include "dynamics/solver_body.hpp"

namespace hb {

/// What the soft step keeps per body besides its velocities (SolverBody): how far it moved
/// (linear) and turned (angular, a rotation vector to first order) since the step began, and the
/// velocity change the contacts' current impulses make (a substep's warm start).
struct SoftBody {
  double movedLinear[3] = {0, 0, 0}, movedAngular[3] = {0, 0, 0};
  double carriedLinear[3] = {0, 0, 0}, carriedAngular[3] = {0, 0, 0};
};

/// Lanes at most: eight doubles, one AVX-512 register.
inline constexpr int kMostLanes = 8;

/// W doubles, one per lane, and a comparison's result (all ones or zero per lane). GCC lowers
/// their arithmetic to the vector instructions of the code that uses them: W = 2 is one SSE2
/// register (x86-64-v2, any x86-64 CPU), W = 4 one AVX register and W = 8 one AVX-512
/// register, for the CPUs that have them. Each
/// lane takes the same IEEE operations in the same order as the scalar code, so it gives the
/// same bits (no fused multiply-add: the build passes -ffp-contract=off). Aligned to 16 bytes
/// only, so that no code compiled for SSE2 relies on a 32-byte alignment of its stack (the
/// points themselves are stored on cache lines).
template <int W>
struct LaneTypes;
template <>
struct LaneTypes<2> {
  using Lanes = double __attribute__((vector_size(16)));
  using Mask = long long __attribute__((vector_size(16)));
};
template <>
struct LaneTypes<4> {
  using Lanes = double __attribute__((vector_size(32), aligned(16)));
  using Mask = long long __attribute__((vector_size(32), aligned(16)));
};
template <>
struct LaneTypes<8> {
  using Lanes = double __attribute__((vector_size(64), aligned(16)));
  using Mask = long long __attribute__((vector_size(64), aligned(16)));
};

/// Point p of the W manifolds of a bundle: what the soft sweep reads of its row (the names of
/// ContactSolver::Row) and the impulses it updates. What decides whether a manifold is idle
/// comes first: an idle bundle's visit reads little more than its first cache lines. On whole
/// cache lines, so that no lane's load straddles two.
template <int W>
struct alignas(64) LanePoint {
  using Lanes = typename LaneTypes<W>::Lanes;
  Lanes impulse[3], separation, slop, normalMass;
  Lanes target;  // a rigid sweep's target normal velocity (Row::targetNormalVelocity)
  Lanes direction[3][3], armA[3][3], armB[3][3], turnA[3][3], turnB[3][3];
  Lanes delassusInverse[3][3], normalToTangent[2], tangentStep, friction, largestNormalImpulse;
};

/// Up to kMostLanes manifolds of one colour group (no two share a moving body), their points
/// at firstPoint on. An empty lane has count 0 and repeats lane 0's bodies, which it reads and
/// never writes.
struct LaneBundle {
  int firstPoint = 0;
  int points = 0;  // the most points of its manifolds
  int manifold[kMostLanes] = {};
  int count[kMostLanes] = {};
  int bodyA[kMostLanes] = {}, bodyB[kMostLanes] = {};
  bool movesA[kMostLanes] = {}, movesB[kMostLanes] = {};
};

/// What a soft sweep's targets are made of (ContactSolver::setSoftTarget).
struct LaneSweepSettings {
  bool rigid = false;  // a sweep of the rigid schedule: the rows' own targets, nothing carried
  bool push = false;   // a Push sweep: penetrating rows soft and pushing out
  double substep = 0.0;
  double movingBiasRate = 0.0, movingA2 = 0.0;  // the spring between moving bodies
  double fixedBiasRate = 0.0, fixedA2 = 0.0;    // and against a body that does not move
  double maxCorrectionVelocity = 0.0;
};

/// The visit of a bundle's manifolds at once (lane_sweep.inl): their points' impulses and
/// their bodies' velocities and carried changes updated; returns the largest change, as
/// ContactSolver::solvePointByPoint measures it.
double sweepLaneBundle2(const LaneBundle& bundle, LanePoint<2>* points, SolverBody* bodies,
                        SoftBody* softBodies, const LaneSweepSettings& settings);
double sweepLaneBundle4(const LaneBundle& bundle, LanePoint<4>* points, SolverBody* bodies,
                        SoftBody* softBodies, const LaneSweepSettings& settings);
double sweepLaneBundle8(const LaneBundle& bundle, LanePoint<8>* points, SolverBody* bodies,
                        SoftBody* softBodies, const LaneSweepSettings& settings);
/// The most lanes this CPU's sweep runs: 8 with AVX-512F, 4 with AVX, else 2.
int widestLanes();

}  // namespace hb
