// Scripted runs: a fixed number of frames (with drops), a screenshot, and in benchmark mode
// the frame and simulation timings on the wall clock.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "apps/viewer/viewer_app.hpp"
#include "engine/run_summary.hpp"
#include "render/panels.hpp"

namespace hb::viewer {
namespace {

struct FrameTimes {
  std::vector<double> frameMs, renderMs;
  std::vector<double> shadowMs, opaqueMs, groundMs, funnelMs;
  long steps = 0;   // stepped by the physics thread during the measured frames
  long behind = 0;  // physics wake-ups that dropped time meanwhile
};

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(std::min(q * v.size(), v.size() - 1.0))];
}

double mean(const std::vector<double>& v) {
  double sum = 0.0;
  for (double x : v) sum += x;
  return v.empty() ? 0.0 : sum / v.size();
}

void printBenchmark(const FrameTimes& t, const RunSummary& run, const World& world,
                    const std::string& gl, int width, int height) {
  double wallMs = 0.0;
  for (double ms : t.frameMs) wallMs += ms;
  const double dt = world.scene().dt;
  const double factor = wallMs > 0.0 ? t.steps * dt / (wallMs / 1000.0) : 0.0;
  const double frame = mean(t.frameMs);
  double stepMs = 0.0;
  for (double ms : run.stageMsMean) stepMs += ms;
  std::printf("benchmark: scene %s, %d bodies, %dx%d, %s\n", world.scene().name.c_str(),
              static_cast<int>(world.bodies().size()) - 1, width, height, gl.c_str());
  std::printf("frames %zu: %.1f ms mean (median %.1f, p95 %.1f) = %.1f frames/s\n",
              t.frameMs.size(), frame, percentile(t.frameMs, 0.5), percentile(t.frameMs, 0.95),
              frame > 0.0 ? 1000.0 / frame : 0.0);
  std::printf(
      "render %.1f ms per frame: shadow pass %.1f, bodies %.1f, ground %.1f, funnel %.1f, "
      "overlays and panels %.1f\n",
      mean(t.renderMs), mean(t.shadowMs), mean(t.opaqueMs), mean(t.groundMs), mean(t.funnelMs),
      mean(t.renderMs) - mean(t.shadowMs) - mean(t.opaqueMs) - mean(t.groundMs) - mean(t.funnelMs));
  std::printf(
      "simulation (physics thread): %ld steps, %.2f ms per step (narrow phase %.2f ms, contact "
      "set-up %.2f ms, solve %.2f ms), %.1f contacts per step\n",
      t.steps, stepMs, run.stageMsMean[static_cast<int>(Stage::Collide)],
      run.stageMsMean[static_cast<int>(Stage::BuildContacts)],
      run.stageMsMean[static_cast<int>(Stage::Solve)], run.contactsMean);
  std::printf(
      "real time: %.2f s simulated in %.2f s = %.2fx; %ld physics wake-ups dropped time; "
      "keeps %.0f Hz real time: %s\n",
      t.steps * dt, wallMs / 1000.0, factor, t.behind, 1.0 / dt,
      factor >= 0.98 && t.behind == 0 ? "yes" : "no");
}

}  // namespace

int ViewerApp::runScripted() {
  using Clock = std::chrono::steady_clock;
  const double dt = world_->scene().dt;
  // Warm-up: simulated without drawing.
  const long warmupSteps = std::lround(options_.warmup / dt);
  for (long i = 0; i < warmupSteps; ++i) stepOnce();
  if (options_.benchmark) {
    renderer_->setProfiling(true);
    // Meshes and textures load before the clock starts.
    drawScene();
    renderer_->meshes().finishLoading();
  }
  RunSummaryBuilder summary;
  world_->addObserver([&summary](const World& w) { summary.add(w.lastStep()); });

  // The benchmark steps on the physics thread, on the wall clock, as interactively. Otherwise
  // every frame is 1/60 s of simulated time: the run and its screenshot are the same on every
  // machine.
  const int stepsPerFrame = std::max(1, static_cast<int>(std::lround(1.0 / 60.0 / dt)));
  ui_.simulation.fixedSchedule = !options_.benchmark;
  if (options_.benchmark) startPhysics();
  FrameTimes times;
  long stepsBefore = 0, behindBefore = 0;
  for (int frame = 0; frame < options_.frames; ++frame) {
    const Clock::time_point start = Clock::now();
    window_->beginFrame();
    const bool lastFrame = frame + 1 == options_.frames;
    {
      std::unique_lock<std::mutex> lock;
      if (options_.benchmark) {
        lock = lockWorldForFrame();
      } else {
        runSteps(stepsPerFrame);
      }
      drawPanels(ui_, *world_, history_, renderer_->statistics(), shortcutHelp());
      collectFrame();
      if ((lastFrame || !options_.benchmark) && renderer_->meshes().loading()) {
        // Scripted frames show every mesh: those this frame asked for are waited for.
        renderer_->meshes().finishLoading();
        collectFrame();
      }
      // The first frame compiles shaders and fills caches: measured from the second on.
      if (frame == 1) {
        stepsBefore = world_->stepCount();
        behindBefore = droppedAdvances_;
      }
      if (lastFrame && frame >= 1) {
        times.steps = world_->stepCount() - stepsBefore;
        times.behind = droppedAdvances_ - behindBefore;
      }
    }
    const Clock::time_point renderStart = Clock::now();
    renderFrame();
    window_->drawUi();
    if (options_.benchmark) window_->finishDrawing();
    const double renderMs =
        std::chrono::duration<double, std::milli>(Clock::now() - renderStart).count();
    if (lastFrame && !options_.screenshot.empty() && !takeScreenshot(options_.screenshot)) {
      stopPhysics();
      return 1;
    }
    window_->present();
    const Clock::time_point end = Clock::now();
    {
      std::unique_lock<std::mutex> lock;
      if (options_.benchmark) lock = lockWorldForFrame();
      const double frameMs = std::chrono::duration<double, std::milli>(end - start).count();
      history_.addFrame(static_cast<float>(frameMs), static_cast<float>(renderMs),
                        stepsSinceFrame_);
      stepsSinceFrame_ = 0;
    }
    if (frame > 0) {
      times.frameMs.push_back(std::chrono::duration<double, std::milli>(end - start).count());
      times.renderMs.push_back(renderMs);
      const RenderStatistics& r = renderer_->statistics();
      times.shadowMs.push_back(r.shadowMs);
      times.opaqueMs.push_back(r.opaqueMs);
      times.groundMs.push_back(r.groundMs);
      times.funnelMs.push_back(r.funnelMs);
    }
  }
  stopPhysics();
  if (options_.benchmark) {
    printBenchmark(times, summary.finish(*world_, 0.0), *world_, window_->glDescription(),
                   window_->framebufferWidth(), window_->framebufferHeight());
  }
  if (!options_.screenshot.empty()) std::printf("wrote %s\n", options_.screenshot.string().c_str());
  return 0;
}

}  // namespace hb::viewer
