// Debug draw section: the overlays and the rendering switches.

#include <imgui.h>

#include <cstdio>

#include "render/debug_draw.hpp"
#include "render/panels.hpp"

namespace hb {
namespace {

ImU32 toImGui(const Color& c) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c[0], c[1], c[2], c[3]));
}

/// The contacts' colour ramp as a bar from 0 to the impulse where it saturates (the arrow's
/// 10 cm, DebugDraw::impulseColor), and what the other colours mean.
void impulseLegend(double impulseScale) {
  const double full = 0.1 / impulseScale;
  ImGui::TextDisabled("normal impulse (N s):");
  const float width = ImGui::GetContentRegionAvail().x, height = 8.0f;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  constexpr int kSteps = 16;
  for (int i = 0; i < kSteps; ++i) {
    const float x0 = at.x + width * i / kSteps, x1 = at.x + width * (i + 1) / kSteps;
    draw->AddRectFilledMultiColor(
        ImVec2(x0, at.y), ImVec2(x1, at.y + height),
        toImGui(DebugDraw::impulseColor(full * i / kSteps, impulseScale)),
        toImGui(DebugDraw::impulseColor(full * (i + 1) / kSteps, impulseScale)),
        toImGui(DebugDraw::impulseColor(full * (i + 1) / kSteps, impulseScale)),
        toImGui(DebugDraw::impulseColor(full * i / kSteps, impulseScale)));
  }
  ImGui::Dummy(ImVec2(width, height));
  ImGui::TextDisabled("0");
  char right[32];
  std::snprintf(right, sizeof right, "%.3g and more", full);
  ImGui::SameLine(width - ImGui::CalcTextSize(right).x);
  ImGui::TextDisabled("%s", right);
  ImGui::TextWrapped("grey: speculative (no impulse); teal: where sleeping bodies rest");
}

}  // namespace

void debugPanel(DebugDrawOptions& d, RenderSettings& r, bool& open) {
  if (open) ImGui::SetNextItemOpen(true);
  open = false;
  if (!ImGui::CollapsingHeader("Debug draw")) return;
  ImGui::Checkbox("world OBBs (1)", &d.obbs);
  ImGui::SameLine(190);
  ImGui::Checkbox("hulls (2)", &d.hulls);
  ImGui::Checkbox("candidate pairs (3)", &d.pairs);
  ImGui::SameLine(190);
  ImGui::Checkbox("contacts (4)", &d.contacts);
  ImGui::Checkbox("GJK witnesses (5)", &d.gjk);
  ImGui::SameLine(190);
  ImGui::Checkbox("joints (6)", &d.joints);
  ImGui::Checkbox("lines on top", &d.onTop);
  ImGui::Checkbox("selected body only (when one is)", &d.focusSelected);
  if (d.focusSelected && d.focusBody < 0) {
    // On a full funnel every pair's lines are a tangle; one body's are readable.
    ImGui::TextDisabled("click a body to draw its overlays alone");
  }
  if (d.contacts) {
    float scale = static_cast<float>(d.impulseScale);
    if (ImGui::SliderFloat("impulse scale", &scale, 0.1f, 20.0f, "%.1f m/(N s)",
                           ImGuiSliderFlags_Logarithmic)) {
      d.impulseScale = scale;
    }
    impulseLegend(d.impulseScale);
  }
  if (d.joints) {
    float size = static_cast<float>(d.jointSize * 1000.0);
    if (ImGui::SliderFloat("joint glyph size", &size, 10.0f, 500.0f, "%.0f mm",
                           ImGuiSliderFlags_Logarithmic)) {
      d.jointSize = size / 1000.0;
    }
    ImGui::TextWrapped(
        "joints: orange cross on A's anchor, cyan box on B's, red: apart; yellow axis; purple "
        "limits; green angle; blue servo target");
  }
  ImGui::Separator();
  ImGui::Checkbox("shadows", &r.shadows);
  ImGui::SameLine(190);
  ImGui::Checkbox("detailed shadows", &r.detailedShadows);
  ImGui::Checkbox("textures", &r.textures);
  ImGui::SameLine(190);
  ImGui::Checkbox("grid", &r.grid);
  ImGui::Checkbox("tint sleeping bodies", &r.tintSleeping);
  ImGui::SliderFloat("funnel opacity", &r.funnelOpacity, 0.0f, 1.0f, "%.2f");
}

}  // namespace hb
