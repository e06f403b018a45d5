#include "collision/warm_start.hpp"

namespace hb {

std::string_view toString(WarmStart w) {
  switch (w) {
    case WarmStart::None:
      return "none";
    case WarmStart::ObbCenters:
      return "obb";
    case WarmStart::PreviousSolution:
      return "previous";
    case WarmStart::TransformedPrevious:
      return "transformed";
  }
  return "unknown";
}

PreviousSolution makePreviousSolution(const Pose& poseA, const Pose& poseB,
                                      const Eigen::Vector3d& witnessA,
                                      const Eigen::Vector3d& witnessB,
                                      const Eigen::Vector3d& normal, double signedDistance) {
  PreviousSolution previous;
  // -|d| * normal: for separated shapes this is x* = wA - wB itself; for overlapping ones it is
  // the direction in which the origin leaves D fastest, the useful first support direction.
  previous.separation = -std::abs(signedDistance) * normal;
  if (previous.separation.squaredNorm() == 0.0) previous.separation = -normal;
  previous.witnessALocal = poseA.applyInverse(witnessA);
  previous.witnessBLocal = poseB.applyInverse(witnessB);
  previous.overlapping = signedDistance < 0.0;
  return previous;
}

Eigen::Vector3d initialGuess(WarmStart strategy, const Obb& worldObbA, const Obb& worldObbB,
                             const Pose& poseA, const Pose& poseB,
                             const std::optional<PreviousSolution>& previous) {
  const Eigen::Vector3d obbGuess = worldObbA.center - worldObbB.center;
  switch (strategy) {
    case WarmStart::None:
      return Eigen::Vector3d::UnitX();
    case WarmStart::ObbCenters:
      return obbGuess;
    case WarmStart::PreviousSolution:
      return previous ? previous->separation : obbGuess;
    case WarmStart::TransformedPrevious: {
      if (!previous) return obbGuess;
      // The witness points ride with their bodies from the previous step's poses to these.
      Eigen::Vector3d x =
          poseA.apply(previous->witnessALocal) - poseB.apply(previous->witnessBLocal);
      if (previous->overlapping) x = -x;
      // Touching witnesses (x = 0) carry no direction: keep the previous vector instead.
      return x.squaredNorm() > 0.0 ? x : previous->separation;
    }
  }
  return obbGuess;
}

}  // namespace hb
