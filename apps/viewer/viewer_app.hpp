#pragma once
// The viewer application: a window, the renderer and the panels around one World stepped at
// its fixed rate (120 Hz) on the wall clock, decoupled from the frame rate. Interactive, or
// scripted (a number of frames, drops, a screenshot, timings) for tests and benchmarks.
//
// Interactively, and in benchmarks, the world steps on a physics thread of its own, so a slow
// renderer (a software one draws 200 objects in ~100 ms) does not slow the simulation down. The
// world, the user-interface state and the statistics are shared under one mutex: the frame holds
// it to handle input and panels and to copy what it draws, then draws without it. Scripted
// frames without the benchmark step on the frame's thread, a fixed number of steps per frame, so
// that their screenshots are the same on every machine.

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

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
  /// collectFrame() then renderFrame().
  void drawScene();
  /// What the frame draws, copied from the world (hold worldMutex_ when the physics thread runs).
  void collectFrame();
  /// Draws what collectFrame() copied; needs no lock.
  void renderFrame();
  /// Writes the window to a PNG and says so in the status line; false (and an error in the log)
  /// when it cannot.
  bool takeScreenshot(const std::filesystem::path& file);

  // The physics thread (viewer_physics.cpp).
  /// Steps the world on the wall clock (pausing, single steps and the time scale from the
  /// simulation panel) until `stop` is requested.
  void physicsLoop(std::stop_token stop);
  void startPhysics();
  void stopPhysics();
  /// The world's lock for the frame's thread: the physics thread lets it in between two steps.
  std::unique_lock<std::mutex> lockWorldForFrame();

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
  int stepsSinceFrame_ = 0;  // for the steps-per-frame plot

  // Drawn by renderFrame(), filled by collectFrame().
  BodyHighlights highlights_;
  LineList springLines_;  // the grab's rubber band, drawn on top

  std::mutex worldMutex_;  // world_, ui_, history_, dropper_, spring_, recording_, clock_, meter_
  std::atomic<bool> frameWaiting_{false};
  std::atomic<long> droppedAdvances_{0};  // physics wake-ups that dropped time (fell behind)
  std::jthread physics_;                  // last: stops before the rest goes
};

}  // namespace hb::viewer
