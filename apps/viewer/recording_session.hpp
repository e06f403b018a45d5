#pragma once
// The viewer's recording: an HDF5 Recorder (engine/recording/recorder.hpp) started and stopped from
// the recording panel, fed after every step.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace hb {
class Recorder;
class World;
}  // namespace hb

namespace hb::viewer {

/// `file` if nothing exists there, else the first of stem-2.ext, stem-3.ext, ... that does not
/// exist (run.h5 -> run-2.h5).
std::filesystem::path unusedRecordingPath(const std::filesystem::path& file);

class RecordingSession {
 public:
  RecordingSession();
  ~RecordingSession();

  /// Starts writing `file`, or, when it exists, the first free numbered name beside it
  /// (unusedRecordingPath): a recording is never replaced. Stops a running recording first.
  /// Throws std::runtime_error naming the file.
  void start(const std::filesystem::path& file, const World& world, const std::string& sceneJson,
             unsigned seed);
  /// Appends the world's state after a step; a write error stops the recording and throws.
  void record(const World& world);
  /// Closes the file (no-op when not recording).
  void stop();

  bool active() const { return recorder_ != nullptr; }
  long steps() const { return steps_; }
  std::uintmax_t bytes() const;
  const std::filesystem::path& file() const { return file_; }

 private:
  std::unique_ptr<Recorder> recorder_;
  std::filesystem::path file_;
  long steps_ = 0;
  std::uintmax_t lastBytes_ = 0;
};

}  // namespace hb::viewer
