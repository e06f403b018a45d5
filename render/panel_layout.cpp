// Arranges the panels: a control column at the left edge, statistics at the right edge (both
// following the window's size), the joints along the bottom between them, the help window
// centred over everything.

#include <imgui.h>

#include <algorithm>

#include "render/panels.hpp"

namespace hb {
namespace {

constexpr float kMargin = 8.0f;
constexpr float kColumnWidth = 330.0f;
constexpr float kStatisticsWidth = 340.0f;
/// Narrower than this, the joints window overlaps the statistics rather than squeeze its table.
constexpr float kJointsMinWidth = 420.0f;

}  // namespace

void drawPanels(ViewerUi& ui, World& world, const StatisticsHistory& history,
                const RenderStatistics& render, std::span<const ShortcutHelp> shortcuts) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  if (ui.showUi) {
    ImGui::SetNextWindowPos(ImVec2(kMargin, kMargin), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(kColumnWidth, 0.0f),
                                        ImVec2(kColumnWidth, display.y - 2.0f * kMargin));
    ImGui::Begin("heavyball", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
    // Widgets leave room for labels of about 20 characters.
    ImGui::PushItemWidth(170.0f);
    simulationPanel(ui.simulation, world);
    scenePanel(ui.scene, ui.simulation, world);
    dropPanel(ui.drop);
    solverPanel(world, ui.drop);
    debugPanel(ui.debug, ui.render, ui.openDebugPanel);
    recordingPanel(ui.recording);
    selectionPanel(ui, world);
    if (!ui.status.empty()) {
      ImGui::Separator();
      ImGui::TextWrapped("%s", ui.status.c_str());
    }
    ImGui::TextDisabled("H: help   Tab: hide panels");
    ImGui::PopItemWidth();
    ImGui::End();

    if (ui.showStatistics) {
      ImGui::SetNextWindowPos(ImVec2(display.x - kStatisticsWidth - kMargin, kMargin),
                              ImGuiCond_Always);
      ImGui::SetNextWindowSizeConstraints(ImVec2(kStatisticsWidth, 0.0f),
                                          ImVec2(kStatisticsWidth, display.y - 2.0f * kMargin));
      statisticsPanel(world, history, render, ui.simulation);
    }
    const float left = kColumnWidth + 2.0f * kMargin;
    const float right =
        display.x - kMargin - (ui.showStatistics ? kStatisticsWidth + kMargin : 0.0f);
    jointsPanel(ui.joints, world, left, std::max(right - left, kJointsMinWidth),
                display.y - kMargin);
  }
  if (ui.showHelp) helpPanel(ui.showHelp, shortcuts);
}

}  // namespace hb
