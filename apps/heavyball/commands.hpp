#pragma once
// Sub-commands of the `heavyball` command line; each file registers one on the CLI11 app.

#include <CLI/CLI.hpp>

namespace hb::cli {

/// `heavyball query --input problems.jsonl`: one collision problem per line, one JSON answer per
/// line.
void addQueryCommand(CLI::App& app);
/// `heavyball bench gjk ...`: the GJK++ paper's benchmark protocol.
void addBenchCommand(CLI::App& app);
/// `heavyball simulate --scene FILE ...`: a headless run with a summary.
void addSimulateCommand(CLI::App& app);

}  // namespace hb::cli
