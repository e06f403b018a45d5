// Simulation section: pause, single step, reset and clear, time scale, real-time status.

#include <imgui.h>

#include "render/panels.hpp"

namespace hb {

void simulationPanel(SimulationControls& c, const World& world) {
  if (!ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (ImGui::Button(c.paused ? "Run" : "Pause", ImVec2(70, 0))) c.paused = !c.paused;
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    c.paused = true;
    c.stepRequested = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset")) c.resetRequested = true;
  ImGui::SameLine();
  if (ImGui::Button("Clear all")) c.clearRequested = true;
  ImGui::SliderFloat("time scale", &c.timeScale, 0.05f, 4.0f, "%.2fx",
                     ImGuiSliderFlags_Logarithmic);
  const double dt = world.scene().dt;
  ImGui::Text("t = %.2f s   step %ld   dt = 1/%.0f s", world.time(), world.stepCount(), 1.0 / dt);
  if (c.fixedSchedule) {
    ImGui::TextDisabled("scripted: 1/60 s simulated per frame");
  } else if (c.paused) {
    ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "paused");
  } else if (c.fallingBehind) {
    ImGui::TextColored(ImVec4(0.95f, 0.4f, 0.3f, 1.0f), "slower than real time: %.2fx",
                       c.realTimeFactor);
  } else {
    ImGui::TextColored(ImVec4(0.5f, 0.85f, 0.5f, 1.0f), "real time %.2fx", c.realTimeFactor);
  }
}

}  // namespace hb
