#pragma once
// `heavyball bench gjk`: the GJK++ paper's benchmark (Montaut et al., T-RO 2024, Sec. IV-B/D).
// Pairs of YCB convex hulls, random ellipsoids or random cubes, random relative poses, B slid along
// the separation axis to each signed distance; x0 = difference of the world OBB centres; every
// problem solved by every method in each mode, `repeats` times, time = mean of the lowest 90%.
// Prints one of the paper's tables (--table) to stdout, progress to stderr, optionally every
// measurement to a CSV file.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "apps/bench/common/frank_wolfe.hpp"
#include "engine/shipped_assets.hpp"

namespace hb::bench {

/// The YCB objects of Table I when --meshes is not given: three hulls of increasing vertex count,
/// 244, 1811 and 3618 vertices here, close to the paper's N = 240, 1811 and 3585.
inline const std::vector<std::string> kTableIMeshes = {"042_adjustable_wrench",
                                                       "021_bleach_cleanser", "055_baseball"};

struct GjkBenchConfig {
  std::string shapes = "ycb";  ///< "ycb", "ellipsoids" or "cubes"
  std::filesystem::path meshDir = shippedYcbDir();
  /// ycb: only these objects (folder names below meshDir); empty: all of them, or kTableIMeshes
  /// for the meshes table.
  std::vector<std::string> meshes;
  /// What to print: "buckets" (per signed distance, the peers' categories, sanity checks), "fw"
  /// (Table II of the RSS paper: iterations per distance category), "meshes" (Table I: times per
  /// pair of meshes near contact), "peers" (Fig. 12: Boolean times per distance category).
  std::string table = "buckets";
  int pairs = 100;  ///< ignored by the meshes table, which takes every pair of the chosen meshes
  int poses = 100;
  std::optional<int> repeats;      ///< empty: 100, or 1 for the fw table (iterations only)
  std::vector<double> distances;   ///< empty: the table's default (defaultDistances)
  std::vector<std::string> modes;  ///< "distance" and/or "boolean"; empty: the table's default
  /// "exact": the signed distance equals each target (unreachable depths are dropped);
  /// "nominal": B slides |target| past contact, the paper's wording.
  std::string placement = "exact";
  std::vector<std::string> methods;  ///< empty: the table's default (defaultMethodsFor)
  int frankWolfeMaxIterations = kFrankWolfeMaxIterations;
  std::filesystem::path csv;  ///< empty: no CSV
  std::uint64_t seed = 20240521;
  /// Ellipsoid semi-axes and cube half edges are uniform in this range (metres).
  double minSize = 0.02;
  double maxSize = 0.2;
  bool json = false;  ///< one JSON object instead of the tables
};

/// Signed distances (metres) a table uses when --distances is not given.
std::vector<double> defaultDistances(const std::string& table);
/// Methods a table uses when --methods is not given (those of this build).
std::vector<std::string> defaultMethodsFor(const std::string& table);

/// Runs the benchmark. Throws std::invalid_argument for a bad configuration and
/// std::runtime_error for unreadable meshes or an unwritable CSV file.
void runGjkBench(const GjkBenchConfig& config);

}  // namespace hb::bench

namespace CLI {
class App;
}

namespace hb::cli {

/// Registers `bench gjk` on the `bench` command (bench_gjk_command.cpp).
void addBenchGjkCommand(CLI::App& bench);

}  // namespace hb::cli
