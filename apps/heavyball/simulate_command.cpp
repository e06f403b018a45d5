// `heavyball simulate`: runs a scene headless and reports what happened.

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "apps/cli/cli_checks.hpp"
#include "apps/cli/json_output.hpp"
#include "apps/cli/progress_display.hpp"
#include "apps/heavyball/commands.hpp"
#include "engine/json_read.hpp"
#include "engine/recording/recorder.hpp"
#include "engine/recording/recording_metadata.hpp"
#include "engine/run_summary.hpp"
#include "engine/run_summary_json.hpp"
#include "engine/scene.hpp"
#include "engine/state_hash.hpp"
#include "engine/world.hpp"

namespace hb::cli {
namespace {

struct SimulateOptions {
  std::string scene;
  double seconds = 5.0;
  int objects = -1;
  long long seed = -1;
  double dropInterval = -1.0;
  std::string variant;
  std::string warmStart;
  std::string warmSimplex;
  std::string record;
  bool json = false;
  bool overwrite = false;
  int threads = 0;
};

void printSummary(const RunSummary& r, const SceneDescription& scene) {
  std::printf("scene %s: %d dynamic bodies, %ld steps of %.4f s (%.2f s simulated)\n",
              scene.name.c_str(), r.bodies, r.steps, scene.dt, r.simulatedSeconds);
  std::printf("wall %.3f s: %.1f steps/s, real-time factor %.2f\n", r.wallSeconds, r.stepsPerSecond,
              r.realTimeFactor);
  std::printf("mean ms per step:");
  for (int i = 0; i < kStageCount; ++i) {
    std::printf(" %s %.3f%s", std::string(kStageNames[i]).c_str(), r.stageMsMean[i],
                i + 1 < kStageCount ? "," : "\n");
  }
  std::printf(
      "narrow phase: %ld GJK calls (%s, warm start %s%s), %.2f iterations on average, %ld EPA "
      "calls",
      r.gjkCalls, std::string(toString(scene.solver.gjkVariant)).c_str(),
      std::string(toString(scene.solver.warmStart)).c_str(),
      scene.solver.warmSimplex ? " or the last simplex" : "", r.gjkMeanIterations, r.epaCalls);
  if (r.rtrCalls > 0) std::printf(", %ld RTR calls", r.rtrCalls);
  std::printf("\n");
  std::printf("contacts: %.1f per step on average, %d at most; deepest penetration %.2f mm\n",
              r.contactsMean, r.contactsMax, 1000.0 * r.maxPenetration);
  std::printf("substeps: %ld steps split (up to %d substeps), %.2f substeps per step on average",
              r.splitSteps, scene.solver.maxSubsteps, r.substepsMean);
  if (r.splitSteps > 0) {
    std::printf("; %.1f bodies per split step took them (the rest, in other islands, did not)",
                r.splitBodiesMean);
  }
  std::printf("\n");
  if (r.heldContacts > 0) {
    std::printf("held contacts: %ld contacts of substepping islands with bodies held still\n",
                r.heldContacts);
  }
  std::printf("bodies limited: %ld times a body with contacts was slowed to %.3g rad per substep\n",
              r.limitedBodies, scene.solver.maxContactTurn);
  if (r.solvesAlone > 0) {
    std::printf("threads: %ld solves ran on one thread, which had cost less than the team lately\n",
                r.solvesAlone);
  }
  std::printf("final kinetic energy %.4g J; escaped bodies %d; non-finite state: %s\n",
              r.kineticEnergyFinal, r.escapedBodies, r.nonFinite ? "YES" : "no");
  std::printf("energy: largest gain over what the bodies brought in %.3g J%s\n", r.energyGainMax,
              r.energyGrew ? " (MORE THAN THE SOLVER CAN ADD: the simulation blew up)" : "");
}

void run(const SimulateOptions& o) {
  SceneDescription scene = loadScene(o.scene);
  if (o.objects >= 0) {
    if (!scene.spawner) throw CLI::ValidationError("--objects", "the scene has no spawner");
    scene.spawner->count = o.objects;
  }
  if (o.seed >= 0) {
    if (!scene.spawner) throw CLI::ValidationError("--seed", "the scene has no spawner");
    scene.spawner->seed = static_cast<unsigned>(o.seed);
  }
  if (o.dropInterval >= 0.0) {
    if (!scene.spawner) throw CLI::ValidationError("--drop-interval", "the scene has no spawner");
    scene.spawner->interval = o.dropInterval;
  }
  if (!o.variant.empty())
    scene.solver.gjkVariant = json_read::parseGjkVariant(o.variant, "--variant");
  if (!o.warmStart.empty()) {
    scene.solver.warmStart = json_read::parseWarmStart(o.warmStart, "--warm-start");
  }
  if (!o.warmSimplex.empty()) scene.solver.warmSimplex = o.warmSimplex == "on";
  if (!o.record.empty() && std::filesystem::exists(o.record) && !o.overwrite) {
    throw CLI::ValidationError("--record", o.record + " exists (--overwrite replaces it)");
  }
  World world(scene, o.threads);
  std::unique_ptr<Recorder> recorder;
  if (!o.record.empty()) {
    recorder = std::make_unique<Recorder>(o.record, world, recordingMetadata(o.scene, scene));
    world.addObserver([r = recorder.get()](const World& w) { r->record(w); });
  }
  const long steps = stepsFor(o.seconds, scene.dt);
  const auto progress = ProgressDisplay::onTerminalOnly("steps", steps);
  const RunSummary summary = runSteps(world, steps, [&](long) {
    if (progress) progress->advance();
  });
  if (progress) progress->finish();
  if (recorder) recorder->close();
  if (o.json) {
    nlohmann::json out = runSummaryJson(summary, scene);
    out["threads"] = world.threads();
    out["state_hash"] = hashHex(stateHash(world));
    if (recorder) {
      out["recording"] = o.record;
      out["recording_bytes"] = recorder->bytesWritten();
    }
    std::printf("%s\n", jsonLine(out).c_str());
  } else {
    printSummary(summary, scene);
    std::printf("threads: %d; state hash %s\n", world.threads(), hashHex(stateHash(world)).c_str());
    if (recorder) {
      std::printf("recorded to %s (%.1f KiB)\n", o.record.c_str(),
                  static_cast<double>(recorder->bytesWritten()) / 1024.0);
    }
  }
  // Exit status 3 for a run whose results mean nothing (docs/simulation.md).
  if (summary.nonFinite) throw CLI::RuntimeError("simulation produced a non-finite state", 3);
  if (summary.energyGrew) {
    throw CLI::RuntimeError("simulation blew up: its bodies gained " +
                                std::to_string(summary.energyGainMax) + " J from nowhere",
                            3);
  }
  if (summary.escapedBodies > 0) {
    throw CLI::RuntimeError(std::to_string(summary.escapedBodies) +
                                " bodies left the scene's bounds (a blow-up or a tunnelling body)",
                            3);
  }
}

}  // namespace

void addSimulateCommand(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* cmd =
      app.add_subcommand("simulate", "Run a scene headless at its fixed step and summarise it");
  cmd->add_option("--scene", options->scene, "Scene file (JSON, see docs/scenes.md)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--seconds", options->seconds, "Simulated time")
      ->check(simulatedSeconds())
      ->capture_default_str();
  cmd->add_option("--objects", options->objects, "Number of objects the spawner drops")
      ->check(spawnCount());
  cmd->add_option("--seed", options->seed, "Spawner seed")->check(spawnerSeed());
  cmd->add_option("--threads", options->threads,
                  "Workers for the world's step (0: one per core); every count gives the same "
                  "states bit for bit")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--drop-interval", options->dropInterval,
                  "Seconds between the spawner's drops; 0 drops everything at once, in a column")
      ->check(finiteNonNegative());
  cmd->add_option("--variant", options->variant, "GJK variant")
      ->check(CLI::IsMember({"gjk", "vanilla", "polyak", "nesterov", "auto"}));
  cmd->add_option("--warm-start", options->warmStart, "GJK warm start")
      ->check(CLI::IsMember({"none", "obb", "previous", "transformed"}));
  cmd->add_option("--warm-simplex", options->warmSimplex,
                  "GJK from each pair's last simplex (the scene's solver.warm_simplex)")
      ->check(CLI::IsMember({"on", "off"}));
  cmd->add_option("--record", options->record,
                  "Record states and collision problems to this HDF5 file "
                  "(docs/recording-format.md)");
  cmd->add_flag("--overwrite,--force", options->overwrite, "Replace an existing --record file");
  cmd->add_flag("--json", options->json, "Print one JSON object instead of the summary");
  cmd->callback([options] { run(*options); });
}

}  // namespace hb::cli
