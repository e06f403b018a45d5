#pragma once
// Sub-commands of the `heavyball` command line; each file registers one on the CLI11 app
// (`bench` is apps/bench/bench_command.hpp).

#include <CLI/CLI.hpp>

namespace hb::cli {

/// `heavyball query --input problems.jsonl`: one collision problem per line, one JSON answer per
/// line.
void addQueryCommand(CLI::App& app);
/// `heavyball simulate --scene FILE ...`: a headless run with a summary.
void addSimulateCommand(CLI::App& app);
/// `heavyball inspect FILE`: summary of a recording.
void addInspectCommand(CLI::App& app);
/// `heavyball batch --scene FILE --runs N --out DIR ...`: many seeded runs, resumable, sharded.
void addBatchCommand(CLI::App& app);
/// `heavyball batch-merge DIR...`: checks and indexes a batch split over shard directories.
void addBatchMergeCommand(CLI::App& app);
/// `heavyball study warmstart DATA...`: the GJK++ paper's warm-start study on recordings.
void addStudyCommand(CLI::App& app);

}  // namespace hb::cli
