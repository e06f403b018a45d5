#pragma once
// The root attributes and the scene text a recording starts with: the run's settings
// (docs/recording-format.md), copied from the world when the recording starts and written later
// on the recorder's writer thread. Internal to hb_recording (includes the HDF5 headers).

#include <H5Cpp.h>

#include <Eigen/Core>
#include <string>

#include "engine/recording/recorder.hpp"
#include "engine/scene.hpp"

namespace hb {
class World;
}

namespace hb::recording {

/// What the root attributes and `scene_json` say, copied when the recording starts: the file is
/// written later, on the writer thread, while the world moves on.
struct RunDescription {
  std::string sceneName;
  std::string assetDir;
  double dt = 0.0;
  Eigen::Vector3d gravity;
  SolverDescription solver;
  RecordingMetadata meta;
};

/// What `world` runs with, and `meta`.
RunDescription describeRun(const World& world, const RecordingMetadata& meta);
/// The root attributes and the `scene_json` dataset of a new recording.
void writeRunAttributes(const H5::H5File& file, const RunDescription& run);

}  // namespace hb::recording
