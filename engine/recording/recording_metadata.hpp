#pragma once
// The metadata a Recorder stores for a scene loaded from a file and then adjusted (spawner count
// and seed, GJK settings from the command line): the file's JSON with those values written back
// and the asset directory made absolute, so the recording alone says what ran.

#include <filesystem>
#include <string>

#include "engine/recording/recorder.hpp"
#include "engine/scene.hpp"

namespace hb {

/// Reads `sceneFile` (the file `scene` was loaded from). Throws RecordingError naming the file
/// when it cannot be read.
RecordingMetadata recordingMetadata(const std::filesystem::path& sceneFile,
                                    const SceneDescription& scene);
/// The same from the scene's JSON text.
RecordingMetadata recordingMetadataFromText(const std::string& sceneJson,
                                            const SceneDescription& scene);

}  // namespace hb
