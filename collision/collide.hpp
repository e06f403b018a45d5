#pragma once
// The narrow-phase query of one pair: GJK on the cores, then the signed distance, normal and
// witness points of the full shapes (EPA only when the cores overlap).

#include <Eigen/Core>
#include <optional>

#include "collision/epa.hpp"
#include "collision/gjk.hpp"
#include "collision/rtr.hpp"
#include "collision/warm_simplex.hpp"

namespace hb {

/// How the penetration depth is found once the cores overlap.
enum class DepthMethod {
  Auto,  ///< RTR when both shapes have a twice differentiable support (rtr.hpp), else EPA
  Epa,
  Rtr,  ///< RTR; a pair without smooth supports falls back to EPA
};

struct CollisionOptions {
  GjkOptions gjk;
  EpaOptions epa;
  DepthMethod depthMethod = DepthMethod::Auto;
  RtrOptions rtr;
  /// Compute the penetration depth with EPA when the cores overlap (off: Boolean answer only).
  bool computePenetration = true;
};

struct CollisionResult {
  bool collide = false;
  /// Signed distance of the full shapes (metres): > 0 apart, < 0 penetration depth.
  double distance = 0.0;
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();   ///< world, unit, from A towards B
  Eigen::Vector3d witnessA = Eigen::Vector3d::Zero();  ///< world
  Eigen::Vector3d witnessB = Eigen::Vector3d::Zero();  ///< world
  GjkStatus gjkStatus = GjkStatus::InvalidInput;
  int gjkIterations = 0;
  std::optional<EpaStatus> epaStatus;  ///< set when EPA ran
  int epaIterations = 0;
  std::optional<RtrStatus> rtrStatus;  ///< set when RTR ran
  int rtrIterations = 0;
  SupportHints hints;
  /// GJK's last simplex, kept for the pair's next query (collide's `warm`).
  WarmSimplex simplex;
  /// True when the answer is trustworthy: GJK converged and EPA (if run) did too or stopped on
  /// a cap with a usable answer.
  bool ok() const {
    return gjkStatus == GjkStatus::Separated || gjkStatus == GjkStatus::Intersecting;
  }
};

/// `warm`: the pair's simplex from its last query (CollisionResult::simplex), which GJK then
/// starts from (gjk.hpp); null or empty: x0 alone.
CollisionResult collide(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                        const Eigen::Vector3d& initialGuess, const CollisionOptions& options,
                        SupportHints hints = {}, const WarmSimplex* warm = nullptr);

}  // namespace hb
