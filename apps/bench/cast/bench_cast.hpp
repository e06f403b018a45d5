#pragma once
// `heavyball bench cast`: collision translations (shape casts) on the protocol of Mirolo, Carpin
// and Pagello's experiments: polyhedra with regular vertex arrangements on ellipsoids (rings and
// meridians, so almost every face is a trapezoid) of 200 to ~200,000 vertices, in random general
// configurations:
//   - `collide`: A's translation along the direction runs into B;
//   - `miss`: it passes B with a clearance of 0.005, 0.05, 0.5 or 1.5 D beyond grazing (D the
//     sum of the two bounding radii), the paper's close and far separations;
//   - `seq`: sequences of 100 configurations along a continuous motion of A (each step moves it
//     by delta D and turns it by delta D over its radius), the direction unrelated to the motion,
//     cast from scratch and warm-started from the previous query of the sequence.
// heavyball's GJK ray cast and its CTA (the paper's own algorithm, collision/cta.hpp) against the
// peers built in (Bullet's two convex casts, FCL's continuous collision), every answer judged by a
// referee independent of the casts.

#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace hb::bench {

struct CastBenchConfig {
  std::vector<int> sizes = {200, 800, 3200, 12800, 51200, 204800};  ///< vertices per polyhedron
  int configurations = 100;                                         ///< per size and case
  int sequences = 4;                                                ///< per size and coherence
  int sequenceLength = 100;
  std::vector<double> deltas = {0.01, 0.0025};  ///< coherence of the sequences, fractions of D
  int repeats = 3;                              ///< timings of each query; the fastest counts
  bool stretched =
      false;  ///< thin, stretched faces (eight times longer than wide) instead of balanced
  std::vector<std::string> peers;  ///< of castPeerNames()
  std::uint64_t seed = 20240615;
  std::filesystem::path csv;  ///< one row per query when not empty
  bool json = false;          ///< one JSON object instead of the tables
};

/// The cast peers of this build: bullet, bullet_ca (Bullet), fcl (FCL).
std::vector<std::string> castPeerNames();

/// Throws std::invalid_argument for a bad configuration or a peer that is not built.
void checkCastBenchConfig(const CastBenchConfig& config);

/// Runs the benchmark and prints its tables. Throws std::invalid_argument for a bad
/// configuration (or a peer that is not built) and std::runtime_error when the CSV file cannot
/// be written.
void runCastBench(const CastBenchConfig& config);

/// The points of a polyhedron with `vertices` (about; the exact count is rings * meridians + 2)
/// on the ellipsoid of semi-axes `radii`: rings of equal polar angle spacing, meridians of equal
/// longitude spacing, and the two poles. Balanced: the two spacings equal; stretched: meridians
/// eight times as far apart. Every point is a vertex of their hull.
std::vector<Eigen::Vector3d> ellipsoidLattice(int vertices, const Eigen::Vector3d& radii,
                                              bool stretched);

}  // namespace hb::bench

namespace hb::cli {

/// Registers `cast` under the `bench` command.
void addBenchCastCommand(CLI::App& bench);

}  // namespace hb::cli
