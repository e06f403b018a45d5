#pragma once
// Checks shared by the sub-commands' options, so that every command refuses the same inputs
// with the same words.

#include <CLI/CLI.hpp>

namespace hb::cli {

/// A simulated time in seconds: finite and in (0, kMaxSimulatedSeconds] (NaN, infinities and
/// times whose step count would not fit are refused, rather than run for no step).
const CLI::Validator& simulatedSeconds();
/// A spawner count: 0 to kMaxSpawnCount, the scene file's limit.
const CLI::Validator& spawnCount();
/// A spawner seed: 0 to 2^32 - 1 (the spawner's seed is 32 bits; larger values are refused
/// rather than truncated).
const CLI::Validator& spawnerSeed();

}  // namespace hb::cli
