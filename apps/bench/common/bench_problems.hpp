#pragma once
// Collision problems of the GJK++ benchmark protocol (Montaut et al., T-RO 2024, Sec. IV): random
// relative poses of a pair of shapes, then B slid along the separation axis so that the signed
// distance takes each requested value.

#include <Eigen/Geometry>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "apps/bench/common/bench_shapes.hpp"
#include "collision/pose.hpp"

namespace hb::bench {

struct ShapePair {
  int a = 0;
  int b = 0;
};

/// `count` distinct unordered pairs of different shapes drawn at random, or all of them (in order)
/// when there are no more than `count`.
std::vector<ShapePair> chooseShapePairs(int numShapes, int count, std::mt19937_64& rng);

struct Problem {
  int a = 0;  ///< shape indices
  int b = 0;
  Pose poseA;
  Pose poseB;
  /// The paper's initial guess: centre of A's world OBB minus centre of B's.
  Eigen::Vector3d x0 = Eigen::Vector3d::UnitX();
  int bucket = 0;         ///< index of the target among the requested distances
  double target = 0.0;    ///< requested signed distance (metres)
  double achieved = 0.0;  ///< signed distance of the placed pair, by the reference solver
};

/// Uniformly distributed rotation (Shoemake's subgroup algorithm).
Eigen::Quaterniond uniformRotation(std::mt19937_64& rng);
/// Uniformly distributed unit vector.
Eigen::Vector3d uniformDirection(std::mt19937_64& rng);

enum class Placement {
  /// The signed distance equals the target; a penetration deeper than the pair allows along the
  /// sliding axis (a 3 cm ball cannot sink 10 cm into anything) gives no problem.
  Exact,
  /// B slides |target| past the touching position (the paper's wording); for targets < 0 the
  /// true signed distance (Problem::achieved) may be shallower, even positive if B came out on
  /// the other side.
  Nominal,
};

/// Draws one random relative pose of the pair (uniform rotations, uniform translation direction,
/// shapes apart) and slides B along the axis of the closest points to each target. Returns
/// nothing when the reference solver fails at that pose (draw another), else one problem per
/// placed target, in the order of `targets`.
std::optional<std::vector<Problem>> makePoseProblems(std::span<const BenchShape> shapes,
                                                     ShapePair pair,
                                                     std::span<const double> targets,
                                                     Placement placement, std::mt19937_64& rng);

}  // namespace hb::bench
