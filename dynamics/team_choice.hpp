#pragma once
// Whether a solve's phases run on the team or on the calling thread alone (team_phases.hpp).
// Where the workers have cores of their own, the team wins. On a host that shares its cores out,
// a worker can lose its core for milliseconds while it holds a claim, and every phase after
// waits for it: there one thread alone can be faster. The bits are the same either way (a
// phase's items commute, and a worker that never starts leaves nothing undone), so the choice
// is made by what each way has cost lately, and only the time depends on it.

#include <chrono>
#include <cstdint>

namespace hb {

class TeamChoice {
 public:
  /// Every this many calls, the way that costs more lately runs once, to see whether it still
  /// does (the host's load changes as a run goes).
  static constexpr int kTryTheOtherEvery = 32;
  /// Weight of the newest cost per item in the running cost of its way.
  static constexpr double kNewestWeight = 0.25;

  /// Whether the next call runs on the team: the team until both ways have been timed, then
  /// the way that has cost less per item, the other once every kTryTheOtherEvery calls.
  bool team();
  /// The call just made: on the team or not, `items` of work (> 0) in `seconds`.
  void record(bool team, double items, double seconds);

  /// Runs onTeam() or alone(), as team() chooses, and records its time for items() (called
  /// after it) items. Returns whether it ran alone.
  template <typename OnTeam, typename Alone, typename Items>
  bool run(OnTeam&& onTeam, Alone&& alone, Items&& items) {
    const bool chosen = team();
    const auto start = std::chrono::steady_clock::now();
    if (chosen) {
      onTeam();
    } else {
      alone();
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    record(chosen, items(), took.count());
    return !chosen;
  }

  /// Calls run alone though a team was there, since construction.
  std::int64_t aloneCalls() const { return aloneCalls_; }

 private:
  double cost_[2] = {0.0, 0.0};  // seconds per item, alone and on the team (0: not timed yet)
  std::int64_t calls_ = 0;
  std::int64_t aloneCalls_ = 0;
};

}  // namespace hb
