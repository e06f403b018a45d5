#pragma once
// `heavyball bench team`: what sharing one world's step among workers costs on this machine. A
// coloured island's sweeps run as phases (dynamics/team_phases.hpp), each ending when every worker
// has seen every item done, so each phase costs at least a trip of a cache line from core to core;
// the pool (engine/worker_pool.hpp) wakes its workers for each parallel part of the step. The
// table gives, each as the median and the range over repeats: the round trip of a cache line
// between two threads, the cost of a phase of a few trivial items on one worker and on `workers`
// at once, and the pool's start after the calling thread worked alone for a while. These set how
// much of a second core one world's step can use: on a virtual machine, where they change with
// where its cores run, they explain one-thread-against-two figures that change from hour to hour.

#include <string>

namespace CLI {
class App;
}

namespace hb::bench {

struct TeamBenchConfig {
  int workers = 2;     ///< workers sharing the phases and the pool
  int phases = 20000;  ///< phases per measurement
  int items = 16;      ///< trivial items per phase
  int repeats = 7;     ///< measurements of each figure
  bool json = false;   ///< one JSON object instead of the table
};

/// Runs the benchmark and prints its table.
void runTeamBench(const TeamBenchConfig& config);

}  // namespace hb::bench

namespace hb::cli {

/// Registers `team` under the `bench` command.
void addBenchTeamCommand(CLI::App& bench);

}  // namespace hb::cli
