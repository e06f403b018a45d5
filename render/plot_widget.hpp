#pragma once
// The statistics panel's plots, drawn with ImGui's draw lists (ImPlot is not packaged in Debian
// 12): axes with ticks at round values and their units, a time axis, and the value under the
// mouse.

#include "render/statistics_history.hpp"

namespace hb {

/// The Series as a line from 0 up: y ticks in `unit`, the x axis in seconds before now
/// (`secondsPerSample` apart, the newest at the right), the value under the mouse in a tooltip.
void seriesPlot(const char* id, const Series& series, const char* unit, double secondsPerSample,
                float width, float height);

/// Bars of `count` bins (bin i: i iterations, the last one: that many or more), x ticks every
/// `xTickEvery` bins, y ticks in counts, the bin under the mouse in a tooltip.
void histogramPlot(const char* id, const float* bins, int count, int xTickEvery, float width,
                   float height);

}  // namespace hb
