// The physics thread: the world stepped at its fixed rate on the wall clock, whatever the frame
// rate, one step per hold of the world's lock so that frames get in between.

#include <algorithm>
#include <chrono>

#include "apps/viewer/viewer_app.hpp"

namespace hb::viewer {

void ViewerApp::startPhysics() {
  stopPhysics();
  clock_.reset();
  physics_ = std::jthread([this](std::stop_token stop) { physicsLoop(stop); });
}

void ViewerApp::stopPhysics() {
  if (!physics_.joinable()) return;
  physics_.request_stop();
  physics_.join();
}

std::unique_lock<std::mutex> ViewerApp::lockWorldForFrame() {
  frameWaiting_ = true;
  std::unique_lock<std::mutex> lock(worldMutex_);
  frameWaiting_ = false;
  return lock;
}

void ViewerApp::physicsLoop(std::stop_token stop) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point last = Clock::now();
  while (!stop.stop_requested()) {
    const Clock::time_point now = Clock::now();
    // A stall (debugger, suspended machine) must not turn into a burst of steps.
    const double wallDt = std::min(std::chrono::duration<double>(now - last).count(), 0.25);
    last = now;
    int steps = 0;
    {
      std::lock_guard lock(worldMutex_);
      SimulationControls& sim = ui_.simulation;
      if (sim.paused) {
        steps = sim.stepRequested ? 1 : 0;
        clock_.reset();
      } else {
        steps = clock_.advance(wallDt, sim.timeScale);
        if (clock_.fellBehind()) ++droppedAdvances_;
      }
      sim.stepRequested = false;
      meter_.add(sim.paused ? 0.0 : wallDt,
                 steps * world_->scene().dt / std::max(sim.timeScale, 1e-6f));
      sim.realTimeFactor = meter_.factor();
      sim.fallingBehind = clock_.fellBehind();
    }
    for (int i = 0; i < steps && !stop.stop_requested(); ++i) {
      // A frame waiting for the world goes first: a mutex hands itself to no one in particular,
      // and a thread that takes it back at once could keep the frame out for many steps.
      while (frameWaiting_ && !stop.stop_requested()) std::this_thread::yield();
      std::lock_guard lock(worldMutex_);
      stepOnce();
    }
    if (steps == 0) std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}

}  // namespace hb::viewer
