#pragma once
// The application window: GLFW with an OpenGL 3.3 core context, glad's entry points, and Dear
// ImGui bound to both. One per process.

#include <stdexcept>
#include <string>
#include <vector>

struct GLFWwindow;

namespace hb {

/// No display to open a window on (no X or Wayland server, or GLFW cannot reach it).
class NoDisplayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A key press (or auto-repeat) as GLFW reports it: GLFW_KEY_* and GLFW_MOD_* bits.
struct KeyPress {
  int key = 0;
  int mods = 0;
  bool repeat = false;
};

struct WindowOptions {
  int width = 1280;
  int height = 720;
  std::string title = "heavyball";
  int samples = 4;    ///< multisample antialiasing (0: off)
  bool vsync = true;  ///< off for benchmarks and scripted runs
  /// Where ImGui keeps its window layout; empty: not kept.
  std::string imguiIniFile;
};

/// Why no window could open, when that is already clear from the environment; else empty.
std::string displayProblem();

class Window {
 public:
  /// Throws NoDisplayError without a display, std::runtime_error when no 3.3 context is to be had.
  explicit Window(const WindowOptions& options);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  bool shouldClose() const;
  void requestClose();
  /// Polls input and starts an ImGui frame.
  void beginFrame();
  /// The key presses of the last beginFrame(), in order. Kept apart from ImGui's key state,
  /// which loses a press released within the same frame (frequent at software-rendering rates).
  const std::vector<KeyPress>& keyPresses() const { return keyPresses_; }
  /// Draws the ImGui frame over the scene.
  void drawUi();
  void present();
  /// Waits until the GPU has finished drawing (for timing frames honestly).
  void finishDrawing();

  int framebufferWidth() const;
  int framebufferHeight() const;
  /// In screen coordinates (what mouse positions use; differs from pixels on HiDPI screens).
  int width() const;
  int height() const;
  GLFWwindow* handle() const { return window_; }
  /// "OpenGL <version> (<renderer>)".
  const std::string& glDescription() const { return glDescription_; }
  /// True on CPU rasterisers (Mesa llvmpipe or softpipe, SwiftShader), where every shaded
  /// sample costs CPU time.
  bool softwareRenderer() const;

 private:
  static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);

  GLFWwindow* window_ = nullptr;
  std::vector<KeyPress> keyPresses_;
  std::string iniFile_;  // ImGui keeps a pointer to it
  std::string glDescription_;
};

}  // namespace hb
