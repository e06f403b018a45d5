// Help window: mouse controls and keyboard shortcuts.

#include <imgui.h>

#include "render/panels.hpp"

namespace hb {

void helpPanel(bool& open, std::span<const ShortcutHelp> shortcuts) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(0.5f * display.x, 0.5f * display.y), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::Begin("Help", &open, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("input");
    ImGui::TableSetupColumn("action");
    ImGui::TableHeadersRow();
    for (const ShortcutHelp& s : shortcuts) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(s.keys);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(s.action);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace hb
