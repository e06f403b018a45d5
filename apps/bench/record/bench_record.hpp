#pragma once
// `heavyball bench record`: what recording costs. Runs a scene with a spawner for consecutive
// seeds, each seed once without and once with a Recorder (alternating which goes first, so
// drifts of the machine's speed cancel), and prints per run the CPU time of the whole process
// (the recorder's writer thread included) and the wall time, their medians and the recording
// overhead (with - without) / without, per run and over all runs.

#include <cstdint>
#include <filesystem>
#include <string>

namespace CLI {
class App;
}

namespace hb::bench {

struct RecordBenchConfig {
  std::filesystem::path scene = "assets/scenes/funnel-pair.json";
  int runs = 100;             ///< seeds per repeat
  double seconds = 1.0;       ///< simulated time per run
  int repeats = 3;            ///< passes over the seeds
  unsigned seed = 0;          ///< first seed; 0: the scene's spawner seed
  std::filesystem::path dir;  ///< where the recordings go; empty: a temporary folder, removed
  bool json = false;          ///< one JSON object instead of the table
};

/// Runs the benchmark and prints its table. Throws std::invalid_argument for a bad
/// configuration and the scene's or the recorder's errors.
void runRecordBench(const RecordBenchConfig& config);

}  // namespace hb::bench

namespace hb::cli {

/// Registers `record` under the `bench` command.
void addBenchRecordCommand(CLI::App& bench);

}  // namespace hb::cli
