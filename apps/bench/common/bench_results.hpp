#pragma once
// What `heavyball bench gjk` measured: one record per (problem, mode, method), plus the names and
// placements the records refer to. Shared by the CSV writer and the tables.

#include <array>
#include <string>
#include <vector>

#include "collision/gjk.hpp"

namespace hb::bench {

struct ProblemInfo {
  int pair = 0;           ///< index into BenchResults::pairNames
  int pose = 0;           ///< random pose of the pair
  int bucket = 0;         ///< index into BenchResults::targets
  double achieved = 0.0;  ///< reference signed distance of the placed pair
};

struct Record {
  int problem = 0;  ///< index into BenchResults::problems
  GjkMode mode = GjkMode::Distance;
  int method = 0;  ///< index into BenchResults::methods
  int iterations = -1;
  double timeUs = 0.0;  ///< mean of the lowest 90% of the repetitions
  double distance = 0.0;
  bool collide = false;
  bool converged = true;
};

struct BenchResults {
  std::string shapes;  ///< "ycb", "ellipsoids" or "cubes"
  std::vector<std::string> methods;
  std::vector<double> targets;  ///< requested signed distances (metres)
  bool exactPlacement = true;   ///< false: negative targets are nominal slides past contact
  std::vector<std::string> pairNames;
  /// Hull vertices of the pair's shapes A and B (0 for primitives), parallel to pairNames.
  std::vector<std::array<int, 2>> pairVertices;
  std::vector<ProblemInfo> problems;
  std::vector<Record> records;
};

inline const char* modeName(GjkMode mode) {
  return mode == GjkMode::Distance ? "distance" : "boolean";
}

}  // namespace hb::bench
