#pragma once
// `heavyball bench gjk`: the GJK++ paper's benchmark (Montaut et al., T-RO 2024, Sec. IV-B/D).
// Pairs of YCB convex hulls or random ellipsoids, random relative poses, B slid along the
// separation axis to each signed distance; x0 = difference of the world OBB centres; every problem
// solved by every method in Distance and Boolean mode, `repeats` times, time = mean of the lowest
// 90%. Prints tables to stdout, progress to stderr, optionally every measurement to a CSV file.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace hb::bench {

struct GjkBenchConfig {
  std::string shapes = "ycb";  ///< "ycb" or "ellipsoids"
  std::filesystem::path meshDir = HB_SOURCE_DIR "/assets/ycb";
  int pairs = 100;
  int poses = 100;
  int repeats = 100;
  std::vector<double> distances = {-0.1, -0.01, 0.0, 0.001, 0.01, 0.1, 1.0};
  /// "exact": the signed distance equals each target (unreachable depths are dropped);
  /// "nominal": B slides |target| past contact, the paper's wording.
  std::string placement = "exact";
  std::vector<std::string> methods;  ///< empty: every method of the build
  std::filesystem::path csv;         ///< empty: no CSV
  std::uint64_t seed = 20240521;
  /// Ellipsoid semi-axes are uniform in this range (metres).
  double ellipsoidMinRadius = 0.02;
  double ellipsoidMaxRadius = 0.2;
};

/// Runs the benchmark. Throws std::invalid_argument for a bad configuration and
/// std::runtime_error for unreadable meshes or an unwritable CSV file.
void runGjkBench(const GjkBenchConfig& config);

}  // namespace hb::bench
