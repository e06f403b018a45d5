#pragma once
// `heavyball bench`: the benchmarks of this folder, registered on the command line.

#include <CLI/CLI.hpp>

namespace hb::cli {

/// `heavyball bench gjk|broadphase|sim|physics|record|cast|smooth ...`: the benchmarks, each a
/// program that prints tables.
void addBenchCommand(CLI::App& app);

}  // namespace hb::cli
