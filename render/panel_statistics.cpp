// Statistics window: counts of the last step, time per stage, plots of the narrow phase's time
// and GJK iterations per step, and the histogram of GJK iterations per call.

#include <imgui.h>

#include <cstdio>

#include "render/panels.hpp"
#include "render/plot_widget.hpp"

namespace hb {
namespace {

/// Plots fill the window's fixed content width (auto-resizing windows have no width to fill).
constexpr float kPlotWidth = 318.0f;

}  // namespace

void statisticsPanel(const World& world, const StatisticsHistory& history,
                     const RenderStatistics& render, const SimulationControls& simulation) {
  ImGui::Begin("Statistics", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
  const StepStatistics& s = world.lastStep();
  ImGui::Text("bodies %d (awake %d)   pairs %d", s.bodies, s.awakeBodies, s.candidatePairs);
  ImGui::Text("GJK calls %d   EPA calls %d   contacts %d", s.gjkCalls, s.epaCalls, s.contacts);
  if (s.keptPairs > 0) ImGui::Text("pairs answered by their kept manifold %d", s.keptPairs);
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
  const double dt = world.scene().dt;
  ImGui::Text("narrow phase per step: %.3f ms, mean %.3f", history.narrowPhaseMs.latest(),
              history.narrowPhaseMs.mean());
  seriesPlot("##narrow", history.narrowPhaseMs, "ms", dt, kPlotWidth, 70.0f);
  ImGui::Text("GJK iterations per step: %.0f, mean %.0f", history.gjkIterationsPerStep.latest(),
              history.gjkIterationsPerStep.mean());
  seriesPlot("##iterations", history.gjkIterationsPerStep, "", dt, kPlotWidth, 70.0f);
  ImGui::TextUnformatted("GJK calls by iterations, last second");
  const auto& bins = history.histogram();
  histogramPlot("##histogram", bins.data(), static_cast<int>(bins.size()), 10, kPlotWidth, 80.0f);
  ImGui::Separator();
  ImGui::Text("frame %.1f ms, render %.1f ms, %.1f steps", history.frameMs.latest(),
              history.renderMs.latest(), history.stepsPerFrame.mean());
  // Frames come at the display's pace: the time axis assumes their mean length.
  seriesPlot("##frame", history.frameMs, "ms", 1e-3 * history.frameMs.mean(), kPlotWidth, 60.0f);
  ImGui::Text("%d draw calls, %.2f M triangles", render.drawCalls, render.triangles / 1e6);
  if (!simulation.fixedSchedule) {
    ImGui::Text("real time factor %.2f%s", simulation.realTimeFactor,
                simulation.fallingBehind ? " (falling behind)" : "");
  }
  ImGui::End();
}

}  // namespace hb
