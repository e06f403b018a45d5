// Drop section: the palette (every YCB asset and the primitives), whether assets collide as
// their hulls or their convex parts, pose and velocity of the next drop, the drop button and
// rain mode.

#include <imgui.h>

#include <array>
#include <string>

#include "render/panels.hpp"

namespace hb {
namespace {

constexpr std::array<ShapeType, 6> kPrimitives = {ShapeType::Box,     ShapeType::Sphere,
                                                  ShapeType::Capsule, ShapeType::Cylinder,
                                                  ShapeType::Cone,    ShapeType::Ellipsoid};

void palette(DropControls& c) {
  if (!ImGui::BeginListBox("##palette",
                           ImVec2(-1.0f, 7.5f * ImGui::GetTextLineHeightWithSpacing()))) {
    return;
  }
  if (ImGui::Selectable("random YCB object", c.kind == DropKind::RandomAsset)) {
    c.kind = DropKind::RandomAsset;
  }
  for (const std::string& name : c.assets) {
    const bool selected = c.kind == DropKind::Asset && c.asset == name;
    if (ImGui::Selectable(name.c_str(), selected)) {
      c.kind = DropKind::Asset;
      c.asset = name;
    }
  }
  for (ShapeType type : kPrimitives) {
    const bool selected = c.kind == DropKind::Primitive && c.primitive == type;
    const std::string label = std::string(toString(type)) + " (primitive)";
    if (ImGui::Selectable(label.c_str(), selected)) {
      c.kind = DropKind::Primitive;
      c.primitive = type;
    }
  }
  ImGui::EndListBox();
}

}  // namespace

void dropPanel(DropControls& c) {
  if (!ImGui::CollapsingHeader("Drop", ImGuiTreeNodeFlags_DefaultOpen)) return;
  palette(c);
  if (c.kind == DropKind::Primitive) {
    ImGui::SliderFloat("size (m)", &c.primitiveSize, 0.01f, 0.15f, "%.3f");
  } else {
    // A bowl's hull is a lid over its hollow; its parts (convex_parts.obj) leave it open.
    ImGui::TextUnformatted("collides as");
    ImGui::SameLine();
    if (ImGui::RadioButton("hull", !c.parts)) c.parts = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("parts", c.parts)) c.parts = true;
  }
  if (ImGui::Button("Drop (D)", ImVec2(90, 0))) c.dropRequested = true;
  ImGui::SameLine();
  ImGui::Checkbox("rain (T)", &c.rain);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::SliderFloat("##rate", &c.rainRate, 0.5f, 30.0f, "%.1f /s", ImGuiSliderFlags_Logarithmic);
  if (ImGui::TreeNode("pose and velocity")) {
    ImGui::Checkbox("random orientation", &c.randomOrientation);
    if (!c.randomOrientation) {
      ImGui::SliderFloat3("z-y-x (deg)", c.eulerDegrees.data(), -180.0f, 180.0f, "%.0f");
    }
    ImGui::SliderFloat("spread", &c.spread, 0.0f, 1.0f, "%.2f of the mouth");
    ImGui::SliderFloat("down speed", &c.downwardSpeed, 0.0f, 5.0f, "%.2f m/s");
    ImGui::SliderFloat("side speed", &c.lateralSpeed, 0.0f, 2.0f, "%.2f m/s");
    ImGui::SliderFloat("spin", &c.spin, 0.0f, 20.0f, "%.1f rad/s");
    ImGui::TreePop();
  }
  ImGui::Text("dropped %d", c.dropped);
}

}  // namespace hb
