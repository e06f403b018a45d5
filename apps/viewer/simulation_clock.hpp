#pragma once
// Fixed-step simulation under a variable frame rate: wall time (scaled) accumulates and is
// spent in whole steps of dt. When more steps are due than a frame may run, the backlog is
// dropped: the simulation slows down instead of spiralling into ever longer frames.

namespace hb::viewer {

class SimulationClock {
 public:
  SimulationClock(double dt, int maxStepsPerFrame) : dt_(dt), maxSteps_(maxStepsPerFrame) {}

  /// Steps to run for `wallSeconds` of elapsed time at `timeScale`.
  int advance(double wallSeconds, double timeScale);
  /// True when the last advance() dropped time.
  bool fellBehind() const { return fellBehind_; }
  void reset() { accumulator_ = 0.0; }
  double dt() const { return dt_; }

 private:
  double dt_;
  int maxSteps_;
  double accumulator_ = 0.0;
  bool fellBehind_ = false;
};

/// Simulated time over wall time, averaged over windows of about half a second.
class RealTimeMeter {
 public:
  void add(double wallSeconds, double simulatedSeconds);
  double factor() const { return factor_; }

 private:
  double wall_ = 0.0, simulated_ = 0.0;
  double factor_ = 1.0;
};

}  // namespace hb::viewer
