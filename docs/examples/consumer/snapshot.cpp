// A snapshot-branching experiment with heavyball's engine: the shipped funnel stepped for half a
// second, its state saved, then two branches from it, one with the previous step's solution as
// GJK's warm start and one with the OBB centres. Each branch is run twice from the snapshot, and
// the program checks that the two runs end in the same state bit for bit (restoreState then step
// equals stepping on) while the two warm starts cost different GJK iterations.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/scene.hpp"
#include "engine/state_hash.hpp"
#include "engine/world.hpp"

namespace {

struct Branch {
  std::uint64_t hash = 0;
  long gjkIterations = 0;
};

Branch runBranch(hb::World& world, const std::vector<std::uint8_t>& snapshot, hb::WarmStart warm) {
  world.restoreState(snapshot);
  world.solverSettings().warmStart = warm;
  Branch b;
  for (int i = 0; i < 60; ++i) {
    world.step();
    b.gjkIterations += world.lastStep().gjkIterations;
  }
  b.hash = hb::stateHash(world);
  return b;
}

}  // namespace

int main() {
  const std::filesystem::path scene =
      std::filesystem::path(HEAVYBALL_ASSETS) / "scenes" / "funnel.json";
  hb::World world(hb::loadScene(scene));
  for (int i = 0; i < 60; ++i) world.step();
  const std::vector<std::uint8_t> snapshot = world.saveState();
  int failures = 0;
  for (const hb::WarmStart warm : {hb::WarmStart::TransformedPrevious, hb::WarmStart::ObbCenters}) {
    const Branch first = runBranch(world, snapshot, warm);
    const Branch again = runBranch(world, snapshot, warm);
    const bool same = first.hash == again.hash && first.gjkIterations == again.gjkIterations;
    failures += same ? 0 : 1;
    std::printf("warm start %-12s: %ld GJK iterations over 60 steps, state %s, rerun %s\n",
                std::string(hb::toString(warm)).c_str(), first.gjkIterations,
                hb::hashHex(first.hash).c_str(), same ? "identical" : "DIFFERS");
  }
  std::printf("snapshot of %zu bytes at step 60\n", snapshot.size());
  return failures == 0 ? 0 : 1;
}
