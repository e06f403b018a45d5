#include "apps/viewer/viewer_input.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <array>

#include "render/ray_cast.hpp"

namespace hb::viewer {
namespace {

constexpr std::array<ShortcutHelp, 24> kShortcuts = {{
    {"left drag on an object", "grab it and drag it around"},
    {"left drag elsewhere", "orbit"},
    {"right drag, shift + left drag", "pan"},
    {"wheel", "zoom"},
    {"click", "select an object (elsewhere: deselect)"},
    {"double click", "centre the view there"},
    {"Space", "pause / run"},
    {"N or Right", "single step (pauses)"},
    {"R", "reset the scene"},
    {"C", "clear all dropped objects"},
    {"D or Enter", "drop the palette's object"},
    {"T", "rain on / off"},
    {"[ and ]", "halve / double the time scale"},
    {"F", "frame the selected object"},
    {"V or Home", "reset the view"},
    {"1 2 3 4 5 6", "OBBs, hulls, pairs, contacts, GJK witnesses, joints"},
    {"G", "grid on / off"},
    {"L", "shadows on / off"},
    {"Tab", "show / hide the panels"},
    {"S", "show / hide the statistics"},
    {"P or F12", "screenshot (PNG in the working folder)"},
    {"H or F1", "this help"},
    {"Esc", "deselect"},
    {"Ctrl + Q", "quit"},
}};

/// Movement (pixels) below which a press and release count as a click.
constexpr float kClickSlop = 3.0f;

/// The debug overlays' and rendering switches' keys (1 to 6, G, L); false for any other key.
bool toggleOverlay(int key, ViewerUi& ui) {
  switch (key) {
    case GLFW_KEY_1:
      ui.debug.obbs = !ui.debug.obbs;
      return true;
    case GLFW_KEY_2:
      ui.debug.hulls = !ui.debug.hulls;
      return true;
    case GLFW_KEY_3:
      ui.debug.pairs = !ui.debug.pairs;
      return true;
    case GLFW_KEY_4:
      ui.debug.contacts = !ui.debug.contacts;
      return true;
    case GLFW_KEY_5:
      ui.debug.gjk = !ui.debug.gjk;
      return true;
    case GLFW_KEY_6:
      ui.debug.joints = !ui.debug.joints;
      return true;
    case GLFW_KEY_G:
      ui.render.grid = !ui.render.grid;
      return true;
    case GLFW_KEY_L:
      ui.render.shadows = !ui.render.shadows;
      return true;
    default:
      return false;
  }
}

}  // namespace

std::span<const ShortcutHelp> shortcutHelp() {
  return kShortcuts;
}

void ViewerInput::update(OrbitCamera& camera, const World& world, MouseSpring& spring, ViewerUi& ui,
                         std::span<const KeyPress> keys, bool& quit) {
  mouse(camera, world, spring, ui);
  // Typing into a panel's text field is not a shortcut.
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  for (const KeyPress& press : keys) key(press, ui, spring, quit);
}

void ViewerInput::mouse(OrbitCamera& camera, const World& world, MouseSpring& spring,
                        ViewerUi& ui) {
  const ImGuiIO& io = ImGui::GetIO();
  const double width = io.DisplaySize.x, height = io.DisplaySize.y;
  const Ray ray = camera.rayThrough(io.MousePos.x, io.MousePos.y, width, height);
  const bool overScene = !io.WantCaptureMouse;

  // Hover highlight, only while no button is held.
  hovered_ = -1;
  if (overScene && drag_ == Drag::None) {
    if (const auto hit = pickBody(world, ray, false)) hovered_ = hit->body;
  }

  // Presses start drags only over the scene; drags continue wherever the cursor goes.
  if (overScene && drag_ == Drag::None) {
    const bool shift = io.KeyShift;
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      moved_ = false;
      const auto hit = shift ? std::nullopt : pickBody(world, ray, false);
      if (hit) {
        spring.grab(world, hit->body, hit->point, camera.forward());
        ui.selectedBody = hit->body;
        drag_ = Drag::Grab;
      } else {
        drag_ = shift ? Drag::Pan : Drag::Orbit;
      }
    } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Right) ||
               ImGui::IsMouseClicked(ImGuiMouseButton_Middle)) {
      moved_ = false;
      drag_ = Drag::Pan;
    }
    if (io.MouseWheel != 0.0f) camera.zoom(io.MouseWheel);
  }

  const ImVec2 delta = io.MouseDelta;
  if (std::abs(delta.x) + std::abs(delta.y) > 0.0f && drag_ != Drag::None) {
    const ImVec2 from = io.MouseClickedPos[ImGuiMouseButton_Left];
    if (std::abs(io.MousePos.x - from.x) + std::abs(io.MousePos.y - from.y) > kClickSlop) {
      moved_ = true;
    }
  }
  switch (drag_) {
    case Drag::Orbit:
      camera.orbit(delta.x, delta.y);
      break;
    case Drag::Pan:
      camera.pan(delta.x, delta.y, height);
      break;
    case Drag::Grab:
      spring.drag(ray);
      break;
    case Drag::None:
      break;
  }

  const bool anyDown = ImGui::IsMouseDown(ImGuiMouseButton_Left) ||
                       ImGui::IsMouseDown(ImGuiMouseButton_Right) ||
                       ImGui::IsMouseDown(ImGuiMouseButton_Middle);
  if (drag_ != Drag::None && !anyDown) {
    // A click on empty space clears the selection.
    if (drag_ == Drag::Orbit && !moved_) ui.selectedBody = -1;
    spring.release();
    drag_ = Drag::None;
  }

  if (overScene && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
    if (const auto hit = pickBody(world, ray, true)) camera.lookAt(hit->point);
  }
}

void ViewerInput::key(const KeyPress& press, ViewerUi& ui, MouseSpring& spring, bool& quit) {
  SimulationControls& sim = ui.simulation;
  if (press.mods & GLFW_MOD_CONTROL) {
    if (press.key == GLFW_KEY_Q) quit = true;
    return;
  }
  // Held keys repeat only where repeating makes sense: stepping and dropping.
  switch (press.key) {
    case GLFW_KEY_N:
    case GLFW_KEY_RIGHT:
      sim.paused = true;
      sim.stepRequested = true;
      return;
    case GLFW_KEY_D:
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
      ui.drop.dropRequested = true;
      return;
    default:
      break;
  }
  if (press.repeat || toggleOverlay(press.key, ui)) return;
  switch (press.key) {
    case GLFW_KEY_SPACE:
      sim.paused = !sim.paused;
      break;
    case GLFW_KEY_R:
      sim.resetRequested = true;
      break;
    case GLFW_KEY_C:
      sim.clearRequested = true;
      break;
    case GLFW_KEY_T:
      ui.drop.rain = !ui.drop.rain;
      break;
    case GLFW_KEY_LEFT_BRACKET:
      sim.timeScale = std::max(0.05f, 0.5f * sim.timeScale);
      break;
    case GLFW_KEY_RIGHT_BRACKET:
      sim.timeScale = std::min(4.0f, 2.0f * sim.timeScale);
      break;
    case GLFW_KEY_F:
      ui.frameSelectionRequested = true;
      break;
    case GLFW_KEY_V:
    case GLFW_KEY_HOME:
      ui.resetViewRequested = true;
      break;
    case GLFW_KEY_TAB:
      ui.showUi = !ui.showUi;
      break;
    case GLFW_KEY_S:
      ui.showStatistics = !ui.showStatistics;
      break;
    case GLFW_KEY_P:
    case GLFW_KEY_F12:
      ui.screenshotRequested = true;
      break;
    case GLFW_KEY_H:
    case GLFW_KEY_F1:
      ui.showHelp = !ui.showHelp;
      break;
    case GLFW_KEY_ESCAPE:
      ui.selectedBody = -1;
      spring.release();
      break;
    default:
      break;
  }
}

}  // namespace hb::viewer
