// The shipped funnel scene stepped for one simulated second and recorded to an HDF5 file, with
// heavyball's engine and recording libraries.
#include <cstdio>
#include <filesystem>
#include <string>

#include "engine/recording/recorder.hpp"
#include "engine/recording/recording_metadata.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

int main(int argc, char** argv) {
  const std::filesystem::path scene =
      std::filesystem::path(HEAVYBALL_ASSETS) / "scenes" / "funnel.json";
  const std::filesystem::path out = argc > 1 ? argv[1] : "drop.h5";
  hb::World world(hb::loadScene(scene));
  hb::Recorder recorder(out, world, hb::recordingMetadata(scene, world.scene()));
  world.addObserver([&](const hb::World& w) { recorder.record(w); });
  const int steps = static_cast<int>(1.0 / world.scene().dt);
  for (int i = 0; i < steps; ++i) world.step();
  recorder.close();
  std::printf("%ld steps, %zu bodies, kinetic energy %.4f J, recorded to %s\n", world.stepCount(),
              world.bodies().size(), world.kineticEnergy(), out.c_str());
  return world.nonFinite() ? 1 : 0;
}
