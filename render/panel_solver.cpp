// Solver section: narrow-phase and contact-solver settings, applied live from the next step
// (World::solverSettings()); friction and restitution apply to the next drops.

#include <imgui.h>

#include <array>
#include <numbers>

#include "render/panels.hpp"

namespace hb {
namespace {

template <typename Enum, size_t N>
void enumCombo(const char* label, Enum& value, const std::array<Enum, N>& values) {
  if (!ImGui::BeginCombo(label, std::string(toString(value)).c_str())) return;
  for (Enum v : values) {
    if (ImGui::Selectable(std::string(toString(v)).c_str(), v == value)) value = v;
  }
  ImGui::EndCombo();
}

}  // namespace

void solverPanel(World& world, DropControls& drop) {
  if (!ImGui::CollapsingHeader("Solver")) return;
  SolverDescription& s = world.solverSettings();
  enumCombo(
      "GJK variant", s.gjkVariant,
      std::array{GjkVariant::Vanilla, GjkVariant::Polyak, GjkVariant::Nesterov, GjkVariant::Auto});
  enumCombo("warm start", s.warmStart,
            std::array{WarmStart::None, WarmStart::ObbCenters, WarmStart::PreviousSolution,
                       WarmStart::TransformedPrevious});
  ImGui::Checkbox("from the last simplex", &s.warmSimplex);
  float tolerance = static_cast<float>(s.gjkTolerance);
  if (ImGui::SliderFloat("GJK tolerance", &tolerance, 1e-12f, 1e-4f, "%.1e",
                         ImGuiSliderFlags_Logarithmic)) {
    s.gjkTolerance = tolerance;
  }
  ImGui::SliderInt("GJK max iterations", &s.gjkMaxIterations, 8, 512);
  ImGui::SliderInt("PGS velocity iter.", &s.velocityIterations, 1, 200);
  ImGui::SliderInt("Manifold passes", &s.manifoldIterations, 1, 16);
  ImGui::SliderInt("Shock pass passes", &s.shockIterations, 1, 16);
  ImGui::SliderInt("PGS position iter.", &s.positionIterations, 0, 50);
  ImGui::SliderInt("max substeps", &s.maxSubsteps, 1, 16);
  float turn = static_cast<float>(s.maxContactTurn * 180.0 / std::numbers::pi);
  if (ImGui::SliderFloat("max contact turn", &turn, 5.0f, 360.0f, "%.0f deg/substep")) {
    s.maxContactTurn = turn * std::numbers::pi / 180.0;
  }
  float margin = static_cast<float>(s.speculativeMargin * 1000.0);
  if (ImGui::SliderFloat("speculative margin", &margin, 0.0f, 50.0f, "%.1f mm")) {
    s.speculativeMargin = margin / 1000.0;
  }
  ImGui::Checkbox("sleeping", &s.sleeping);
  ImGui::SameLine();
  ImGui::Checkbox("continuous collision", &s.continuousCollision);
  ImGui::Separator();
  ImGui::TextUnformatted("material of new drops");
  float friction = static_cast<float>(drop.material.friction);
  if (ImGui::SliderFloat("friction", &friction, 0.0f, 1.5f, "%.2f"))
    drop.material.friction = friction;
  float restitution = static_cast<float>(drop.material.restitution);
  if (ImGui::SliderFloat("restitution", &restitution, 0.0f, 1.0f, "%.2f")) {
    drop.material.restitution = restitution;
  }
}

}  // namespace hb
