#pragma once
// The shape sets of `heavyball bench gjk`: convex hulls of YCB meshes, or random ellipsoids.

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "collision/obb.hpp"
#include "collision/shape.hpp"

namespace hb::bench {

struct BenchShape {
  std::string name;
  Shape shape;
  /// Box in the shape's frame; the initial guess is the difference of the world boxes' centres.
  Obb localObb;
  /// Largest distance from the shape's origin to a point of the shape (metres).
  double boundingRadius = 0.0;
  int numVertices = 0;  ///< hull vertices; 0 for primitives
};

/// Convex hulls of every `*/textured.obj` below meshDir, sorted by name. Each hull is moved so its
/// OBB centre is the origin: YCB meshes sit in the scanner turntable's frame, and random rotations
/// about that far-away origin would mostly sweep the shapes around rather than turn them.
/// Throws std::runtime_error when the folder holds no mesh.
std::vector<BenchShape> loadYcbHulls(const std::filesystem::path& meshDir);

/// `count` ellipsoids with semi-axes drawn uniformly in [minRadius, maxRadius] metres.
std::vector<BenchShape> makeEllipsoids(int count, double minRadius, double maxRadius,
                                       std::mt19937_64& rng);

}  // namespace hb::bench
