#include "apps/viewer/simulation_clock.hpp"

#include <cmath>

namespace hb::viewer {

int SimulationClock::advance(double wallSeconds, double timeScale) {
  accumulator_ += wallSeconds * timeScale;
  int steps = static_cast<int>(std::floor(accumulator_ / dt_ + 1e-9));
  fellBehind_ = steps > maxSteps_;
  if (fellBehind_) {
    steps = maxSteps_;
    accumulator_ = 0.0;
  } else {
    accumulator_ -= steps * dt_;
  }
  return steps;
}

void RealTimeMeter::add(double wallSeconds, double simulatedSeconds) {
  wall_ += wallSeconds;
  simulated_ += simulatedSeconds;
  if (wall_ >= 0.5) {
    factor_ = simulated_ / wall_;
    wall_ = 0.0;
    simulated_ = 0.0;
  }
}

}  // namespace hb::viewer
