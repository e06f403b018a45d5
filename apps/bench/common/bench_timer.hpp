#pragma once
// Timing of sub-microsecond to microsecond calls: a cycle counter (the TSC on x86-64, calibrated
// against steady_clock), the paper's statistic (mean of the lowest 90%), and an optimisation
// barrier so the compiler keeps the timed call.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace hb::bench {

class TickClock {
 public:
  /// Calibrates ticks per microsecond (about 0.1 s) and the cost of an empty measurement.
  TickClock();

  /// Fenced reads: the timed code can neither start before nor finish after them.
  static std::uint64_t now() {
#if defined(__x86_64__)
    _mm_lfence();
    const std::uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
#else
    return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
  }

  /// Microseconds between two now() readings, less the cost of the readings themselves.
  double microseconds(std::uint64_t start, std::uint64_t stop) const {
    const double ticks = static_cast<double>(stop - start) - overheadTicks_;
    return ticks > 0.0 ? ticks / ticksPerMicrosecond_ : 0.0;
  }

  double ticksPerMicrosecond() const {
    return ticksPerMicrosecond_;
  }
  double overheadMicroseconds() const {
    return overheadTicks_ / ticksPerMicrosecond_;
  }
  const char* source() const;

  /// The fastest of `repeats` timed calls of f, in microseconds.
  template <class F>
  double fastest(int repeats, F&& f) const {
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
      const std::uint64_t start = now();
      f();
      const std::uint64_t stop = now();
      best = std::min(best, microseconds(start, stop));
    }
    return best;
  }

 private:
  double ticksPerMicrosecond_ = 1.0;
  double overheadTicks_ = 0.0;
};

/// Mean of the lowest `fraction` of the samples (at least one); reorders them.
double meanOfLowest(std::span<double> samples, double fraction);

/// The median of the samples (the mean of the two middle ones for an even count); NaN for none.
double median(std::vector<double> samples);

/// The mean of the samples; NaN for none.
double mean(const std::vector<double>& samples);

/// Keeps `value` (and the computation producing it) alive without any run-time cost.
template <class T>
inline void doNotOptimize(const T& value) {
  asm volatile("" : : "r"(&value) : "memory");
}

}  // namespace hb::bench
