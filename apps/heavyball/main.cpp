// heavyball: command-line entry point.

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <string_view>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "apps/bench/bench_command.hpp"
#include "apps/heavyball/command_names.hpp"
#include "apps/heavyball/commands.hpp"

namespace {

/// The command a command line names, and the first word that names no command where one was
/// expected (a misspelt command or subcommand), if any.
struct NamedCommand {
  const CLI::App* command;
  std::optional<std::string> unknown;
};

NamedCommand namedCommand(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = &app;
  for (int i = 1; i < argc && !command->get_subcommands({}).empty(); ++i) {
    const std::string word(argv[i]);
    if (word.empty() || word[0] == '-') break;  // options, then what they take
    const auto subcommands = command->get_subcommands({});
    const auto match = std::find_if(subcommands.begin(), subcommands.end(),
                                    [&](const CLI::App* c) { return c->get_name() == word; });
    if (match == subcommands.end()) return {command, word};
    command = *match;
  }
  return {command, std::nullopt};
}

/// "unknown command 'x' (did you mean 'y'?)" for a word that names no command of `parent`.
void reportUnknownCommand(const CLI::App& parent, const std::string& word) {
  std::vector<std::string> names;
  for (const CLI::App* c : parent.get_subcommands({})) names.push_back(c->get_name());
  const auto nearest = hb::cli::nearestName(word, names);
  std::string path;
  for (const CLI::App* level = &parent; level->get_parent() != nullptr;
       level = level->get_parent()) {
    path = level->get_name() + " " + path;
  }
  std::fprintf(stderr,
               "heavyball: unknown command '%s%s'%s\nRun heavyball %s--help for the commands.\n",
               path.c_str(), word.c_str(),
               nearest ? (" (did you mean '" + path + *nearest + "'?)").c_str() : "", path.c_str());
}

/// After an unknown option: the nearest option of the command that was given, for each one;
/// false when none is near enough to name.
bool suggestOptions(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = &app;
  while (!command->get_subcommands().empty()) command = command->get_subcommands().front();
  std::vector<std::string> names;
  for (const CLI::App* level = command; level != nullptr; level = level->get_parent()) {
    for (const CLI::Option* option : level->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    }
  }
  bool suggested = false;
  for (int i = 1; i < argc; ++i) {
    const std::string word(argv[i]);
    if (word.rfind("--", 0) != 0 || word.size() == 2) continue;
    const std::string name = word.substr(0, word.find('='));
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    if (const auto nearest = hb::cli::nearestName(name, names)) {
      std::fprintf(stderr, "heavyball: unknown option '%s' (did you mean '%s'?)\n", name.c_str(),
                   nearest->c_str());
      suggested = true;
    }
  }
  return suggested;
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
      "value, an input file or folder that does not exist); simulate: 3 "
      "when its run means nothing (non-finite state, energy from nowhere, a body out of bounds); "
      "query: 1 when any line was an error.");
  hb::cli::addSimulateCommand(app);
  hb::cli::addInspectCommand(app);
  hb::cli::addBatchCommand(app);
  hb::cli::addBatchMergeCommand(app);
  hb::cli::addQueryCommand(app);
  hb::cli::addBenchCommand(app);
  hb::cli::addStudyCommand(app);
  // A misspelt command or subcommand: CLI11 would only say that a subcommand is required.
  if (const NamedCommand named = namedCommand(app, argc, argv); named.unknown) {
    reportUnknownCommand(*named.command, *named.unknown);
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
    // Prints the help, the version or the usage error; every usage error exits with one status.
    if (e.get_exit_code() == 0) return app.exit(e);
    // A misspelt option is named, with the option it may have meant, and alone: what CLI11 says
    // besides follows from the misspelling (its list of the words it did not expect, the
    // misspelt option's value read as a path, the option meant missing).
    if (suggestOptions(app, argc, argv)) {
      std::fprintf(stderr, "Run with --help for more information.\n");
    } else {
      app.exit(e);
    }
    return hb::cli::kUsageExit;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
  return 0;
}
