#include "apps/viewer/recording_session.hpp"

#include <stdexcept>

#include "engine/recording/recorder.hpp"
#include "engine/world.hpp"

namespace hb::viewer {

RecordingSession::RecordingSession() = default;
RecordingSession::~RecordingSession() {
  stop();
}

void RecordingSession::start(const std::filesystem::path& file, const World& world,
                             const std::string& sceneJson, unsigned seed) {
  stop();
  RecordingMetadata meta;
  meta.sceneJson = sceneJson;
  meta.seed = seed;
  recorder_ = std::make_unique<Recorder>(file, world, meta);
  file_ = file;
  steps_ = 0;
  lastBytes_ = 0;
}

void RecordingSession::record(const World& world) {
  if (!recorder_) return;
  try {
    recorder_->record(world);
    ++steps_;
  } catch (...) {
    recorder_.reset();
    throw;
  }
}

void RecordingSession::stop() {
  if (!recorder_) return;
  recorder_->close();
  lastBytes_ = recorder_->bytesWritten();
  recorder_.reset();
}

std::uintmax_t RecordingSession::bytes() const {
  return recorder_ ? recorder_->bytesWritten() : lastBytes_;
}

}  // namespace hb::viewer
