// heavyball: command-line entry point.

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <string_view>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "apps/bench/bench_command.hpp"
#include "apps/heavyball/command_names.hpp"
#include "apps/heavyball/commands.hpp"

namespace {

/// After an unknown option: the nearest option of the command that was given, for each one.
void suggestOptions(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = &app;
  while (!command->get_subcommands().empty()) command = command->get_subcommands().front();
  std::vector<std::string> names;
  for (const CLI::App* level = command; level != nullptr; level = level->get_parent()) {
    for (const CLI::Option* option : level->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    }
  }
  for (int i = 1; i < argc; ++i) {
    const std::string word(argv[i]);
    if (word.rfind("--", 0) != 0 || word.size() == 2) continue;
    const std::string name = word.substr(0, word.find('='));
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    if (const auto nearest = hb::cli::nearestName(name, names)) {
      std::fprintf(stderr, "heavyball: unknown option '%s' (did you mean '%s'?)\n", name.c_str(),
                   nearest->c_str());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Results go to stdout (JSON lines, tables): log messages go to stderr.
  spdlog::set_default_logger(std::make_shared<spdlog::logger>(
      "heavyball", std::make_shared<spdlog::sinks::stderr_color_sink_mt>()));
  CLI::App app{"heavyball: rigid-body simulation with accelerated GJK collision detection"};
  app.set_version_flag("--version", std::string("heavyball ") + HB_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit status: 0 on success, 1 on a runtime error (a file that cannot be read or written, a "
      "file whose contents are wrong, such as a scene with a bad value, a failed run), 2 on a "
      "usage error (the command line itself: an unknown command or option, a bad option "
      "value); simulate: 3 "
      "when its run means nothing (non-finite state, energy from nowhere, a body out of bounds); "
      "query: 1 when any line was an error.");
  hb::cli::addSimulateCommand(app);
  hb::cli::addInspectCommand(app);
  hb::cli::addBatchCommand(app);
  hb::cli::addBatchMergeCommand(app);
  hb::cli::addQueryCommand(app);
  hb::cli::addBenchCommand(app);
  hb::cli::addStudyCommand(app);
  // A misspelt command: CLI11 would only say that a subcommand is required.
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands({})) names.push_back(command->get_name());
  if (argc > 1 && argv[1][0] != '-' &&
      std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    const auto nearest = hb::cli::nearestName(argv[1], names);
    std::fprintf(stderr, "heavyball: unknown command '%s'%s\nRun with --help for the commands.\n",
                 argv[1], nearest ? (" (did you mean '" + *nearest + "'?)").c_str() : "");
    return hb::cli::kUsageExit;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    // A command's own failure with its exit status (CLI11 would print nothing for it); a bare
    // exit status (CLI11's default message) means the command has reported already.
    if (std::string_view(e.what()) != CLI::RuntimeError().what()) spdlog::error("{}", e.what());
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    // Prints the help, the version or the usage error; every usage error exits with one status
    // (and names the options a misspelt one may have meant).
    if (app.exit(e) == 0) return 0;
    suggestOptions(app, argc, argv);
    return hb::cli::kUsageExit;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
  return 0;
}
