// Recording section: start and stop writing the simulation to an HDF5 file.

#include <imgui.h>
#include <imgui_stdlib.h>

#include "render/panels.hpp"

namespace hb {

void recordingPanel(RecordingControls& c) {
  if (!ImGui::CollapsingHeader("Recording")) return;
  if (c.active) {
    ImGui::TextColored(ImVec4(0.95f, 0.35f, 0.3f, 1.0f), "recording");
    ImGui::SameLine();
    ImGui::TextWrapped("%s", c.file.c_str());
    ImGui::Text("%ld steps, %.2f MB", c.steps, static_cast<double>(c.bytes) / 1e6);
    if (ImGui::Button("Stop recording")) c.stopRequested = true;
  } else {
    ImGui::InputText("HDF5 file", &c.file);
    if (ImGui::Button("Start recording")) c.startRequested = true;
    if (c.steps > 0) {
      ImGui::Text("last: %ld steps, %.2f MB", c.steps, static_cast<double>(c.bytes) / 1e6);
    }
  }
  if (!c.note.empty()) ImGui::TextDisabled("%s", c.note.c_str());
  if (!c.error.empty()) ImGui::TextColored(ImVec4(0.95f, 0.4f, 0.3f, 1.0f), "%s", c.error.c_str());
}

}  // namespace hb
