#pragma once
// Mouse and keyboard of the 3-D view: orbit, pan and zoom the camera, pick, grab and drag
// bodies, and the keyboard shortcuts (listed for the help panel by shortcutHelp()). Reads Dear
// ImGui's input state, and leaves the mouse and keys to the panels when they want them.

#include <span>

#include "apps/viewer/mouse_spring.hpp"
#include "engine/world.hpp"
#include "render/orbit_camera.hpp"
#include "render/viewer_ui.hpp"
#include "render/window.hpp"

namespace hb::viewer {

class ViewerInput {
 public:
  /// Handles this frame's mouse and `keys`; sets `quit` on the quit shortcut.
  void update(OrbitCamera& camera, const World& world, MouseSpring& spring, ViewerUi& ui,
              std::span<const KeyPress> keys, bool& quit);
  /// The dynamic body under the cursor (-1: none).
  int hovered() const { return hovered_; }

 private:
  enum class Drag { None, Orbit, Pan, Grab };
  void mouse(OrbitCamera& camera, const World& world, MouseSpring& spring, ViewerUi& ui);
  void key(const KeyPress& press, ViewerUi& ui, MouseSpring& spring, bool& quit);

  Drag drag_ = Drag::None;
  bool moved_ = false;  // the button moved since it was pressed: a drag, not a click
  int hovered_ = -1;
};

std::span<const ShortcutHelp> shortcutHelp();

}  // namespace hb::viewer
