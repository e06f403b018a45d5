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
  /// Creates `file` (overwriting it) and writes the metadata, the shapes and the bodies the
  /// world has now. Throws std::runtime_error naming the file on I/O errors.
  Recorder(const std::filesystem::path& file, const World& world, const RecordingMetadata& meta);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Appends the world's state after its last step (call from a World observer).
  void record(const World& world);
  /// Flushes and closes the file; later record() calls throw. The destructor closes too.
  void close();
  /// Bytes written so far (for the viewer's recording panel).
  std::uintmax_t bytesWritten() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hb
