// heavyball: command-line entry point.

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <exception>

#include "apps/heavyball/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"heavyball: rigid-body simulation with accelerated GJK collision detection"};
  app.set_version_flag("--version", std::string("heavyball ") + HB_VERSION);
  app.require_subcommand(1);
  hb::cli::addQueryCommand(app);
  hb::cli::addBenchCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
  return 0;
}
