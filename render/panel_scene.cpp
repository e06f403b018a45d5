// Scene section: pick a scene file to load; the scene's own spawner on or off.

#include <imgui.h>

#include "render/panels.hpp"

namespace hb {

void scenePanel(SceneControls& c, SimulationControls& simulation, const World& world) {
  if (!ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const std::string current = c.current.filename().string();
  if (ImGui::BeginCombo("scene file", current.c_str())) {
    for (const std::filesystem::path& file : c.files) {
      const bool selected = file == c.current;
      if (ImGui::Selectable(file.filename().string().c_str(), selected)) c.loadRequested = file;
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  const SceneDescription& scene = world.scene();
  ImGui::Text("\"%s\": %zu statics, %d bodies", scene.name.c_str(), scene.statics.size(),
              static_cast<int>(world.bodies().size()) - 1);
  if (c.spawner) {
    if (ImGui::Checkbox("scene spawner", &simulation.useSceneSpawner)) {
      simulation.resetRequested = true;
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("The scene drops %d objects, one every %.2f s (restarts the scene)",
                        c.spawner->count, c.spawner->interval);
    }
  }
  if (!c.error.empty()) ImGui::TextColored(ImVec4(0.95f, 0.4f, 0.3f, 1.0f), "%s", c.error.c_str());
}

}  // namespace hb
