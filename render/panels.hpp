#pragma once
// The viewer's Dear ImGui panels. Each draws one part of ViewerUi and records requests in it.

#include <span>

#include "engine/world.hpp"
#include "render/scene_renderer.hpp"
#include "render/statistics_history.hpp"
#include "render/viewer_ui.hpp"

namespace hb {

/// Lays out every panel: the control column on the left, statistics on the right, help on top.
void drawPanels(ViewerUi& ui, World& world, const StatisticsHistory& history,
                const RenderStatistics& render, std::span<const ShortcutHelp> shortcuts);

// One collapsing section each, drawn inside the control column.
void simulationPanel(SimulationControls& controls, const World& world);
void scenePanel(SceneControls& controls, SimulationControls& simulation, const World& world);
void dropPanel(DropControls& controls);
void solverPanel(World& world, DropControls& drop);
/// `open`: unfold the section now (and clear the request).
void debugPanel(DebugDrawOptions& debug, RenderSettings& render, bool& open);
void recordingPanel(RecordingControls& controls);
void selectionPanel(ViewerUi& ui, const World& world);
// Windows of their own.
void statisticsPanel(const World& world, const StatisticsHistory& history,
                     const RenderStatistics& render, const SimulationControls& simulation);
void helpPanel(bool& open, std::span<const ShortcutHelp> shortcuts);
/// The joints (nothing without any), `width` wide from `left`, its bottom edge at `bottom`
/// (pixels).
void jointsPanel(JointControls& controls, const World& world, float left, float width,
                 float bottom);

}  // namespace hb
