// `heavyball bench team`: a cache line's round trip, a team phase's cost and the pool's start.

#include "apps/bench/team/bench_team.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

#include "apps/cli/json_output.hpp"
#include "dynamics/team_phases.hpp"
#include "engine/recording/warm_start_study_summary.hpp"
#include "engine/worker_pool.hpp"

namespace hb::bench {

namespace {

using Clock = std::chrono::steady_clock;

double microsecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

struct Spread {
  double median = 0.0, low = 0.0, high = 0.0;
};

Spread spreadOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {sortedQuantile(v, 0.5), v.front(), v.back()};
}

/// One trip there and back of a cache line between two threads, in ns: each waits for the
/// other's write before it writes.
double roundTripNanoseconds(int trips) {
  alignas(64) std::atomic<int> turn{0};
  std::jthread other([&] {
    for (int i = 0; i < trips; ++i) {
      while (turn.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      turn.store(2 * i + 2, std::memory_order_release);
    }
  });
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < trips; ++i) {
    turn.store(2 * i + 1, std::memory_order_release);
    while (turn.load(std::memory_order_acquire) != 2 * i + 2) {
    }
  }
  return 1e3 * microsecondsSince(start) / trips;
}

/// A phase's cost in us, `phases` phases of `items` items each writing its own slot, on
/// `workers` threads at once (one: on this thread).
double phaseMicroseconds(int workers, int phases, int items) {
  TeamPhases team;
  team.ready(static_cast<std::size_t>(phases), workers);
  std::vector<double> slots(static_cast<std::size_t>(items), 0.0);
  const auto worker = [&](int w) {
    for (int p = 0; p < phases; ++p) {
      runTeamPhase(team, static_cast<std::size_t>(p), w, items, 1, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) slots[i] += 1.0;
      });
    }
  };
  const Clock::time_point start = Clock::now();
  if (workers == 1) {
    worker(0);
  } else {
    std::vector<std::jthread> threads;
    for (int w = 0; w < workers; ++w) threads.emplace_back(worker, w);
  }
  return microsecondsSince(start) / phases;
}

/// The pool's start in us: runTasks of `workers` empty tasks after `aloneUs` of work on this
/// thread alone (long enough, the pool's workers have gone to sleep by then).
double poolStartMicroseconds(WorkerPool& pool, int workers, double aloneUs, int starts) {
  std::atomic<int> sink{0};
  double total = 0.0;
  for (int i = 0; i < starts; ++i) {
    const Clock::time_point alone = Clock::now();
    while (microsecondsSince(alone) < aloneUs) {
    }
    const Clock::time_point start = Clock::now();
    pool.runTasks(static_cast<std::size_t>(workers),
                  [&](std::size_t t) { sink.fetch_add(static_cast<int>(t)); });
    total += microsecondsSince(start);
  }
  return total / starts;
}

}  // namespace

void runTeamBench(const TeamBenchConfig& config) {
  const int trips = std::max(1000, config.phases);
  constexpr int kStarts = 200;
  constexpr double kAloneUs[] = {0.0, 20.0, 200.0};
  std::vector<double> roundTrip, phaseAlone, phaseTeam, start[3];
  WorkerPool pool(config.workers);
  for (int r = 0; r < config.repeats; ++r) {
    roundTrip.push_back(roundTripNanoseconds(trips));
    phaseAlone.push_back(phaseMicroseconds(1, config.phases, config.items));
    phaseTeam.push_back(phaseMicroseconds(config.workers, config.phases, config.items));
    for (int k = 0; k < 3; ++k) {
      start[k].push_back(poolStartMicroseconds(pool, config.workers, kAloneUs[k], kStarts));
    }
  }
  const Spread trip = spreadOf(roundTrip), alone = spreadOf(phaseAlone), team = spreadOf(phaseTeam);
  Spread starts[3];
  for (int k = 0; k < 3; ++k) starts[k] = spreadOf(start[k]);
  if (config.json) {
    const auto json = [](const Spread& s) {
      return nlohmann::json{{"median", s.median}, {"min", s.low}, {"max", s.high}};
    };
    nlohmann::json out = {
        {"bench", "team"},
        {"workers", config.workers},
        {"items_per_phase", config.items},
        {"repeats", config.repeats},
        {"round_trip_ns", json(trip)},
        {"phase_us", {{"one_worker", json(alone)}, {"workers", json(team)}}},
        {"pool_start_us",
         {{"after_0_us", json(starts[0])},
          {"after_20_us", json(starts[1])},
          {"after_200_us", json(starts[2])}}},
    };
    std::printf("%s\n", jsonLine(out).c_str());
    return;
  }
  std::printf("bench team: %d workers, phases of %d items, %d repeats (median [min, max])\n",
              config.workers, config.items, config.repeats);
  const auto row = [](const char* label, const Spread& s, const char* unit) {
    std::printf("%-44s %9.3f [%.3f, %.3f] %s\n", label, s.median, s.low, s.high, unit);
  };
  row("round trip of a cache line, two threads", trip, "ns");
  row("team phase, one worker", alone, "us");
  row("team phase, all workers at once", team, "us");
  row("pool start, right after the last", starts[0], "us");
  row("pool start, after 20 us alone", starts[1], "us");
  row("pool start, after 200 us alone", starts[2], "us");
}

}  // namespace hb::bench

namespace hb::cli {

void addBenchTeamCommand(CLI::App& bench) {
  auto config = std::make_shared<bench::TeamBenchConfig>();
  CLI::App* command = bench.add_subcommand(
      "team",
      "What sharing one world's step among workers costs on this machine: a cache line's round "
      "trip between two threads, a team phase on one worker and on all, the worker pool's start");
  command->add_option("--workers", config->workers, "Workers sharing the phases and the pool")
      ->check(CLI::Range(2, 64))
      ->capture_default_str();
  command->add_option("--phases", config->phases, "Phases per measurement")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  command->add_option("--items", config->items, "Trivial items per phase")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  command->add_option("--repeats", config->repeats, "Measurements of each figure")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  command->add_flag("--json", config->json, "Print one JSON object instead of the table");
  command->callback([config] { bench::runTeamBench(*config); });
}

}  // namespace hb::cli
