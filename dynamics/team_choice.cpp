#include "dynamics/team_choice.hpp"

namespace hb {

bool TeamChoice::team() {
  const std::int64_t call = calls_++;
  bool onTeam;
  if (cost_[1] == 0.0) {
    onTeam = true;
  } else if (cost_[0] == 0.0) {
    onTeam = false;
  } else {
    const bool teamCostsLess = cost_[1] <= cost_[0];
    onTeam = call % kTryTheOtherEvery == 0 ? !teamCostsLess : teamCostsLess;
  }
  if (!onTeam) ++aloneCalls_;
  return onTeam;
}

void TeamChoice::record(bool team, double items, double seconds) {
  if (!(items > 0.0) || !(seconds > 0.0)) return;
  const double cost = seconds / items;
  double& running = cost_[team ? 1 : 0];
  running = running == 0.0 ? cost : running + kNewestWeight * (cost - running);
}

}  // namespace hb
