// Statistics window: counts of the last step, time per stage, plots of the narrow phase's time
// and GJK iterations per step, and the histogram of GJK iterations per call.

#include <imgui.h>

#include <cfloat>
#include <cstdio>

#include "render/panels.hpp"

namespace hb {
namespace {

/// Plots fill the window's fixed content width (auto-resizing windows have no width to fill).
constexpr float kPlotWidth = 318.0f;

void plot(const char* label, const Series& s, const char* format, float height = 46.0f) {
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, format, s.latest(), s.mean());
  ImGui::PlotLines(label, s.data(), s.size(), s.offset(), overlay, 0.0f, 1.15f * s.max() + 1e-6f,
                   ImVec2(kPlotWidth, height));
}

}  // namespace

void statisticsPanel(const World& world, const StatisticsHistory& history,
                     const RenderStatistics& render, const SimulationControls& simulation) {
  ImGui::Begin("Statistics", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
  const StepStatistics& s = world.lastStep();
  ImGui::Text("bodies %d (awake %d)   pairs %d", s.bodies, s.awakeBodies, s.candidatePairs);
  ImGui::Text("GJK calls %d   EPA calls %d   contacts %d", s.gjkCalls, s.epaCalls, s.contacts);
  if (s.rtrCalls > 0) ImGui::Text("RTR calls %d (depths of smooth pairs)", s.rtrCalls);
  ImGui::Text("GJK iterations %ld (%.2f per call)", s.gjkIterations, s.gjkMeanIterations());
  ImGui::Text("PGS %d iterations, deepest %.2f mm, %d substep%s", s.solverIterations,
              1000.0 * s.maxPenetration, s.substeps, s.substeps > 1 ? "s" : "");
  if (s.limitedBodies > 0) ImGui::Text("bodies limited to the contact turn: %d", s.limitedBodies);

  if (ImGui::BeginTable("stages", 2, ImGuiTableFlags_SizingStretchProp)) {
    for (int i = 0; i < kStageCount; ++i) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(kStageNames[i].data(), kStageNames[i].data() + kStageNames[i].size());
      ImGui::TableNextColumn();
      ImGui::Text("%7.3f ms", s.stageMs[i]);
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("step");
    ImGui::TableNextColumn();
    ImGui::Text("%7.3f ms", s.totalMs());
    ImGui::EndTable();
  }

  ImGui::Separator();
  ImGui::TextUnformatted("narrow phase (GJK + EPA) per step");
  plot("##narrow", history.narrowPhaseMs, "%.3f ms (mean %.3f)");
  ImGui::TextUnformatted("GJK iterations per step");
  plot("##iterations", history.gjkIterationsPerStep, "%.0f (mean %.0f)");
  ImGui::TextUnformatted("GJK iterations per call, last second");
  const auto& bins = history.histogram();
  ImGui::PlotHistogram("##histogram", bins.data(), static_cast<int>(bins.size()), 0,
                       "0 .. 39+ iterations", 0.0f, FLT_MAX, ImVec2(kPlotWidth, 60.0f));
  ImGui::Separator();
  ImGui::Text("frame %.1f ms, render %.1f ms, %.1f steps", history.frameMs.latest(),
              history.renderMs.latest(), history.stepsPerFrame.mean());
  plot("##frame", history.frameMs, "%.1f ms (mean %.1f)", 36.0f);
  ImGui::Text("%d draw calls, %.2f M triangles", render.drawCalls, render.triangles / 1e6);
  if (!simulation.fixedSchedule) {
    ImGui::Text("real time factor %.2f%s", simulation.realTimeFactor,
                simulation.fallingBehind ? " (falling behind)" : "");
  }
  ImGui::End();
}

}  // namespace hb
