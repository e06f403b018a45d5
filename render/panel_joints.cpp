// Joints window: one row per joint (its type, bodies, position, velocity, motor effort and error)
// with a slider for its motor's target (three for a spherical joint's). The sliders write requests
// (JointControls) that the application applies with World::setJointTargets. Long lists scroll,
// and only the rows in view are built.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "render/joint_readout.hpp"
#include "render/panels.hpp"

namespace hb {
namespace {

/// The position of a joint whose limit pushes.
const ImVec4 kAtLimit(1.0f, 0.6f, 0.2f, 1.0f);
/// The share of the window's height the list may take before it scrolls.
constexpr float kMostHeight = 0.25f;
constexpr int kColumns = 8;
/// The columns before the target's, with the widest text they usually hold.
constexpr std::pair<const char*, const char*> kFixedColumns[] = {{"#", "00"},
                                                                 {"type", "prismatic"},
                                                                 {"bodies", "world-00"},
                                                                 {"position", "-000.0 deg"},
                                                                 {"velocity", "-000.0 deg/s"},
                                                                 {"effort", "-00.00 N m"},
                                                                 {"error", "00.00 mm"}};

/// `value` with no "-0.0" when it rounds to zero at `resolution`.
double shown(double value, double resolution) {
  return std::abs(value) < 0.5 * resolution ? 0.0 : value;
}

/// The next cell, its text level with the row's slider.
void nextCell() {
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
}

std::string bodyLabel(int body) {
  return body == 0 ? std::string("world") : std::to_string(body);
}

/// The joint's bodies, limit and motor, on hovering its row's type.
void jointTooltip(const Joint& joint, const World& world) {
  if (!ImGui::IsItemHovered()) return;
  const double scale = jointDisplayScale(joint.type);
  const char* unit = jointPositionUnit(joint.type);
  const char* effort = jointEffortUnit(joint.type);
  ImGui::BeginTooltip();
  for (const int body : {joint.bodyA, joint.bodyB}) {
    ImGui::Text("%s: %s", body == joint.bodyA ? "A" : "B",
                body == 0 ? "the world" : world.bodies()[body].name.c_str());
  }
  if (hasFreeAxis(joint.type)) {
    if (joint.limit.enabled) {
      ImGui::Text("limits %.1f to %.1f %s", scale * joint.limit.lower, scale * joint.limit.upper,
                  unit);
    }
    const JointMotor& m = joint.motor;
    if (m.enabled && m.servo()) {
      ImGui::Text("servo to %.1f %s: stiffness %.3g, damping %.3g, at most %.3g %s",
                  scale * m.targetPosition, unit, m.stiffness, m.damping, m.maxForce, effort);
    } else if (m.enabled) {
      ImGui::Text("motor to %.1f %s/s, at most %.3g %s", scale * m.targetVelocity, unit, m.maxForce,
                  effort);
    }
  } else if (joint.type == JointType::Spherical) {
    if (joint.limit.enabled) ImGui::Text("cone of %.1f deg", scale * joint.limit.upper);
    if (joint.twist.enabled) {
      ImGui::Text("twist %.1f to %.1f deg", scale * joint.twist.lower, scale * joint.twist.upper);
    }
    const JointMotor& m = joint.motor;
    const Eigen::Vector3d turn = scale * Eigen::Vector3d(m.targetTurn);
    const Eigen::Vector3d spin = scale * Eigen::Vector3d(m.targetSpin);
    if (m.enabled && m.servo()) {
      ImGui::Text("servo to (%.1f, %.1f, %.1f) deg: stiffness %.3g, damping %.3g, at most %.3g N m",
                  turn.x(), turn.y(), turn.z(), m.stiffness, m.damping, m.maxForce);
    } else if (m.enabled) {
      ImGui::Text("motor to (%.1f, %.1f, %.1f) deg/s, at most %.3g N m", spin.x(), spin.y(),
                  spin.z(), m.maxForce);
    }
    ImGui::TextDisabled("position: the turn's angle; targets along A's frame axes");
  }
  ImGui::EndTooltip();
}

/// The motor target's slider, or why there is none.
void targetSlider(int index, const Joint& joint, JointControls& controls) {
  const JointTargetSlider slider = jointTargetSlider(joint);
  if (slider.kind == JointTargetSlider::Kind::None) {
    ImGui::TextDisabled("%s", joint.type == JointType::Fixed ? "" : "no motor");
    return;
  }
  const bool position = slider.kind == JointTargetSlider::Kind::Position;
  const char* unit = position ? jointPositionUnit(joint.type) : jointVelocityUnit(joint.type);
  char format[32];
  // Three values share the cell: whole numbers, their unit in the tooltip.
  if (slider.components == 1) {
    std::snprintf(format, sizeof format, "%%.1f %s", unit);
  } else {
    std::snprintf(format, sizeof format, "%%.0f");
  }
  float values[3];
  for (int k = 0; k < 3; ++k) values[k] = static_cast<float>(slider.values[k]);
  ImGui::PushID(index);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const float lowest = static_cast<float>(slider.min), highest = static_cast<float>(slider.max);
  if (ImGui::SliderScalarN("##target", ImGuiDataType_Float, values, slider.components, &lowest,
                           &highest, format)) {
    const JointTargets t =
        jointTargetsAt(joint, slider.kind, Eigen::Vector3f(values).cast<double>());
    controls.requests.push_back(
        {index, joint.type == JointType::Spherical, t.position, t.velocity, t.turn, t.spin});
  }
  if (slider.components == 3 && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s target along A's frame x, y, z (%s)", position ? "turn" : "spin", unit);
  }
  ImGui::PopID();
}

void jointRow(int index, const Joint& joint, const World& world, JointControls& controls) {
  const RigidBody& a = world.rigidBodies()[joint.bodyA];
  const RigidBody& b = world.rigidBodies()[joint.bodyB];
  const JointReadout r = jointReadout(joint, a, b);
  const bool moves = joint.type != JointType::Fixed;
  ImGui::TableNextRow(ImGuiTableRowFlags_None, ImGui::GetFrameHeight());
  nextCell();
  ImGui::Text("%d", index);
  nextCell();
  ImGui::TextUnformatted(toString(joint.type));
  jointTooltip(joint, world);
  nextCell();
  ImGui::Text("%s-%s", bodyLabel(joint.bodyA).c_str(), bodyLabel(joint.bodyB).c_str());
  nextCell();
  if (moves && (joint.lowerForce > 0.0 || joint.upperForce > 0.0)) {
    ImGui::TextColored(kAtLimit, "%.1f %s", shown(r.position, 0.1), jointPositionUnit(joint.type));
  } else if (moves) {
    ImGui::Text("%.1f %s", shown(r.position, 0.1), jointPositionUnit(joint.type));
  }
  nextCell();
  if (moves) ImGui::Text("%.1f %s", shown(r.velocity, 0.1), jointVelocityUnit(joint.type));
  nextCell();
  if (moves && joint.motor.enabled) {
    ImGui::Text("%.2f %s", shown(r.effort, 0.01), jointEffortUnit(joint.type));
  }
  nextCell();
  ImGui::Text("%.2f mm", r.errorMm);
  nextCell();
  targetSlider(index, joint, controls);
}

}  // namespace

void jointsPanel(JointControls& controls, const World& world, float left, float width,
                 float bottom) {
  const int count = static_cast<int>(world.joints().size());
  if (count == 0) return;
  ImGui::SetNextWindowPos(ImVec2(left, bottom), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  char title[48];
  std::snprintf(title, sizeof title, "Joints (%d)###joints", count);
  ImGui::Begin(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float rowHeight = ImGui::GetFrameHeight() + 2.0f * style.CellPadding.y;
  const int visibleRows =
      std::max(3, static_cast<int>(kMostHeight * ImGui::GetIO().DisplaySize.y / rowHeight) - 1);
  const bool scrolls = count > visibleRows;
  ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (scrolls) flags |= ImGuiTableFlags_ScrollY;
  const ImVec2 size(width - 2.0f * style.WindowPadding.x,
                    scrolls ? (visibleRows + 1) * rowHeight : 0.0f);
  if (ImGui::BeginTable("joints", kColumns, flags, size)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // Widths from the widest usual text, so that the first frame is laid out as the next ones.
    for (const auto& [name, widest] : kFixedColumns) {
      const float width = std::max(ImGui::CalcTextSize(name).x, ImGui::CalcTextSize(widest).x);
      ImGui::TableSetupColumn(name, ImGuiTableColumnFlags_WidthFixed, width);
    }
    ImGui::TableSetupColumn("target", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(count, rowHeight);
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        jointRow(i, world.joints()[i], world, controls);
      }
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace hb
