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
};

class AssetLibrary {
 public:
  /// `assetDir` holds one folder per asset (<name>/textured.obj) and optionally masses.csv
  /// (name,mass_kg). get() and names() throw MeshLoadError if the folder does not exist.
  explicit AssetLibrary(std::filesystem::path assetDir);

  /// The asset, loaded on first use and shared by every library of the process (thread-safe).
  /// `density` (kg/m^3) applies when masses.csv has no entry. Throws MeshLoadError naming the
  /// file for a missing or bad mesh.
  std::shared_ptr<const ConvexAsset> get(const std::string& name, double density);

  /// Names of every asset folder (sorted), for spawners.
  std::vector<std::string> names() const;
  const std::filesystem::path& directory() const { return dir_; }

 private:
  std::shared_ptr<const ConvexAsset> build(const std::string& name, double density) const;
  void requireDirectory() const;

  std::filesystem::path dir_;
  std::map<std::string, double> tableMasses_;
  std::map<std::string, std::shared_ptr<const ConvexAsset>> cache_;
};

/// Builds the assets `names` of `assetDir` (empty: every asset there) into the process-wide
/// cache on `threads` threads, each asset once. Left to the first worlds, every thread would
/// build every asset itself, at the same time: seconds of start-up for runs of milliseconds.
/// Rethrows the first asset's error.
void preloadAssets(const std::filesystem::path& assetDir, std::vector<std::string> names,
                   double density, int threads);

/// Mass properties of a convex hull (faces fan-triangulated), in the hull's frame.
MassProperties hullMassProperties(const ConvexHull& hull, double density);

}  // namespace hb
