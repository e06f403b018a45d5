#include "apps/viewer/recording_session.hpp"

#include <stdexcept>

#include "engine/recording/recorder.hpp"
#include "engine/world.hpp"

namespace hb::viewer {

std::filesystem::path unusedRecordingPath(const std::filesystem::path& file) {
  std::error_code error;
  if (!std::filesystem::exists(file, error) && !error) return file;
  for (int n = 2;; ++n) {
    std::filesystem::path numbered = file;
    numbered.replace_filename(file.stem().string() + "-" + std::to_string(n) +
                              file.extension().string());
    if (!std::filesystem::exists(numbered, error) && !error) return numbered;
  }
}

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
  const std::filesystem::path target = unusedRecordingPath(file);
  recorder_ = std::make_unique<Recorder>(target, world, meta);
  file_ = target;
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
