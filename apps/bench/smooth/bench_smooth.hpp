#pragma once
// `heavyball bench smooth`: the minimum translational distance of smooth convex bodies on the
// protocol of An et al.'s evaluation: the eight shapes of their Table I (an ellipsoid, a
// rectangular superellipsoid, a double cone and a double pyramid as superquadrics; cubes of
// sharpness 5, 10 and 50 and a cylinder as prescribed support functions), every pair of them in
// random poses in contact (pushed into each other by up to `maxDepth` from touching), solved by
// RTR, by heavyball's GJK + EPA and by libccd's GJK-EPA on the same support functions. Per pair:
// mean time and iterations (their Table II), and the optimality measure of eq. 20 (their Fig. 5:
// how far the normal is from the line between the support points it names).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace hb::bench {

struct SmoothBenchConfig {
  int poses = 500;                 ///< per pair of shapes
  double maxDepth = 0.05;          ///< metres: the deepest push from touching
  int repeats = 3;                 ///< timings of each query; the fastest counts
  int ycbPoses = 200;              ///< per pair of the YCB experiment's objects (0: skip it)
  std::vector<std::string> peers;  ///< of smoothPeerNames()
  std::uint64_t seed = 20240901;
  std::filesystem::path csv;  ///< one row per query and method when not empty
  bool json = false;          ///< one JSON object instead of the tables
};

/// The penetration peers of this build: ccd_epa (libccd), fcl_epa (FCL; hulls and ellipsoids).
std::vector<std::string> smoothPeerNames();

/// Runs the benchmark and prints its tables. Throws std::invalid_argument for a bad
/// configuration and std::runtime_error when the CSV file cannot be written.
void runSmoothBench(const SmoothBenchConfig& config);

}  // namespace hb::bench

namespace hb::cli {

/// Registers `smooth` under the `bench` command.
void addBenchSmoothCommand(CLI::App& bench);

}  // namespace hb::cli
