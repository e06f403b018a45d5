// `heavyball bench ...`: benchmarks that print tables, one sub-command per folder of apps/bench
// (gjk, broadphase, sim, physics, record, cast, smooth, team), each registered by its own file.

#include <CLI/CLI.hpp>

#include "apps/bench/bench_command.hpp"
#include "apps/bench/broadphase/bench_broadphase.hpp"
#include "apps/bench/cast/bench_cast.hpp"
#include "apps/bench/gjk/bench_gjk.hpp"
#include "apps/bench/physics/bench_physics.hpp"
#include "apps/bench/record/bench_record.hpp"
#include "apps/bench/sim/bench_sim.hpp"
#include "apps/bench/smooth/bench_smooth.hpp"
#include "apps/bench/team/bench_team.hpp"

namespace hb::cli {

void addBenchCommand(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "Benchmarks that print tables");
  bench->require_subcommand(1);
  addBenchGjkCommand(*bench);
  addBenchBroadphaseCommand(*bench);
  addBenchSimCommand(*bench);
  addBenchPhysicsCommand(*bench);
  addBenchRecordCommand(*bench);
  addBenchCastCommand(*bench);
  addBenchSmoothCommand(*bench);
  addBenchTeamCommand(*bench);
}

}  // namespace hb::cli
