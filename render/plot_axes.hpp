#pragma once
// Axes for the statistics panel's plots: ticks at round values (1, 2 or 5 times a power of ten),
// so that a reader sees the scale and units of what is plotted.

#include <vector>

namespace hb {

/// The round tick step that splits [0, extent] into at most `maxTicks` intervals: 1, 2 or 5
/// times a power of ten, the smallest such step that does. extent <= 0 gives 1.
double niceTickStep(double extent, int maxTicks);

/// The axis [0, top] for values up to `largest`: top a whole number of steps, with the ticks
/// 0, step, ..., top.
struct AxisTicks {
  double top = 1.0;
  double step = 1.0;
  std::vector<double> ticks;
};
AxisTicks axisTicks(double largest, int maxTicks);

}  // namespace hb
