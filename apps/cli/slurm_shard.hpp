#pragma once
// `heavyball batch --shard slurm`: the shard of a Slurm array task, from the variables Slurm sets
// in each task's environment (sbatch --array): SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN,
// SLURM_ARRAY_TASK_STEP (1 unless given) and SLURM_ARRAY_TASK_COUNT. Task `id` of an array
// min, min + step, ..., runs shard (id - min) / step of count. The worker count follows
// SLURM_CPUS_PER_TASK when --jobs is not given.

#include <functional>
#include <optional>
#include <string>

#include "engine/recording/batch_runner.hpp"

namespace hb::cli {

/// Reads an environment variable (std::getenv, or a map in tests); nullopt when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;

/// The process environment.
EnvironmentLookup processEnvironment();

/// The array task's shard. Throws std::invalid_argument naming the variable when one is unset or
/// not a valid number (e.g. `--shard slurm` outside an array job).
BatchShard slurmShard(const EnvironmentLookup& env);

/// SLURM_CPUS_PER_TASK when set (and positive), else nullopt.
std::optional<int> slurmCpusPerTask(const EnvironmentLookup& env);

}  // namespace hb::cli
