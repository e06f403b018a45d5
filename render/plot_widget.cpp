#include "render/plot_widget.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "render/plot_axes.hpp"

namespace hb {
namespace {

constexpr ImU32 kBackground = IM_COL32(28, 30, 36, 255);
constexpr ImU32 kGrid = IM_COL32(70, 74, 84, 255);
constexpr ImU32 kLine = IM_COL32(110, 180, 255, 255);
constexpr ImU32 kText = IM_COL32(185, 190, 200, 255);
constexpr int kYTicks = 3;

/// Where the data goes inside the item: room on the left for y labels, below for x labels.
struct PlotArea {
  ImVec2 min, max;
  float x(double fraction) const { return min.x + static_cast<float>(fraction) * (max.x - min.x); }
  float y(double fraction) const { return max.y - static_cast<float>(fraction) * (max.y - min.y); }
};

std::string tickLabel(double value, const char* unit) {
  char text[32];
  std::snprintf(text, sizeof text, "%g%s%s", value, unit[0] ? " " : "", unit);
  return text;
}

/// Reserves the item, draws its frame and the y axis (0 .. top with round ticks); returns the
/// data area and the axis.
PlotArea beginPlot(const char* id, float width, float height, double largest, const char* unit,
                   AxisTicks& axis) {
  axis = axisTicks(largest, kYTicks);
  float labelWidth = 0.0f;
  for (const double t : axis.ticks) {
    labelWidth = std::max(labelWidth, ImGui::CalcTextSize(tickLabel(t, unit).c_str()).x);
  }
  const float lineHeight = ImGui::GetTextLineHeight();
  ImGui::InvisibleButton(id, ImVec2(width, height));
  const ImVec2 origin = ImGui::GetItemRectMin();
  PlotArea area{ImVec2(origin.x + labelWidth + 6.0f, origin.y + 0.5f * lineHeight),
                ImVec2(origin.x + width - 4.0f, origin.y + height - lineHeight - 2.0f)};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(area.min, area.max, kBackground);
  for (const double t : axis.ticks) {
    const float y = area.y(t / axis.top);
    draw->AddLine(ImVec2(area.min.x, y), ImVec2(area.max.x, y), kGrid);
    const std::string label = tickLabel(t, unit);
    draw->AddText(
        ImVec2(area.min.x - 4.0f - ImGui::CalcTextSize(label.c_str()).x, y - 0.5f * lineHeight),
        kText, label.c_str());
  }
  return area;
}

void xTick(const PlotArea& area, double fraction, const char* label) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float x = area.x(fraction);
  draw->AddLine(ImVec2(x, area.min.y), ImVec2(x, area.max.y), kGrid);
  const float w = ImGui::CalcTextSize(label).x;
  const float left = std::clamp(x - 0.5f * w, area.min.x - 20.0f, area.max.x - w + 4.0f);
  draw->AddText(ImVec2(left, area.max.y + 1.0f), kText, label);
}

/// Which of `count` equal slots of the area the mouse is over, if any.
int hoveredSlot(const PlotArea& area, int count) {
  if (!ImGui::IsItemHovered() || count <= 0) return -1;
  const float fraction = (ImGui::GetIO().MousePos.x - area.min.x) / (area.max.x - area.min.x);
  if (fraction < 0.0f || fraction >= 1.0f) return -1;
  return std::min(count - 1, static_cast<int>(fraction * static_cast<float>(count)));
}

}  // namespace

void seriesPlot(const char* id, const Series& series, const char* unit, double secondsPerSample,
                float width, float height) {
  AxisTicks axis;
  const PlotArea area = beginPlot(id, width, height, 1.05 * series.max(), unit, axis);
  // Time ticks at round seconds before now, over the whole ring (full or not).
  const int slots = series.size();
  const double span = slots * secondsPerSample;
  const double step = niceTickStep(span, 4);
  for (double t = 0.0; t <= span + 1e-9; t += step) {
    char label[24];
    std::snprintf(label, sizeof label, t == 0.0 ? "now" : "-%g s", t);
    xTick(area, 1.0 - t / span, label);
  }
  // The newest sample at the right edge; samples before the ring filled are not drawn.
  const int count = series.count();
  const float* data = series.data();
  const auto value = [&](int age) {  // age 0: the newest
    return data[(series.offset() + slots - 1 - age) % slots];
  };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->PushClipRect(area.min, area.max, true);
  for (int age = 0; age + 1 < count; ++age) {
    const ImVec2 a(area.x(1.0 - (age + 0.5) / slots), area.y(value(age) / axis.top));
    const ImVec2 b(area.x(1.0 - (age + 1.5) / slots), area.y(value(age + 1) / axis.top));
    draw->AddLine(a, b, kLine, 1.5f);
  }
  draw->PopClipRect();
  const int slot = hoveredSlot(area, slots);
  const int age = slots - 1 - slot;
  if (slot >= 0 && age < count) {
    ImGui::SetTooltip("%.2f s ago: %g %s", age * secondsPerSample, value(age), unit);
  }
}

void histogramPlot(const char* id, const float* bins, int count, int xTickEvery, float width,
                   float height) {
  float largest = 0.0f;
  for (int i = 0; i < count; ++i) largest = std::max(largest, bins[i]);
  AxisTicks axis;
  const PlotArea area = beginPlot(id, width, height, std::max(1.0f, largest), "", axis);
  for (int i = 0; i < count; i += xTickEvery) {
    char label[16];
    std::snprintf(label, sizeof label, "%d", i);
    xTick(area, (i + 0.5) / count, label);
  }
  char last[16];
  std::snprintf(last, sizeof last, "%d+", count - 1);
  xTick(area, (count - 0.5) / count, last);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int i = 0; i < count; ++i) {
    if (bins[i] <= 0.0f) continue;
    draw->AddRectFilled(
        ImVec2(area.x(static_cast<double>(i) / count) + 1.0f, area.y(bins[i] / axis.top)),
        ImVec2(area.x(static_cast<double>(i + 1) / count) - 1.0f, area.max.y), kLine);
  }
  const int slot = hoveredSlot(area, count);
  if (slot >= 0) {
    ImGui::SetTooltip("%d%s iterations: %.0f calls", slot, slot == count - 1 ? "+" : "",
                      bins[slot]);
  }
}

}  // namespace hb
