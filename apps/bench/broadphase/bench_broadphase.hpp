#pragma once
// `heavyball bench broadphase`: BroadPhase::update() on scenes of 10, 100, 1000, ... random boxes
// at constant density (so pair counts grow linearly with n), cold (first call on a new
// BroadPhase) and warm (every box moved by one 120 Hz step between calls), against the
// brute-force reference on the smaller scenes. Prints a table with the log-log slope of the time
// between consecutive sizes, then a second one with the boxes half as big among the funnel
// scene's statics (a 100 m ground box, 16 panels, 4 walls), as in the shipped funnel.

#include <cstdint>

namespace CLI {
class App;
}

namespace hb::bench {

struct BroadphaseBenchConfig {
  int maxBodies = 10000;  ///< sizes are the powers of ten up to this, then this
  int repeats = 50;       ///< timed updates per size and kind; the median is reported
  int bruteMaxBodies = 1000;
  double density = 10.0;  ///< bodies per cubic metre
  std::uint64_t seed = 20240615;
  bool json = false;  ///< one JSON object instead of the tables
};

/// Runs the benchmark. Throws std::invalid_argument for a bad configuration.
void runBroadphaseBench(const BroadphaseBenchConfig& config);

}  // namespace hb::bench

namespace hb::cli {

/// Registers `broadphase` under the `bench` command.
void addBenchBroadphaseCommand(CLI::App& bench);

}  // namespace hb::cli
