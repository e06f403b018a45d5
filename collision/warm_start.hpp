#pragma once
// Initial guesses x0 for GJK, as defined in the GJK++ paper's Sec. IV-E.

#include <Eigen/Core>
#include <optional>
#include <string_view>

#include "collision/obb.hpp"
#include "collision/pose.hpp"

namespace hb {

enum class WarmStart {
  None,                 ///< x0 = (1, 0, 0)
  ObbCenters,           ///< x0 = centre of A's world OBB - centre of B's world OBB
  PreviousSolution,     ///< x0 = the pair's separation vector of the previous step
  TransformedPrevious,  ///< the previous witness points moved with their bodies to this step
};

std::string_view toString(WarmStart w);

/// What a pair remembers of its last narrow-phase solution.
struct PreviousSolution {
  /// Signed separation guess in world coordinates: wA - wB when separated, -(wA - wB) when
  /// overlapping, so that it always points along -normal (from B towards A) with length |d|.
  Eigen::Vector3d separation = Eigen::Vector3d::UnitX();
  /// Witness points in the local frames of A and B at that step.
  Eigen::Vector3d witnessALocal = Eigen::Vector3d::Zero();
  Eigen::Vector3d witnessBLocal = Eigen::Vector3d::Zero();
  bool overlapping = false;
};

/// Builds PreviousSolution from a narrow-phase answer (world witnesses, normal A->B, signed
/// distance) and the poses it was computed at.
PreviousSolution makePreviousSolution(const Pose& poseA, const Pose& poseB,
                                      const Eigen::Vector3d& witnessA,
                                      const Eigen::Vector3d& witnessB,
                                      const Eigen::Vector3d& normal, double signedDistance);

/// x0 for the strategy. Previous and Transformed fall back to ObbCenters without a previous
/// solution.
Eigen::Vector3d initialGuess(WarmStart strategy, const Obb& worldObbA, const Obb& worldObbB,
                             const Pose& poseA, const Pose& poseB,
                             const std::optional<PreviousSolution>& previous);

}  // namespace hb
