#pragma once
// The metadata a Recorder stores for a scene loaded from a file and then adjusted (spawner count
// and seed, GJK settings from the command line): the file's JSON with those values written back
// and the asset directory made absolute, so the recording alone says what ran.

#include <filesystem>

#include "engine/recorder.hpp"
#include "engine/scene.hpp"

namespace hb {

/// Reads `sceneFile` (the file `scene` was loaded from). Throws RecordingError naming the file
/// when it cannot be read.
RecordingMetadata recordingMetadata(const std::filesystem::path& sceneFile,
                                    const SceneDescription& scene);

}  // namespace hb
