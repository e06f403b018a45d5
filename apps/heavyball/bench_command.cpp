// `heavyball bench ...`: benchmarks that print tables. Sub-commands: gjk.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "apps/heavyball/bench_broadphase.hpp"
#include "apps/heavyball/bench_gjk.hpp"
#include "apps/heavyball/bench_method.hpp"
#include "apps/heavyball/commands.hpp"

namespace hb::cli {

namespace {

void addBenchGjk(CLI::App& bench) {
  auto config = std::make_shared<bench::GjkBenchConfig>();
  auto listMethods = std::make_shared<bool>(false);
  CLI::App* gjk = bench.add_subcommand(
      "gjk",
      "GJK++ paper protocol: random poses of YCB hulls or ellipsoids at fixed signed distances, "
      "every method in distance and boolean mode");
  gjk->add_option("--shapes", config->shapes, "Shape set")
      ->check(CLI::IsMember({"ycb", "ellipsoids"}))
      ->capture_default_str();
  gjk->add_option("--mesh-dir", config->meshDir, "Folder searched for */textured.obj (ycb)")
      ->capture_default_str();
  gjk->add_option("--pairs", config->pairs,
                  "Shape pairs (ycb: drawn among all pairs of distinct meshes, all if fewer)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  gjk->add_option("--poses", config->poses, "Random relative poses per pair")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  gjk->add_option("--repeats", config->repeats,
                  "Timed solves per problem; the time is the mean of the lowest 90%")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  gjk->add_option("--distances", config->distances,
                  "Signed distances in metres (comma-separated; negative = penetration)")
      ->delimiter(',')
      ->capture_default_str();
  gjk->add_option("--placement", config->placement,
                  "exact: signed distance = each target (depths a pair cannot reach are "
                  "dropped); nominal: B slid |target| past contact, as the paper words it")
      ->check(CLI::IsMember({"exact", "nominal"}))
      ->capture_default_str();
  gjk->add_option("--methods", config->methods,
                  "Methods to run (comma-separated; default: all of this build, see "
                  "--list-methods)")
      ->delimiter(',');
  gjk->add_option("--csv", config->csv,
                  "Write every measurement: shapes,pair,pose,distance_bucket,mode,method,"
                  "iterations,time_us,distance,collide");
  gjk->add_option("--seed", config->seed, "Random seed")->capture_default_str();
  gjk->add_flag("--list-methods", *listMethods, "Print the methods of this build and exit");
  gjk->callback([config, listMethods] {
    if (*listMethods) {
      for (const std::string& m : bench::availableMethods()) std::printf("%s\n", m.c_str());
      for (const std::string& m : bench::unavailableMethods()) {
        std::printf("%s (not built)\n", m.c_str());
      }
      return;
    }
    bench::runGjkBench(*config);
  });
}

}  // namespace

void addBenchCommand(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "Benchmarks that print tables");
  bench->require_subcommand(1);
  addBenchGjk(*bench);
  addBenchBroadphaseCommand(*bench);
}

}  // namespace hb::cli
