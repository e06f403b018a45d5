#pragma once
// The shape sets of `heavyball bench gjk`: convex hulls of YCB meshes, random ellipsoids, or
// random cubes.

#include <filesystem>
#include <random>
#include <span>
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

/// Convex hulls of every `*/textured.obj` below meshDir, sorted by name, or, when `names` is not
/// empty, of those objects only (the folder right below meshDir, e.g. 003_cracker_box), in the
/// order given. Each hull is moved so its OBB centre is the origin: YCB meshes sit in the scanner
/// turntable's frame, and random rotations about that far-away origin would mostly sweep the
/// shapes around rather than turn them. Throws std::runtime_error when the folder holds no mesh
/// and std::invalid_argument for a name that is not there or is given twice.
std::vector<BenchShape> loadYcbHulls(const std::filesystem::path& meshDir,
                                     std::span<const std::string> names = {});

/// `count` ellipsoids with semi-axes drawn uniformly in [minRadius, maxRadius] metres.
std::vector<BenchShape> makeEllipsoids(int count, double minRadius, double maxRadius,
                                       std::mt19937_64& rng);

/// `count` cubes (the boxes of Table II of the RSS 2022 paper) with half edge lengths drawn
/// uniformly in [minHalfEdge, maxHalfEdge] metres.
std::vector<BenchShape> makeCubes(int count, double minHalfEdge, double maxHalfEdge,
                                  std::mt19937_64& rng);

}  // namespace hb::bench
