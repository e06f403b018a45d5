// heavyball against mechanics: every scenario of `heavyball bench physics` (free flight and
// rotation, fast spin, the intermediate-axis flip, restitution, head-on and oblique collisions,
// friction, rolling, round bodies at rest, stacks) run in heavyball's World at 60, 120 (the
// scenes' own step) and 240 Hz, each measured quantity within its stated tolerance of the
// analytic answer (the tolerances and their reasons are in apps/bench/physics/).

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>

#include "apps/bench/physics/physics_scenario.hpp"
#include "engine/scene.hpp"

namespace {

std::vector<std::string> scenarioNames() {
  std::vector<std::string> names;
  for (const auto& s : hb::physics::makePhysicsScenarios()) names.emplace_back(s->name());
  return names;
}

class PhysicsScenarioTest : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(PhysicsScenarioTest, HeavyballMatchesTheAnalyticAnswer) {
  const auto& [name, hertz] = GetParam();
  for (auto& scenario : hb::physics::makePhysicsScenarios()) {
    if (scenario->name() != name) continue;
    hb::SceneDescription description = hb::loadScene(
        hb::physics::scenarioScene(*scenario, HB_SOURCE_DIR "/assets/scenes/physics"));
    description.dt = 1.0 / hertz;
    const hb::sim::SimScene scene = hb::sim::buildSimScene(description);
    const std::unique_ptr<hb::sim::SimPeer> engine = hb::sim::makeHeavyballSim(scene);
    const auto checks = hb::physics::runPhysicsScenario(*scenario, scene, *engine);
    ASSERT_FALSE(checks.empty());
    for (const hb::physics::PhysicsCheck& c : checks) {
      EXPECT_TRUE(c.passed()) << c.quantity << ": measured " << c.measured << " " << c.unit
                              << ", expected " << c.expected << " +- " << c.tolerance << " ("
                              << c.basis << ")";
    }
    return;
  }
  FAIL() << "no scenario " << name;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, PhysicsScenarioTest,
                         ::testing::Combine(::testing::ValuesIn(scenarioNames()),
                                            ::testing::Values(60, 120, 240)),
                         [](const auto& info) {
                           std::string name = std::get<0>(info.param);
                           for (char& c : name) c = std::isalnum(c) ? c : '_';
                           return name + "_" + std::to_string(std::get<1>(info.param)) + "Hz";
                         });

}  // namespace
