#include "apps/bench/sim/rest_window.hpp"

#include <algorithm>
#include <stdexcept>

namespace hb::sim {

RestWindow::RestWindow(double dt, double settleDistance, Eigen::Vector3d boundsMin,
                       Eigen::Vector3d boundsMax)
    : dt_(dt), settleDistance_(settleDistance), boundsMin_(boundsMin), boundsMax_(boundsMax) {
  if (!(dt > 0.0) || !(settleDistance > 0.0)) {
    throw std::invalid_argument("rest window: dt and the settle distance must be positive");
  }
}

void RestWindow::begin(std::span<const Eigen::Vector3d> positions) {
  start_.assign(positions.begin(), positions.end());
  last_ = start_;
  path_.assign(start_.size(), 0.0);
  steps_ = 0;
}

void RestWindow::add(std::span<const Eigen::Vector3d> positions) {
  if (positions.size() < last_.size()) {
    throw std::invalid_argument("rest window: fewer bodies than at the window's start");
  }
  for (size_t i = 0; i < last_.size(); ++i) {
    path_[i] += (positions[i] - last_[i]).norm();
    last_[i] = positions[i];
  }
  ++steps_;
}

RestStats RestWindow::finish() const {
  RestStats out;
  out.candidates = static_cast<int>(start_.size());
  out.windowSteps = steps_;
  if (steps_ == 0) return out;
  double sum = 0.0;
  for (size_t i = 0; i < start_.size(); ++i) {
    const Eigen::Vector3d& p = last_[i];
    const bool inside = p.allFinite() && (p.array() >= boundsMin_.array()).all() &&
                        (p.array() <= boundsMax_.array()).all();
    if (!inside || !((p - start_[i]).norm() < settleDistance_)) continue;
    const double speed = path_[i] / (steps_ * dt_);
    ++out.settled;
    sum += speed;
    out.maxJitter = std::max(out.maxJitter, speed);
  }
  out.meanJitter = out.settled > 0 ? sum / out.settled : 0.0;
  return out;
}

}  // namespace hb::sim
