#include "apps/viewer/viewer_app.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/shipped_assets.hpp"
#include "render/opening_view.hpp"
#include "render/panels.hpp"

namespace hb::viewer {
namespace {

std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Scene files offered in the scene panel: the bundled scenes and the current one's neighbours.
std::vector<std::filesystem::path> sceneFiles(const std::filesystem::path& current) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const std::filesystem::path& dir : {shippedSceneDir(), current.parent_path()}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::filesystem::path file = std::filesystem::absolute(entry.path()).lexically_normal();
      if (file.extension() == ".json" &&
          std::find(files.begin(), files.end(), file) == files.end()) {
        files.push_back(file);
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// The joints panel's target changes, in the order asked; a refused one says why in the status.
void applyJointRequests(World& world, ViewerUi& ui) {
  for (const JointTargetRequest& r : ui.joints.requests) {
    try {
      if (r.spherical) {
        world.setJointTargets(r.joint, r.turn, r.spin);
      } else {
        world.setJointTargets(r.joint, r.position, r.velocity);
      }
    } catch (const std::exception& e) {
      ui.status = std::string("cannot set the joint's targets: ") + e.what();
    }
  }
  ui.joints.requests.clear();
}

}  // namespace

ViewerApp::ViewerApp(const ViewerOptions& options) : options_(options), dropper_(options.seed) {
  const std::filesystem::path configDir = settingsDirectory();
  if (options_.useSettings && !configDir.empty()) {
    settingsFile_ = configDir / "viewer.json";
    settings_ = loadSettings(settingsFile_);
  }
  WindowOptions w;
  w.width = options_.width > 0 ? options_.width : settings_.width;
  w.height = options_.height > 0 ? options_.height : settings_.height;
  w.title = "heavyball viewer";
  w.samples = options_.samples >= 0 ? options_.samples : 4;
  w.vsync = !options_.scripted();
  if (!settingsFile_.empty()) w.imguiIniFile = (configDir / "imgui.ini").string();
  window_ = std::make_unique<Window>(w);
  if (options_.samples < 0 && window_->softwareRenderer()) {
    // Multisampling multiplies a CPU rasteriser's work and the shadow pass its triangles:
    // without both, frames come about twice as fast and look much the same.
    window_.reset();
    w.samples = 0;
    window_ = std::make_unique<Window>(w);
    options_.render.detailedShadows = false;
    spdlog::info(
        "{}: software rendering, so no multisampling and coarse shadows (--msaa 4 and "
        "the debug panel turn them back on)",
        window_->glDescription());
  } else {
    spdlog::info("{}", window_->glDescription());
  }
  renderer_ = std::make_unique<SceneRenderer>(options_.maxTextureSize, options_.shadowMapSize);
  lineRenderer_ = std::make_unique<LineRenderer>();

  ui_.render = options_.render;
  ui_.debug = options_.debug;
  ui_.openDebugPanel = options_.openDebugPanel;
  ui_.showUi = !options_.hideUi && settings_.showUi;
  ui_.showStatistics = settings_.showStatistics;
  ui_.drop.rainRate = static_cast<float>(std::min(options_.rainRate, 120.0));
  ui_.drop.parts = options_.dropParts;
  if (options_.drop > 0) {
    // Scripted drops replace the scene's own spawner.
    ui_.simulation.useSceneSpawner = false;
    ui_.drop.rain = true;
    dropLimit_ = options_.drop;
  }
  std::filesystem::path scene = options_.scene;
  if (scene.empty() && !settings_.scene.empty() && std::filesystem::exists(settings_.scene)) {
    scene = settings_.scene;
  }
  if (scene.empty()) {
    if (shippedSceneDir().empty()) {
      throw std::runtime_error(
          "no scene given (--scene) and the shipped scenes were not found next to the "
          "executable: set HEAVYBALL_ASSETS to heavyball's assets folder");
    }
    scene = shippedSceneDir() / "funnel.json";
  }
  loadScene(scene);
  ui_.selectedBody = options_.select;  // a body dropped later is selected when it comes
  if (!options_.record.empty()) {
    ui_.recording.file = options_.record.string();
    startRecording();
    if (!ui_.recording.error.empty()) throw std::runtime_error(ui_.recording.error);
    if (!ui_.recording.note.empty()) spdlog::info("{}", ui_.recording.note);
  }
}

ViewerApp::~ViewerApp() {
  recording_.stop();
  if (!settingsFile_.empty() && !options_.scripted()) {
    settings_.width = window_->width();
    settings_.height = window_->height();
    settings_.scene = ui_.scene.current.string();
    settings_.showUi = ui_.showUi;
    settings_.showStatistics = ui_.showStatistics;
    saveSettings(settingsFile_, settings_);
  }
  // GL objects go before the window and its context.
  lineRenderer_.reset();
  renderer_.reset();
}

void ViewerApp::loadScene(const std::filesystem::path& file) {
  const std::filesystem::path absolute = std::filesystem::absolute(file).lexically_normal();
  // Build the new world before replacing anything: a scene that fails leaves the old one.
  SceneDescription scene = hb::loadScene(absolute);
  auto world = buildWorld(scene, true);
  scene_ = std::move(scene);
  sceneJson_ = readText(absolute);
  ui_.scene.current = absolute;
  ui_.scene.files = sceneFiles(absolute);
  ui_.scene.spawner = scene_.spawner;
  ui_.scene.error.clear();
  clock_ = SimulationClock(scene_.dt, 8);
  setWorld(std::move(world));
  homeView();
}

std::unique_ptr<World> ViewerApp::buildWorld(const SceneDescription& scene,
                                             bool keepSceneBodies) const {
  SceneDescription s = scene;
  if (!ui_.simulation.useSceneSpawner) s.spawner.reset();
  if (!keepSceneBodies) s.bodies.clear();
  return std::make_unique<World>(s, options_.threads);
}

void ViewerApp::setWorld(std::unique_ptr<World> world) {
  if (recording_.active()) {
    recording_.stop();
    ui_.status = "recording stopped: the world was rebuilt";
  }
  world_ = std::move(world);
  ui_.drop.assets = world_->assets().names();
  // Drops collide as the scene's spawner makes them (or as --parts asks), until changed.
  const auto& spawner = world_->scene().spawner;
  ui_.drop.parts = options_.dropParts || (spawner && spawner->parts);
  renderer_->setWorld(*world_);
  dropper_.setWorld(*world_, renderer_->sceneCenter(), renderer_->sceneRadius());
  spring_.release();
  ui_.selectedBody = -1;
  ui_.drop.dropped = 0;
  history_.clear();
  clock_.reset();
}

void ViewerApp::homeView() {
  camera_.setHome(openingView(scene_, *renderer_));
}

void ViewerApp::startRecording() {
  ui_.recording.error.clear();
  ui_.recording.note.clear();
  try {
    const unsigned seed = scene_.spawner ? scene_.spawner->seed : options_.seed;
    const std::filesystem::path asked = ui_.recording.file;
    recording_.start(asked, *world_, sceneJson_, seed);
    if (recording_.file() != asked) {
      ui_.recording.note = asked.string() + " exists: recording to " +
                           recording_.file().filename().string() + " instead";
    }
  } catch (const std::exception& e) {
    ui_.recording.error = e.what();
  }
}

void ViewerApp::handleRequests() {
  // Before any rebuild: the requests name the joints of the world the panel showed.
  applyJointRequests(*world_, ui_);
  SceneControls& scene = ui_.scene;
  if (scene.loadRequested) {
    const std::filesystem::path file = *scene.loadRequested;
    scene.loadRequested.reset();
    try {
      loadScene(file);
    } catch (const std::exception& e) {
      scene.error = e.what();
    }
  }
  SimulationControls& sim = ui_.simulation;
  if (sim.resetRequested || sim.clearRequested) {
    if (sim.clearRequested) sim.useSceneSpawner = false;
    try {
      setWorld(buildWorld(scene_, !sim.clearRequested));
    } catch (const std::exception& e) {
      ui_.status = std::string("cannot rebuild the scene: ") + e.what();
    }
  }
  sim.resetRequested = sim.clearRequested = false;

  if (ui_.drop.dropRequested) {
    ui_.drop.dropRequested = false;
    try {
      dropper_.drop(*world_, ui_.drop);
      ++ui_.drop.dropped;
    } catch (const std::exception& e) {
      ui_.status = std::string("cannot drop: ") + e.what();
    }
  }

  const int selected = ui_.selectedBody;
  if (ui_.frameSelectionRequested && selected > 0 && selected < int(world_->bodies().size())) {
    // The body's reach: its pieces' world boxes.
    double radius = 0.05;
    for (int p : world_->bodies()[selected].proxies) {
      radius = std::max(radius, world_->worldObbs()[p].halfExtents.norm());
    }
    camera_.frame(world_->rigidBodies()[selected].position, 2.0 * radius);
  }
  ui_.frameSelectionRequested = false;
  if (ui_.resetViewRequested) camera_.reset();
  ui_.resetViewRequested = false;

  RecordingControls& rec = ui_.recording;
  if (rec.startRequested) startRecording();
  if (rec.stopRequested) recording_.stop();
  rec.startRequested = rec.stopRequested = false;
  rec.active = recording_.active();
  rec.steps = recording_.steps();
  rec.bytes = recording_.bytes();
  if (rec.active) rec.file = recording_.file().string();
}

int ViewerApp::run() {
  return options_.scripted() ? runScripted() : runInteractive();
}

int ViewerApp::runInteractive() {
  using Clock = std::chrono::steady_clock;
  Clock::time_point last = Clock::now();
  bool quit = false;
  startPhysics();
  while (!window_->shouldClose() && !quit) {
    window_->beginFrame();
    const Clock::time_point frameStart = Clock::now();
    const double wallDt = std::min(std::chrono::duration<double>(frameStart - last).count(), 0.25);
    last = frameStart;
    {
      const auto lock = lockWorldForFrame();
      input_.update(camera_, *world_, spring_, ui_, window_->keyPresses(), quit);
      drawPanels(ui_, *world_, history_, renderer_->statistics(), shortcutHelp());
      handleRequests();
      camera_.update(wallDt);
      collectFrame();
    }
    const Clock::time_point renderStart = Clock::now();
    renderFrame();
    window_->drawUi();
    if (ui_.screenshotRequested) {
      ui_.screenshotRequested = false;
      char name[64];
      const std::time_t now = std::time(nullptr);
      std::strftime(name, sizeof name, "heavyball-%Y%m%d-%H%M%S.png", std::localtime(&now));
      takeScreenshot(name);
    }
    const double renderMs =
        std::chrono::duration<double, std::milli>(Clock::now() - renderStart).count();
    window_->present();
    const auto lock = lockWorldForFrame();
    history_.addFrame(static_cast<float>(1000.0 * wallDt), static_cast<float>(renderMs),
                      stepsSinceFrame_);
    stepsSinceFrame_ = 0;
  }
  stopPhysics();
  return 0;
}

}  // namespace hb::viewer
