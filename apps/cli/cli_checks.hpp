#pragma once
// Checks shared by the sub-commands' options, so that every command refuses the same inputs
// with the same words.

#include <CLI/CLI.hpp>

#include <cmath>
#include <string>

namespace hb::cli {

/// A finite number that `ok` accepts; `expected` says which, for the error and the help.
/// (CLI11's Range, NonNegativeNumber and PositiveNumber let NaN through, which every comparison
/// then ignores.) Header-only: the viewer's options use these too.
inline CLI::Validator finiteNumber(bool (*ok)(double), const std::string& expected) {
  return CLI::Validator(
      [ok, expected](std::string& text) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || !ok(value)) {
          return "expected " + expected + ", got " + text;
        }
        return {};
      },
      expected);
}
inline CLI::Validator finiteNonNegative() {
  return finiteNumber([](double v) { return v >= 0.0; }, "a finite number >= 0");
}
inline CLI::Validator finitePositive() {
  return finiteNumber([](double v) { return v > 0.0; }, "a finite number > 0");
}

/// A simulated time in seconds: finite and in (0, kMaxSimulatedSeconds] (NaN, infinities and
/// times whose step count would not fit are refused, rather than run for no step).
const CLI::Validator& simulatedSeconds();
/// A spawner count: 0 to kMaxSpawnCount, the scene file's limit.
const CLI::Validator& spawnCount();
/// A spawner seed: 0 to 2^32 - 1 (the spawner's seed is 32 bits; larger values are refused
/// rather than truncated).
const CLI::Validator& spawnerSeed();

}  // namespace hb::cli
