#pragma once
// The viewer application: a window, the renderer and the panels around one World stepped at
// its fixed rate (120 Hz) on the wall clock, decoupled from the frame rate. Interactive, or
// scripted (a number of frames, drops, a screenshot, timings) for tests and benchmarks.

#include <filesystem>
#include <memory>
#include <string>

#include "apps/viewer/dropper.hpp"
#include "apps/viewer/mouse_spring.hpp"
#include "apps/viewer/recording_session.hpp"
#include "apps/viewer/settings.hpp"
#include "apps/viewer/simulation_clock.hpp"
#include "apps/viewer/viewer_input.hpp"
#include "apps/viewer/viewer_options.hpp"
#include "engine/world.hpp"
#include "render/debug_draw.hpp"
#include "render/line_list.hpp"
#include "render/line_renderer.hpp"
#include "render/orbit_camera.hpp"
#include "render/scene_renderer.hpp"
#include "render/statistics_history.hpp"
#include "render/viewer_ui.hpp"
#include "render/window.hpp"

namespace hb::viewer {

class ViewerApp {
 public:
  /// Opens the window and loads the scene. Throws NoDisplayError without a display and
  /// std::runtime_error (and the scene reader's errors) otherwise.
  explicit ViewerApp(const ViewerOptions& options);
  ~ViewerApp();

  /// Runs until the window closes (or the scripted frames are done); returns the exit code.
  int run();

 private:
  // Scenes and worlds (viewer_app.cpp).
  void loadScene(const std::filesystem::path& file);
  /// A world from `scene`, with the scene's spawner if it is on, and its bodies if kept.
  std::unique_ptr<World> buildWorld(const SceneDescription& scene, bool keepSceneBodies) const;
  /// Makes `world` the one simulated and drawn.
  void setWorld(std::unique_ptr<World> world);
  void homeView();
  void handleRequests();
  void startRecording();

  // One frame (viewer_frame.cpp).
  int runSteps(int steps);
  void stepOnce();
  void drawScene();
  void takeScreenshot(const std::filesystem::path& file);

  int runInteractive();
  int runScripted();  // viewer_scripted.cpp

  ViewerOptions options_;
  ViewerSettings settings_;
  std::filesystem::path settingsFile_;
  std::unique_ptr<Window> window_;
  std::unique_ptr<SceneRenderer> renderer_;
  std::unique_ptr<LineRenderer> lineRenderer_;
  DebugDraw debugDraw_;
  LineList lines_;
  OrbitCamera camera_;

  SceneDescription scene_;  // as loaded
  std::string sceneJson_;
  std::unique_ptr<World> world_;
  Dropper dropper_;
  MouseSpring spring_;
  ViewerInput input_;
  SimulationClock clock_{1.0 / 120.0, 8};
  RealTimeMeter meter_;
  StatisticsHistory history_;
  RecordingSession recording_;
  ViewerUi ui_;
  int dropLimit_ = -1;  // scripted drops: rain stops after this many (-1: no limit)
  double stepMsLastFrame_ = 0.0;
};

}  // namespace hb::viewer
