// Selection section: the picked body's state and its contacts.

#include <imgui.h>

#include "render/panels.hpp"

namespace hb {

void selectionPanel(ViewerUi& ui, const World& world) {
  const int b = ui.selectedBody;
  if (b <= 0 || b >= static_cast<int>(world.bodies().size())) return;
  if (!ImGui::CollapsingHeader("Selection", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const WorldBody& body = world.bodies()[b];
  const RigidBody& r = world.rigidBodies()[b];
  ImGui::Text("#%d %s%s", b, body.name.c_str(), r.sleeping ? " (asleep)" : "");
  ImGui::Text("mass %.3f kg", r.inverseMass > 0.0 ? 1.0 / r.inverseMass : 0.0);
  ImGui::Text("position %.3f %.3f %.3f m", r.position.x(), r.position.y(), r.position.z());
  ImGui::Text("velocity %.3f m/s, spin %.2f rad/s", r.linearVelocity.norm(),
              r.angularVelocity.norm());
  int contacts = 0;
  double impulse = 0.0;
  for (const ContactConstraint& c : world.contacts()) {
    if (c.bodyA != b && c.bodyB != b) continue;
    ++contacts;
    impulse += c.impulse.x();
  }
  if (r.sleeping) {
    int resting = 0;
    for (const World::RestingContact& c : world.restingContacts()) {
      resting += c.bodyA == b || c.bodyB == b;
    }
    ImGui::Text("asleep on %d contacts (kept for its waking)", resting);
  } else {
    ImGui::Text("%d contacts, normal impulse %.4f N s", contacts, impulse);
  }
  if (ImGui::Button("Frame (F)")) ui.frameSelectionRequested = true;
  ImGui::SameLine();
  if (ImGui::Button("Deselect (Esc)")) ui.selectedBody = -1;
}

}  // namespace hb
