// `heavyball inspect FILE`: what a recording holds (docs/recording-format.md).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "apps/cli/json_output.hpp"
#include "apps/heavyball/commands.hpp"
#include "engine/recording/recording_check.hpp"
#include "engine/recording/recording_reader.hpp"

namespace hb::cli {
namespace {

struct InspectOptions {
  std::string file;
  bool json = false;
};

struct ProblemTotals {
  long problems = 0;
  long colliding = 0;
  long gjkIterations = 0;
  long epaRuns = 0;
  long withPrevious = 0;
  long inexact = 0;
  int maxPerStep = 0;
  long splitSteps = 0;  // steps of more than one substep (files of version 9 on)
};

ProblemTotals totals(const RecordingReader& reader) {
  ProblemTotals t;
  reader.forEachProblem([&](const RecordedProblem& p) {
    ++t.problems;
    if (p.result.collide) ++t.colliding;
    t.gjkIterations += p.result.gjkIterations;
    if (p.result.epaStatus) ++t.epaRuns;
    if (p.previous) ++t.withPrevious;
    if (!p.exactInputs) ++t.inexact;
  });
  for (long i = 0; i < reader.stepCount(); ++i) {
    t.maxPerStep = std::max(t.maxPerStep, reader.step(i).problemCount);
    if (reader.step(i).substeps > 1) ++t.splitSteps;
  }
  return t;
}

double ratio(double a, double b) {
  return b > 0.0 ? a / b : 0.0;
}

void run(const InspectOptions& o) {
  // Read in a child process first: a file HDF5 itself cannot parse gets an error, not a crash.
  checkRecordingInChildProcess(o.file);
  const RecordingReader reader(o.file);
  const RecordingInfo& info = reader.info();
  const ProblemTotals t = totals(reader);
  // Row 0 is the initial state; every later row ends one simulated step.
  const long steps = std::max(0L, reader.stepCount() - 1);
  const double seconds = steps * info.dt;
  const std::uintmax_t bytes = reader.fileSize();
  const SolverDescription& s = info.solver;
  if (o.json) {
    nlohmann::json bodies = nlohmann::json::array();
    for (const RecordedBody& b : reader.bodies()) {
      bodies.push_back({{"name", b.name},
                        {"asset", b.asset},
                        {"static", b.isStatic},
                        {"mass_kg", b.mass},
                        {"first_step", b.firstStep}});
    }
    nlohmann::json joints = nlohmann::json::array();
    for (const RecordedJoint& j : reader.joints()) {
      joints.push_back(
          {{"name", j.name}, {"type", j.typeName}, {"body_a", j.bodyA}, {"body_b", j.bodyB}});
    }
    const nlohmann::json out = {
        {"file", o.file},
        {"file_bytes", bytes},
        {"format_version", info.formatVersion},
        {"heavyball_version", info.heavyballVersion},
        {"scene", info.sceneName},
        {"dt", info.dt},
        {"seed", info.seed},
        {"gjk_variant", toString(s.gjkVariant)},
        {"warm_start", toString(s.warmStart)},
        {"gjk_tolerance", s.gjkTolerance},
        {"gjk_max_iterations", s.gjkMaxIterations},
        {"epa_tolerance", info.collision.epa.tolerance},
        {"epa_max_iterations", info.collision.epa.maxIterations},
        {"convex_radius", s.convexRadius},
        {"velocity_iterations", s.velocityIterations},
        {"manifold_iterations", s.manifoldIterations},
        {"shock_iterations", s.shockIterations},
        {"position_iterations", s.positionIterations},
        {"max_substeps", s.maxSubsteps},
        {"soft_substeps", s.softSubsteps},
        {"contact_hertz", s.contactHertz},
        {"contact_damping_ratio", s.contactDampingRatio},
        {"bodies", bodies},
        {"proxies", reader.proxies().size()},
        {"joints", joints},
        {"steps", steps},
        {"split_steps", info.formatVersion >= 9 ? nlohmann::json(t.splitSteps) : nlohmann::json()},
        {"simulated_s", seconds},
        {"problems", t.problems},
        {"problems_per_step", ratio(t.problems, steps)},
        {"problems_per_step_max", t.maxPerStep},
        {"colliding_fraction", ratio(t.colliding, t.problems)},
        {"gjk_mean_iterations", ratio(t.gjkIterations, t.problems)},
        {"epa_runs", t.epaRuns},
        {"with_previous", t.withPrevious},
        {"inexact_inputs", t.inexact},
        {"bytes_per_simulated_s", ratio(static_cast<double>(bytes), seconds)}};
    std::printf("%s\n", jsonLine(out).c_str());
    return;
  }
  std::printf("file %s: %.1f KiB (%.1f KiB per simulated second)\n", o.file.c_str(), bytes / 1024.0,
              ratio(bytes / 1024.0, seconds));
  std::printf("format %d, written by heavyball %s\n", info.formatVersion,
              info.heavyballVersion.c_str());
  std::printf("scene %s: dt %.6g s, seed %u\n", info.sceneName.c_str(), info.dt, info.seed);
  std::printf(
      "solver: GJK %s, warm start %s, tolerance %.3g, max %d iterations; EPA tolerance "
      "%.3g, max %d iterations; PGS %d velocity (%d passes per manifold, %d in the shock pass) / "
      "%d position iterations; up to %d substeps per step\n",
      std::string(toString(s.gjkVariant)).c_str(), std::string(toString(s.warmStart)).c_str(),
      s.gjkTolerance, s.gjkMaxIterations, info.collision.epa.tolerance,
      info.collision.epa.maxIterations, s.velocityIterations, s.manifoldIterations,
      s.shockIterations, s.positionIterations, s.maxSubsteps);
  if (s.softSubsteps > 0) {
    std::printf("soft step: %d substeps, contacts of %.3g Hz with damping ratio %.3g\n",
                s.softSubsteps, s.contactHertz, s.contactDampingRatio);
  }
  std::printf("shapes: boxes and hulls rounded by a convex radius of %.3g m\n", s.convexRadius);
  std::printf("bodies: %zu, the statics (body 0) and %zu dynamic (%zu collision proxies)\n",
              reader.bodies().size(), reader.bodies().size() - 1, reader.proxies().size());
  for (std::size_t i = 0; i < reader.bodies().size(); ++i) {
    const RecordedBody& b = reader.bodies()[i];
    if (b.isStatic) {
      std::printf("  %3zu  %-28s static\n", i, b.name.c_str());
    } else {
      std::printf("  %3zu  %-28s %8.4f kg  from step %ld\n", i, b.name.c_str(), b.mass,
                  b.firstStep);
    }
  }
  if (!reader.joints().empty()) {
    std::printf("joints: %zu (positions, velocities, motor targets and forces every step)\n",
                reader.joints().size());
    for (std::size_t k = 0; k < reader.joints().size(); ++k) {
      const RecordedJoint& j = reader.joints()[k];
      std::printf("  %3zu  %-28s %-9s bodies %d and %d\n", k,
                  j.name.empty() ? "(unnamed)" : j.name.c_str(), j.typeName.c_str(), j.bodyA,
                  j.bodyB);
    }
  }
  std::printf("steps: %ld (%.3f s simulated)", steps, seconds);
  if (info.formatVersion >= 9) std::printf(", %ld split into substeps", t.splitSteps);
  std::printf("\n");
  std::printf(
      "problems: %ld, %.2f per step (max %d); %.1f%% colliding; %.2f GJK iterations on "
      "average; %ld EPA runs; %ld with a previous solution\n",
      t.problems, ratio(t.problems, steps), t.maxPerStep, 100.0 * ratio(t.colliding, t.problems),
      ratio(t.gjkIterations, t.problems), t.epaRuns, t.withPrevious);
  if (t.inexact > 0) {
    std::printf("note: %ld problems have inexact inputs (see docs/recording-format.md)\n",
                t.inexact);
  }
}

}  // namespace

void addInspectCommand(CLI::App& app) {
  auto options = std::make_shared<InspectOptions>();
  CLI::App* cmd =
      app.add_subcommand("inspect", "Summarise a recording (heavyball simulate --record)");
  cmd->add_option("file", options->file, "Recording (HDF5)")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--json", options->json, "Print one JSON object instead of the summary");
  cmd->callback([options] { run(*options); });
}

}  // namespace hb::cli
