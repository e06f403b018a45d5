#include "engine/recording/recording_metadata.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/recording/recording_error.hpp"

namespace hb {

RecordingMetadata recordingMetadata(const std::filesystem::path& sceneFile,
                                    const SceneDescription& scene) {
  std::ifstream in(sceneFile);
  if (!in) throw RecordingError("scene " + sceneFile.string() + ": cannot read it for recording");
  std::ostringstream text;
  text << in.rdbuf();
  return recordingMetadataFromText(text.str(), scene);
}

RecordingMetadata recordingMetadataFromText(const std::string& sceneJson,
                                            const SceneDescription& scene) {
  RecordingMetadata meta;
  meta.seed = scene.spawner ? scene.spawner->seed : 0;
  nlohmann::json root = nlohmann::json::parse(sceneJson, nullptr, false);
  if (!root.is_object()) {  // parseScene accepted it, so this does not happen; keep the text
    meta.sceneJson = sceneJson;
    return meta;
  }
  root["asset_dir"] = scene.assetDir.string();
  if (scene.spawner && root.contains("spawner") && root["spawner"].is_object()) {
    root["spawner"]["count"] = scene.spawner->count;
    root["spawner"]["seed"] = scene.spawner->seed;
  }
  nlohmann::json& solver = root["solver"];
  if (!solver.is_object()) solver = nlohmann::json::object();
  solver["gjk_variant"] = std::string(toString(scene.solver.gjkVariant));
  solver["warm_start"] = std::string(toString(scene.solver.warmStart));
  solver["warm_simplex"] = scene.solver.warmSimplex;
  solver["gjk_tolerance"] = scene.solver.gjkTolerance;
  solver["gjk_max_iterations"] = scene.solver.gjkMaxIterations;
  meta.sceneJson = root.dump(2);
  return meta;
}

}  // namespace hb
