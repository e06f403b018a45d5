#include "apps/cli/slurm_shard.hpp"

#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace hb::cli {

namespace {

long long number(const EnvironmentLookup& env, const std::string& name,
                 std::optional<long long> fallback) {
  const std::optional<std::string> text = env(name);
  if (!text) {
    if (fallback) return *fallback;
    throw std::invalid_argument("--shard slurm: " + name +
                                " is not set (run it as a task of sbatch --array)");
  }
  long long value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size()) {
    throw std::invalid_argument("--shard slurm: " + name + " is not a whole number: '" + *text +
                                "'");
  }
  return value;
}

}  // namespace

EnvironmentLookup processEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
}

BatchShard slurmShard(const EnvironmentLookup& env) {
  const long long id = number(env, "SLURM_ARRAY_TASK_ID", std::nullopt);
  const long long min = number(env, "SLURM_ARRAY_TASK_MIN", std::nullopt);
  const long long step = number(env, "SLURM_ARRAY_TASK_STEP", 1);
  const long long count = number(env, "SLURM_ARRAY_TASK_COUNT", std::nullopt);
  if (step < 1 || count < 1 || id < min || (id - min) % step != 0 || (id - min) / step >= count) {
    throw std::invalid_argument("--shard slurm: task " + std::to_string(id) +
                                " is not in the array " + std::to_string(min) + ", " +
                                std::to_string(min) + " + " + std::to_string(step) + ", ... (" +
                                std::to_string(count) + " tasks)");
  }
  BatchShard shard;
  shard.index = static_cast<int>((id - min) / step);
  shard.count = static_cast<int>(count);
  return shard;
}

std::optional<int> slurmCpusPerTask(const EnvironmentLookup& env) {
  const std::optional<std::string> text = env("SLURM_CPUS_PER_TASK");
  if (!text) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size() || value < 1) return std::nullopt;
  return value;
}

}  // namespace hb::cli
