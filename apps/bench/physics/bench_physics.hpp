#pragma once
// `heavyball bench physics`: the scenarios with analytic answers (apps/bench/physics/) run in
// heavyball and in the other engines of `bench sim`; one table of expected against measured.

#include <filesystem>
#include <string>
#include <vector>

#include "engine/shipped_assets.hpp"

namespace CLI {
class App;
}

namespace hb::bench {

struct PhysicsBenchConfig {
  std::filesystem::path sceneDir =
      shippedSceneDir().empty() ? std::filesystem::path() : shippedSceneDir() / "physics";
  std::vector<std::string> scenarios;  ///< names to run; empty: all
  std::vector<std::string> peers = {"bullet", "mujoco", "mujoco-implicit"};
  bool json = false;  ///< one JSON object instead of the tables
};

/// Runs the scenarios and prints the table. Throws std::invalid_argument for unknown scenario or
/// engine names; an engine that fails or diverges on a scenario gets that said in its cells.
void runPhysicsBench(const PhysicsBenchConfig& config);

}  // namespace hb::bench

namespace hb::cli {

/// Registers `physics` under the `bench` command.
void addBenchPhysicsCommand(CLI::App& bench);

}  // namespace hb::cli
