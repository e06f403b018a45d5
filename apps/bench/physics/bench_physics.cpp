// `heavyball bench physics`: every scenario in every engine, one table.

#include "apps/bench/physics/bench_physics.hpp"

#include <spdlog/fmt/fmt.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "apps/bench/common/bench_report.hpp"
#include "apps/bench/physics/physics_scenario.hpp"
#include "apps/bench/sim/sim_peer.hpp"
#include "apps/cli/name_list.hpp"
#include "engine/scene.hpp"

namespace hb::bench {
namespace {

/// One engine's answers to one scenario, or why it has none.
struct EngineResult {
  std::vector<physics::PhysicsCheck> checks;
  std::string failure;
};

EngineResult runOne(physics::PhysicsScenario& scenario, const sim::SimScene& scene,
                    const std::string& engineName) {
  EngineResult out;
  if (engineName != "heavyball") {
    if (const auto missing = sim::simPeerUnavailable(engineName)) {
      out.failure = "not built";
      return out;
    }
  }
  try {
    const std::unique_ptr<sim::SimPeer> engine = engineName == "heavyball"
                                                     ? sim::makeHeavyballSim(scene)
                                                     : sim::makeSimPeer(engineName, scene);
    out.checks = physics::runPhysicsScenario(scenario, scene, *engine);
  } catch (const sim::SimDiverged&) {
    out.failure = "diverged";
  } catch (const std::runtime_error& e) {
    out.failure = "failed";
    std::fprintf(stderr, "bench physics: %s on %s: %s\n", engineName.c_str(),
                 std::string(scenario.name()).c_str(), e.what());
  }
  return out;
}

std::string cell(const physics::PhysicsCheck& c) {
  return fmt::format("{:.4g} {}", c.measured, c.passed() ? "ok" : "x");
}

}  // namespace

void runPhysicsBench(const PhysicsBenchConfig& config) {
  std::set<std::string> seen;
  for (const std::string& name : config.peers) {
    sim::simPeerUnavailable(name);  // throws for an unknown name
    if (!seen.insert(name).second) {
      throw std::invalid_argument("engine '" + name + "' listed twice");
    }
  }
  std::vector<std::unique_ptr<physics::PhysicsScenario>> scenarios;
  std::set<std::string> known;
  for (auto& s : physics::makePhysicsScenarios()) {
    known.insert(std::string(s->name()));
    const bool wanted = config.scenarios.empty() ||
                        std::find(config.scenarios.begin(), config.scenarios.end(), s->name()) !=
                            config.scenarios.end();
    if (wanted) scenarios.push_back(std::move(s));
  }
  for (const std::string& name : config.scenarios) {
    if (!known.count(name)) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw std::invalid_argument("unknown scenario '" + name + "' (known: " + list + ")");
    }
  }
  std::vector<std::string> engines = {"heavyball"};
  engines.insert(engines.end(), config.peers.begin(), config.peers.end());

  if (config.sceneDir.empty()) {
    throw std::runtime_error(std::string("--scenes: ") + kShippedDataMissing);
  }
  BenchReport report("physics", config.json);
  report["scenes"] = config.sceneDir.string();
  report["engines"] = engines;
  report["scenarios"] = nlohmann::json::array();
  report.text(fmt::format(
      "heavyball bench physics: scenes in {}; each engine runs each scene from the same bodies, "
      "masses and materials (as bench sim builds them); a cell is the measured value and ok "
      "when within the tolerance of the expected one\n",
      config.sceneDir.string()));
  std::map<std::string, std::pair<int, int>> tally;  // engine -> (passed, checks)
  for (auto& scenario : scenarios) {
    const SceneDescription description =
        loadScene(physics::scenarioScene(*scenario, config.sceneDir));
    const sim::SimScene scene = sim::buildSimScene(description);
    std::vector<EngineResult> results;
    for (const std::string& name : engines) {
      std::fprintf(stderr, "bench physics: %s in %s\n", std::string(scenario->name()).c_str(),
                   name.c_str());
      results.push_back(runOne(*scenario, scene, name));
    }
    report.text(fmt::format("\n{}: {}\n", scenario->name(), scenario->description()));
    report.text(fmt::format("  {:<46} {:>12} {:>10}", "quantity", "expected", "tolerance"));
    for (const std::string& name : engines) report.text(fmt::format(" {:>16}", name));
    report.text("\n");
    nlohmann::json& entry = report["scenarios"].emplace_back(
        nlohmann::json{{"name", std::string(scenario->name())},
                       {"description", std::string(scenario->description())},
                       {"checks", nlohmann::json::array()}});
    // Rows from the first engine that has checks (every engine's checks come in the same order).
    const std::vector<physics::PhysicsCheck>* rows = nullptr;
    for (const EngineResult& r : results) {
      if (!r.checks.empty()) {
        rows = &r.checks;
        break;
      }
    }
    if (!rows) {
      report.text("  (no engine ran it)\n");
      continue;
    }
    for (size_t k = 0; k < rows->size(); ++k) {
      const physics::PhysicsCheck& row = (*rows)[k];
      const std::string quantity =
          row.unit.empty() ? row.quantity : row.quantity + " (" + row.unit + ")";
      report.text(
          fmt::format("  {:<46} {:>12.4g} {:>10.3g}", quantity, row.expected, row.tolerance));
      nlohmann::json& check =
          entry["checks"].emplace_back(nlohmann::json{{"quantity", row.quantity},
                                                      {"unit", row.unit},
                                                      {"expected", row.expected},
                                                      {"tolerance", row.tolerance},
                                                      {"engines", nlohmann::json::object()}});
      for (size_t e = 0; e < engines.size(); ++e) {
        const EngineResult& r = results[e];
        const std::string text = r.failure.empty() ? cell(r.checks.at(k)) : r.failure;
        report.text(fmt::format(" {:>16}", text));
        check["engines"][engines[e]] = r.failure.empty()
                                           ? nlohmann::json{{"measured", r.checks[k].measured},
                                                            {"passed", r.checks[k].passed()}}
                                           : nlohmann::json{{"failure", r.failure}};
        if (r.failure.empty()) {
          tally[engines[e]].first += r.checks[k].passed() ? 1 : 0;
          tally[engines[e]].second += 1;
        } else if (r.failure != "not built") {
          tally[engines[e]].second += 1;
        }
      }
      report.text("\n");
    }
  }
  report.text("\nwithin tolerance:");
  for (const std::string& name : engines) {
    report.text(fmt::format("  {} {}/{}", name, tally[name].first, tally[name].second));
    report["within_tolerance"][name] = {{"passed", tally[name].first},
                                        {"checks", tally[name].second}};
  }
  report.text("\n");
  report.finish();
}

}  // namespace hb::bench

namespace hb::cli {

void addBenchPhysicsCommand(CLI::App& bench) {
  auto config = std::make_shared<bench::PhysicsBenchConfig>();
  auto peers = std::make_shared<std::string>("bullet,mujoco,mujoco-implicit");
  auto scenarios = std::make_shared<std::string>();
  CLI::App* command = bench.add_subcommand(
      "physics",
      "Scenarios with analytic answers (free rotation, the intermediate-axis flip, restitution, "
      "friction, stacks, head-on collisions, pendulums, chains, hinge motors and limits) in "
      "heavyball, Bullet and MuJoCo: expected against "
      "measured");
  command->add_option("--scenes", config->sceneDir, "Folder of the scenario scene files")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  command->add_option("--scenarios", *scenarios,
                      "Scenarios to run, comma-separated (default: all)");
  command
      ->add_option(
          "--peers", *peers,
          "Other engines, comma-separated (bullet, mujoco, mujoco-implicit; empty: heavyball only)")
      ->capture_default_str();
  command->add_flag("--json", config->json,
                    "Print one JSON object (every scenario's checks, each engine's measured value "
                    "and verdict, the tally) instead of the tables");
  command->callback([config, peers, scenarios] {
    config->peers = splitNames(*peers);
    config->scenarios = splitNames(*scenarios);
    bench::runPhysicsBench(*config);
  });
}

}  // namespace hb::cli
