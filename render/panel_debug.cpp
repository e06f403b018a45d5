// Debug draw section: the overlays and the rendering switches.

#include <imgui.h>

#include "render/panels.hpp"

namespace hb {

void debugPanel(DebugDrawOptions& d, RenderSettings& r) {
  if (!ImGui::CollapsingHeader("Debug draw")) return;
  ImGui::Checkbox("world OBBs (1)", &d.obbs);
  ImGui::SameLine(160);
  ImGui::Checkbox("hulls (2)", &d.hulls);
  ImGui::Checkbox("candidate pairs (3)", &d.pairs);
  ImGui::SameLine(160);
  ImGui::Checkbox("contacts (4)", &d.contacts);
  ImGui::Checkbox("GJK witnesses (5)", &d.gjk);
  ImGui::SameLine(160);
  ImGui::Checkbox("lines on top", &d.onTop);
  if (d.contacts) {
    float scale = static_cast<float>(d.impulseScale);
    if (ImGui::SliderFloat("impulse scale", &scale, 0.1f, 20.0f, "%.1f m/(N s)",
                           ImGuiSliderFlags_Logarithmic)) {
      d.impulseScale = scale;
    }
    // The colour ramp saturates where the arrow reaches 10 cm (DebugDraw::impulseColor).
    ImGui::TextDisabled("normal impulse: blue 0 .. red %.3f N s; grey: speculative",
                        0.1 / d.impulseScale);
  }
  ImGui::Separator();
  ImGui::Checkbox("shadows", &r.shadows);
  ImGui::SameLine(160);
  ImGui::Checkbox("detailed shadows", &r.detailedShadows);
  ImGui::Checkbox("textures", &r.textures);
  ImGui::SameLine(160);
  ImGui::Checkbox("grid", &r.grid);
  ImGui::Checkbox("tint sleeping bodies", &r.tintSleeping);
  ImGui::SliderFloat("funnel opacity", &r.funnelOpacity, 0.0f, 1.0f, "%.2f");
}

}  // namespace hb
