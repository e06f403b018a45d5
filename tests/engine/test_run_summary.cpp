// A run's summary counts what its steps' statistics say: here, how many steps were split into
// substeps and how many substeps a step took on average, and the pairs whose kept manifold
// answered, in the struct and in its JSON.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "engine/run_summary.hpp"
#include "engine/run_summary_json.hpp"
#include "engine/scene.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

TEST(RunSummary, CountsSplitStepsAndSubsteps) {
  // A box spinning at 80 rad/s on the ground: its first steps are split in four, and friction
  // slows it until its steps stay whole.
  const SceneDescription scene = parseScene(R"({"name": "spin",
    "statics": [{"type": "ground", "height": 0.0}],
    "bodies": [{"shape": {"type": "box", "half_extents": [0.1, 0.05, 0.02]},
                "pose": {"p": [0, 0, 0.02]}, "angular_velocity": [0, 0, 80]}]})",
                                            ".");
  World world(scene);
  long split = 0, substeps = 0, kept = 0;
  RunSummaryBuilder builder;
  const long steps = 240;
  for (long i = 0; i < steps; ++i) {
    world.step();
    builder.add(world.lastStep());
    split += world.lastStep().substeps > 1 ? 1 : 0;
    substeps += world.lastStep().substeps;
    kept += world.lastStep().keptPairs;
  }
  const RunSummary summary = builder.finish(world, 1.0);
  EXPECT_GT(split, 0);
  EXPECT_LT(split, steps);
  EXPECT_EQ(summary.splitSteps, split);
  EXPECT_DOUBLE_EQ(summary.substepsMean, static_cast<double>(substeps) / steps);
  const nlohmann::json json = runSummaryJson(summary, scene);
  EXPECT_EQ(json["split_steps"], split);
  // The box alone took every split step's substeps, and met nothing held still.
  EXPECT_DOUBLE_EQ(summary.splitBodiesMean, 1.0);
  EXPECT_DOUBLE_EQ(json["split_bodies_mean"].get<double>(), 1.0);
  EXPECT_EQ(json["held_contacts"], 0);
  EXPECT_DOUBLE_EQ(json["substeps_mean"].get<double>(), summary.substepsMean);
  // 80 rad/s is a third of a quarter turn per substep: the turn limit never binds.
  EXPECT_EQ(summary.limitedBodies, 0);
  EXPECT_EQ(json["limited_bodies"], 0);
  // Once friction has stopped it, the box rests and its kept manifold answers for its pair.
  EXPECT_GT(kept, 0);
  EXPECT_EQ(summary.keptPairs, kept);
  EXPECT_EQ(json["kept_pairs"], kept);
}

}  // namespace
}  // namespace hb
