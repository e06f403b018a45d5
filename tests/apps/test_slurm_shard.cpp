// `--shard slurm`: an array task's shard from Slurm's variables, and clear errors outside an
// array job.

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "apps/cli/slurm_shard.hpp"

namespace hb::cli {
namespace {

EnvironmentLookup fake(std::map<std::string, std::string> values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    const auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

TEST(SlurmShard, ArrayTasksMapToShards) {
  // --array=0-3: task 2 of 4.
  BatchShard s = slurmShard(fake({{"SLURM_ARRAY_TASK_ID", "2"},
                                  {"SLURM_ARRAY_TASK_MIN", "0"},
                                  {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 4);
  // --array=1-10:3 (1, 4, 7, 10): task 7 is the third.
  s = slurmShard(fake({{"SLURM_ARRAY_TASK_ID", "7"},
                       {"SLURM_ARRAY_TASK_MIN", "1"},
                       {"SLURM_ARRAY_TASK_STEP", "3"},
                       {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 4);
  EXPECT_EQ(slurmCpusPerTask(fake({{"SLURM_CPUS_PER_TASK", "8"}})), 8);
  EXPECT_EQ(slurmCpusPerTask(fake({})), std::nullopt);
}

TEST(SlurmShard, OutsideAnArrayJobIsAClearError) {
  try {
    slurmShard(fake({}));
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("SLURM_ARRAY_TASK_ID is not set"), std::string::npos);
  }
  EXPECT_THROW(slurmShard(fake({{"SLURM_ARRAY_TASK_ID", "x"},
                                {"SLURM_ARRAY_TASK_MIN", "0"},
                                {"SLURM_ARRAY_TASK_COUNT", "4"}})),
               std::invalid_argument);
  EXPECT_THROW(slurmShard(fake({{"SLURM_ARRAY_TASK_ID", "9"},
                                {"SLURM_ARRAY_TASK_MIN", "0"},
                                {"SLURM_ARRAY_TASK_COUNT", "4"}})),
               std::invalid_argument);
}

}  // namespace
}  // namespace hb::cli
