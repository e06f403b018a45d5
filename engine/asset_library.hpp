#pragma once
// Rigid-body assets built once per mesh and shared by every body that uses them: the convex hull
// of the OBJ (the collision shape), its mass properties from the closed hull (exact volume
// integrals), and its OBB. The body frame is the centre of mass: the hull keeps the OBJ's frame
// and sits in the body at `meshInBody` (a pure translation by -centre of mass), which is also
// where the render mesh goes.

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collision/obb.hpp"
#include "collision/shape.hpp"
#include "dynamics/mass_properties.hpp"

namespace hb {

struct ConvexAsset {
  std::string name;
  std::filesystem::path objPath;
  Shape shape;                    ///< convex hull in the OBJ's frame
  Pose meshInBody;                ///< OBJ frame -> body (centre-of-mass) frame
  Obb localObb;                   ///< OBB of the hull in the OBJ's frame
  MassProperties massProperties;  ///< about the centre of mass; mass from masses.csv if listed
  bool massFromTable = false;
  /// An asset that collides as its parts (AssetLibrary::getParts): one convex hull per piece of
  /// <name>/convex_parts.obj, in the OBJ frame, with their boxes; empty for a hull asset.
  std::vector<Shape> parts;
  std::vector<Obb> partBoxes;
};

class AssetLibrary {
 public:
  /// `assetDir` holds one folder per asset (<name>/textured.obj) and optionally masses.csv
  /// (name,mass_kg). get() and names() throw MeshLoadError if the folder does not exist.
  /// `hullTolerance` (m, >= 0) is how far outside its collision hulls a mesh's points may stay
  /// (ConvexHull::build); 0: the exact hulls.
  explicit AssetLibrary(std::filesystem::path assetDir, double hullTolerance = 0.0);

  /// The asset, loaded on first use and shared by every library of the process (thread-safe).
  /// `density` (kg/m^3) applies when masses.csv has no entry. The mass properties are those of
  /// the exact hull, whatever the library's hull tolerance. Throws MeshLoadError naming the
  /// file for a missing or bad mesh.
  std::shared_ptr<const ConvexAsset> get(const std::string& name, double density);
  /// The asset colliding as its convex decomposition (<name>/convex_parts.obj): its mass
  /// properties from the scan mesh itself (the pieces overlap and do not cover it exactly), the
  /// mass from masses.csv when listed. Throws MeshLoadError when the parts file is missing or
  /// has no usable piece.
  std::shared_ptr<const ConvexAsset> getParts(const std::string& name, double density);

  /// Names of every asset folder (sorted), for spawners.
  std::vector<std::string> names() const;
  const std::filesystem::path& directory() const { return dir_; }
  double hullTolerance() const { return hullTolerance_; }

 private:
  std::shared_ptr<const ConvexAsset> build(const std::string& name, double density) const;
  std::shared_ptr<const ConvexAsset> buildParts(const std::string& name, double density);
  void requireDirectory() const;

  using Key = std::pair<std::string, double>;  // name, density
  std::filesystem::path dir_;
  double hullTolerance_ = 0.0;
  std::map<std::string, double> tableMasses_;
  std::map<Key, std::shared_ptr<const ConvexAsset>> cache_;
  std::map<Key, std::shared_ptr<const ConvexAsset>> partsCache_;
};

/// Builds the assets `names` of `assetDir` (empty: every asset there) into the process-wide
/// cache on `threads` threads, each asset once. Left to the first worlds, every thread would
/// build every asset itself, at the same time: seconds of start-up for runs of milliseconds.
/// Rethrows the first asset's error.
void preloadAssets(const std::filesystem::path& assetDir, std::vector<std::string> names,
                   double density, double hullTolerance, int threads);

/// Where an asset's convex decomposition is: <assetDir>/<name>/convex_parts.obj.
std::filesystem::path assetPartsPath(const std::filesystem::path& assetDir,
                                     const std::string& name);

/// Mass properties of a convex hull (faces fan-triangulated), in the hull's frame.
MassProperties hullMassProperties(const ConvexHull& hull, double density);

}  // namespace hb
