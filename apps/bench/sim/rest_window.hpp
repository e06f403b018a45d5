#pragma once
// Which bodies came to rest in the final window of a run, and how much the resting ones still
// move. Works on centre-of-mass positions only (whatever the engine), one per step.
//
// A body is settled when it was in the scene for the whole window, its centre of mass ended
// less than `settleDistance` from where it started the window, and it is inside the scene's
// bounds. Its resting jitter is its mean speed over the window, taken from the displacement of
// every step (|p_k - p_(k-1)| / dt): position corrections that no velocity shows (split
// impulses, soft-contact drift) count too.

#include <Eigen/Core>
#include <span>
#include <vector>

namespace hb::sim {

struct RestStats {
  int candidates = 0;  ///< bodies present for the whole window
  int settled = 0;
  double meanJitter = 0.0;  ///< m/s, mean over settled bodies of their mean speed
  double maxJitter = 0.0;   ///< m/s, the largest settled body's mean speed
  int windowSteps = 0;
};

class RestWindow {
 public:
  RestWindow(double dt, double settleDistance, Eigen::Vector3d boundsMin,
             Eigen::Vector3d boundsMax);

  /// Centre-of-mass positions at the window's start; bodies dropped later are ignored.
  void begin(std::span<const Eigen::Vector3d> positions);
  /// Positions after each step of the window (at least as many bodies as at begin()).
  void add(std::span<const Eigen::Vector3d> positions);
  RestStats finish() const;

 private:
  double dt_;
  double settleDistance_;
  Eigen::Vector3d boundsMin_, boundsMax_;
  std::vector<Eigen::Vector3d> start_, last_;
  std::vector<double> path_;  // m travelled by each body over the window
  int steps_ = 0;
};

}  // namespace hb::sim
