#include "render/plot_axes.hpp"

#include <cmath>

namespace hb {

double niceTickStep(double extent, int maxTicks) {
  if (!(extent > 0.0) || !std::isfinite(extent) || maxTicks < 1) return 1.0;
  const double rough = extent / maxTicks;
  const double decade = std::pow(10.0, std::floor(std::log10(rough)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= rough * (1.0 - 1e-12)) return m * decade;
  }
  return 10.0 * decade;
}

AxisTicks axisTicks(double largest, int maxTicks) {
  AxisTicks axis;
  axis.step = niceTickStep(largest, maxTicks);
  const double intervals = std::max(1.0, std::ceil(largest / axis.step - 1e-9));
  axis.top = intervals * axis.step;
  for (int i = 0; i <= static_cast<int>(intervals); ++i) axis.ticks.push_back(i * axis.step);
  return axis;
}

}  // namespace hb
