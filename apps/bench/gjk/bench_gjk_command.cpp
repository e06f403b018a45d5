// `heavyball bench gjk`: its options, checked by CLI11, and the method list.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "apps/bench/common/bench_method.hpp"
#include "apps/bench/gjk/bench_gjk.hpp"

namespace hb::cli {

void addBenchGjkCommand(CLI::App& bench) {
  auto config = std::make_shared<bench::GjkBenchConfig>();
  auto listMethods = std::make_shared<bool>(false);
  CLI::App* gjk = bench.add_subcommand(
      "gjk",
      "GJK++ paper protocol: random poses of YCB hulls, ellipsoids or cubes at fixed signed "
      "distances, every method in distance and/or boolean mode; prints one of the papers' tables");
  gjk->add_option("--table", config->table,
                  "buckets: per signed distance and per distance category, both modes; fw: "
                  "Table II of the RSS paper (iterations of fw, fw_active_set, gjk, nesterov per "
                  "category, distance mode); meshes: Table I (times of gjk, polyak, nesterov per "
                  "pair of --meshes, each with itself too, -0.01 <= d <= 0.01 m); peers: Fig. 12 "
                  "(boolean times of heavyball's and the peers' solvers per category)")
      ->check(CLI::IsMember({"buckets", "fw", "meshes", "peers"}))
      ->capture_default_str();
  gjk->add_option("--shapes", config->shapes, "Shape set")
      ->check(CLI::IsMember({"ycb", "ellipsoids", "cubes"}))
      ->capture_default_str();
  gjk->add_option("--mesh-dir", config->meshDir, "Folder searched for */textured.obj (ycb)")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  std::string tableIMeshes;
  for (const std::string& m : bench::kTableIMeshes) {
    tableIMeshes += (tableIMeshes.empty() ? "" : ",") + m;
  }
  gjk->add_option("--meshes", config->meshes,
                  "Only these YCB objects (comma-separated folder names of --mesh-dir; default: "
                  "all, or " +
                      tableIMeshes + " for --table meshes)")
      ->delimiter(',');
  gjk->add_option("--pairs", config->pairs,
                  "Shape pairs (ycb: drawn among all pairs of distinct meshes, all if fewer; "
                  "ignored by --table meshes)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  gjk->add_option("--poses", config->poses, "Random relative poses per pair")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  gjk->add_option("--repeats", config->repeats,
                  "Timed solves per problem; the time is the mean of the lowest 90% (default: "
                  "100, 1 for --table fw)")
      ->check(CLI::PositiveNumber);
  gjk->add_option("--distances", config->distances,
                  "Signed distances in metres (comma-separated; negative = penetration; default: "
                  "-0.1,-0.01,0,0.001,0.01,0.1,1, or -0.01,0,0.001,0.01 for --table meshes)")
      ->delimiter(',');
  gjk->add_option("--modes", config->modes,
                  "distance and/or boolean (comma-separated; default: distance for --table fw, "
                  "boolean for --table peers, both otherwise)")
      ->delimiter(',')
      ->check(CLI::IsMember({"distance", "boolean"}));
  gjk->add_option("--placement", config->placement,
                  "exact: signed distance = each target (depths a pair cannot reach are "
                  "dropped); nominal: B slid |target| past contact, as the paper words it")
      ->check(CLI::IsMember({"exact", "nominal"}))
      ->capture_default_str();
  gjk->add_option("--methods", config->methods,
                  "Methods to run (comma-separated; default: the table's, see --table; for "
                  "buckets every method of this build but the Frank-Wolfe baselines; see "
                  "--list-methods)")
      ->delimiter(',');
  gjk->add_option("--fw-max-iterations", config->frankWolfeMaxIterations,
                  "Iteration cap of the Frank-Wolfe baselines fw and fw_active_set")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  gjk->add_option("--csv", config->csv,
                  "Write every measurement: shapes,pair,pose,distance_bucket,mode,method,"
                  "iterations,time_us,distance,collide,converged,reference_distance,vertices_a,"
                  "vertices_b");
  gjk->add_option("--seed", config->seed, "Random seed")->capture_default_str();
  gjk->add_flag("--json", config->json,
                "Print one JSON object (the settings and the tables' rows by name) instead of "
                "the tables");
  gjk->add_flag("--list-methods", *listMethods, "Print the methods of this build and exit");
  gjk->callback([config, listMethods] {
    if (*listMethods) {
      for (const std::string& m : bench::availableMethods()) {
        std::printf("%s%s\n", m.c_str(),
                    bench::isRunOnlyWhenNamed(m) ? " (run only when named)" : "");
      }
      for (const std::string& m : bench::unavailableMethods()) {
        std::printf("%s (not built)\n", m.c_str());
      }
      return;
    }
    bench::runGjkBench(*config);
  });
}

}  // namespace hb::cli
