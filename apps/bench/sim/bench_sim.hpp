#pragma once
// `heavyball bench sim`: the same scene (statics, bodies, drops over time, materials, dt) run in
// heavyball's World and in other rigid-body engines (Bullet, and MuJoCo with each of two
// integrators; apps/bench/sim/sim_peer.hpp) one after the other in this process, for the same
// simulated time. Prints one table: speed,
// interpenetration measured by heavyball's narrow phase on every engine's poses, bodies at rest
// and how much they still move, and bodies that left the scene.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace hb::bench {

struct SimBenchConfig {
  std::string scene;
  int objects = -1;       ///< spawner count override; -1: the scene's
  long long seed = -1;    ///< spawner seed override; -1: the scene's
  double seconds = 10.0;  ///< simulated time per engine
  std::vector<std::string> peers = {"bullet", "mujoco", "mujoco-implicit"};
  int measureEvery = 1;  ///< penetration sampled after every this many steps, and at the end
  int threads = 1;       ///< heavyball's workers (the peers step on one thread)
  bool json = false;     ///< one JSON object instead of the notes and the table
};

/// Runs the benchmark and prints the table. An engine whose simulation diverges gets a row saying
/// so. Throws std::invalid_argument for a bad configuration (unknown engine names among them),
/// and std::runtime_error after the table if an engine failed otherwise (e.g. rejected the
/// scene).
void runSimBench(const SimBenchConfig& config);

}  // namespace hb::bench

namespace hb::cli {

/// Registers `sim` under the `bench` command.
void addBenchSimCommand(CLI::App& bench);

}  // namespace hb::cli
