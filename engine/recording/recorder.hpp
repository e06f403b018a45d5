#pragma once
// Records a simulation to HDF5 (layout: docs/recording-format.md): metadata, the shapes, the
// bodies, per step every body's pose and velocity, and every narrow-phase collision problem with
// its warm-start inputs and result. Chunked and compressed; memory stays bounded whatever the run
// length (data are appended chunk by chunk).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace hb {

class World;

struct RecordingMetadata {
  std::string sceneJson;  ///< the scene as loaded (JSON text), so a recording is self-contained
  unsigned seed = 0;      ///< spawner seed of the run
};

class Recorder {
 public:
  /// Creates `file` (overwriting it); the metadata, the shapes and the bodies the world has now
  /// are written to it in the background. Throws RecordingError naming the file if it cannot be
  /// created; errors writing it are thrown by a later record() or close().
  Recorder(const std::filesystem::path& file, const World& world, const RecordingMetadata& meta);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Appends the world's state after its last step (call from a World observer). Throws
  /// RecordingError if writing failed (now or in the background since the last call).
  void record(const World& world);
  /// Writes the rest, closes the file and waits until it is closed; later record() calls throw.
  /// Throws RecordingError if writing failed. The destructor closes too (logging errors).
  void close();
  /// Bytes written so far (for the viewer's recording panel).
  std::uintmax_t bytesWritten() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hb
