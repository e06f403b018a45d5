#pragma once
// What the viewer's panels show and edit. Panels write requests (step, reset, drop, load,
// record...) into these structs and the application acts on them, so the panels know nothing of
// the application loop, the recorder or the window.

#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "collision/shape.hpp"
#include "engine/scene.hpp"
#include "render/debug_draw.hpp"
#include "render/render_settings.hpp"

namespace hb {

struct SimulationControls {
  bool paused = false;
  float timeScale = 1.0f;
  bool stepRequested = false;
  bool resetRequested = false;  ///< rebuild the World from the scene as loaded
  bool clearRequested = false;  ///< rebuild without the scene's spawner and listed bodies
  bool useSceneSpawner = true;  ///< the scene's own spawner runs after a reset
  // Shown, set by the application.
  double realTimeFactor = 1.0;  ///< simulated time / wall time over the last second
  bool fallingBehind = false;   ///< steps were dropped to keep the frame rate up
  /// Scripted runs step a fixed 1/60 s per frame whatever the wall clock says.
  bool fixedSchedule = false;
};

struct SceneControls {
  std::vector<std::filesystem::path> files;  ///< scene files offered
  std::filesystem::path current;
  std::optional<SpawnerDescription> spawner;  ///< the loaded scene's, whether or not it runs
  std::optional<std::filesystem::path> loadRequested;
  std::string error;  ///< why the last load failed
};

enum class DropKind { RandomAsset, Asset, Primitive };

struct DropControls {
  std::vector<std::string> assets;  ///< the palette's assets (set when a world is built)
  DropKind kind = DropKind::RandomAsset;
  std::string asset;   ///< for DropKind::Asset
  bool parts = false;  ///< assets collide as their convex decompositions' pieces, not hulls
  ShapeType primitive = ShapeType::Box;  ///< for DropKind::Primitive
  float primitiveSize = 0.04f;           ///< m, the primitive's characteristic half size
  bool randomOrientation = true;
  Eigen::Vector3f eulerDegrees = Eigen::Vector3f::Zero();  ///< z-y-x, when not random
  float downwardSpeed = 0.5f;                              ///< m/s
  float lateralSpeed = 0.3f;  ///< m/s, random horizontal velocity up to this
  float spin = 3.0f;          ///< rad/s, random angular velocity up to this
  float spread = 0.5f;        ///< fraction of the funnel mouth's radius drops land within
  Material material{0.5, 0.1};
  bool rain = false;
  float rainRate = 4.0f;  ///< drops per simulated second
  bool dropRequested = false;
  int dropped = 0;  ///< shown
};

struct RecordingControls {
  std::string file = "heavyball-recording.h5";
  bool active = false;
  std::uintmax_t bytes = 0;
  long steps = 0;
  std::string error;
  /// Said when the recording went to a numbered name because the file asked for exists.
  std::string note;
  bool startRequested = false;
  bool stopRequested = false;
};

/// A change of a joint's motor targets asked for by the joints panel: the application applies it
/// with World::setJointTargets (which enables the motor and keeps its gains and force limit).
struct JointTargetRequest {
  int joint = 0;
  bool spherical = false;                          ///< turn and spin, else position and velocity
  double position = 0.0;                           ///< rad or m
  double velocity = 0.0;                           ///< rad/s or m/s
  Eigen::Vector3d turn = Eigen::Vector3d::Zero();  ///< rad, a rotation vector
  Eigen::Vector3d spin = Eigen::Vector3d::Zero();  ///< rad/s
};

struct JointControls {
  std::vector<JointTargetRequest> requests;  ///< applied in order, then cleared
};

struct ShortcutHelp {
  const char* keys;
  const char* action;
};

struct ViewerUi {
  SimulationControls simulation;
  SceneControls scene;
  DropControls drop;
  RecordingControls recording;
  JointControls joints;
  DebugDrawOptions debug;
  RenderSettings render;
  bool showUi = true;
  bool showHelp = false;
  bool showStatistics = true;
  bool openDebugPanel = false;  ///< open the debug draw section at the next frame (--debug)
  int selectedBody = -1;
  bool frameSelectionRequested = false;
  bool resetViewRequested = false;
  bool screenshotRequested = false;
  std::string status;  ///< one line shown at the bottom (last screenshot, errors)
};

}  // namespace hb
