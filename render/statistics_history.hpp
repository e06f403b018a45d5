#pragma once
// Recent history of the simulation and the frames for the statistics panel's plots: per-step
// series (narrow-phase time, GJK iterations, ...), a histogram of GJK iterations per call over
// the last steps, and per-frame timings. Fixed-size rings, no allocation after construction.

#include <array>
#include <cstddef>
#include <vector>

namespace hb {

class World;

/// The last N values in a ring; PlotLines takes (data(), size(), offset()).
class Series {
 public:
  explicit Series(int capacity) : values_(static_cast<std::size_t>(capacity), 0.0f) {}
  void add(float v);
  void clear();
  const float* data() const { return values_.data(); }
  int size() const { return static_cast<int>(values_.size()); }
  /// Index of the oldest value.
  int offset() const { return next_; }
  int count() const { return count_; }
  float latest() const;
  float mean() const;
  float max() const;

 private:
  std::vector<float> values_;
  int next_ = 0;
  int count_ = 0;
};

class StatisticsHistory {
 public:
  static constexpr int kSteps = 360;           ///< plotted steps (3 s at 120 Hz)
  static constexpr int kHistogramSteps = 120;  ///< steps pooled in the histogram (1 s)
  static constexpr int kHistogramBins = 40;    ///< 0, 1, ..., 38 and >= 39 iterations

  StatisticsHistory();
  /// Reads World::lastStep() and World::narrowPhaseRecords() after a step.
  void addStep(const World& world);
  void addFrame(float frameMs, float renderMs, int steps);
  void clear();

  Series narrowPhaseMs{kSteps};
  Series stepMs{kSteps};
  Series gjkIterationsPerStep{kSteps};
  Series gjkMeanIterations{kSteps};
  Series contacts{kSteps};
  Series frameMs{kSteps};
  Series renderMs{kSteps};
  Series stepsPerFrame{kSteps};
  /// Calls per iteration count, pooled over the last kHistogramSteps steps.
  const std::array<float, kHistogramBins>& histogram() const { return histogram_; }

 private:
  using Bins = std::array<int, kHistogramBins>;
  std::vector<Bins> perStep_;  // ring of kHistogramSteps
  int nextStep_ = 0;
  std::array<int, kHistogramBins> totals_{};
  std::array<float, kHistogramBins> histogram_{};
};

}  // namespace hb
