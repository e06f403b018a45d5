#include "engine/asset_library.hpp"

#include <atomic>
#include <cmath>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>

#include <spdlog/spdlog.h>

#include "collision/obb.hpp"
#include "engine/obj_mesh.hpp"

namespace hb {

MassProperties hullMassProperties(const ConvexHull& hull, double density) {
  std::vector<std::array<int, 3>> triangles;
  for (int f = 0; f < hull.numFaces(); ++f) {
    const auto face = hull.face(f);
    for (size_t i = 1; i + 1 < face.size(); ++i)
      triangles.push_back({face[0], face[i], face[i + 1]});
  }
  return computeMassProperties(hull.vertices(), triangles, density);
}

AssetLibrary::AssetLibrary(std::filesystem::path assetDir, double hullTolerance)
    : dir_(std::move(assetDir)), hullTolerance_(hullTolerance) {
  if (!(hullTolerance >= 0.0 && std::isfinite(hullTolerance))) {
    throw MeshLoadError("hull tolerance must be finite and >= 0, got " +
                        std::to_string(hullTolerance));
  }
  // A scene of primitives alone needs no asset folder: the error waits for the first asset.
  if (!std::filesystem::is_directory(dir_)) return;
  // masses.csv: "name,mass_kg" with a header line.
  std::ifstream csv(dir_ / "masses.csv");
  std::string line;
  bool header = true;
  while (std::getline(csv, line)) {
    if (header) {
      header = false;
      continue;
    }
    const auto comma = line.find(',');
    if (comma == std::string::npos) continue;
    try {
      const double mass = std::stod(line.substr(comma + 1));
      if (mass > 0.0) tableMasses_[line.substr(0, comma)] = mass;
    } catch (const std::exception&) {
      throw MeshLoadError((dir_ / "masses.csv").string() + ": bad mass on line '" + line + "'");
    }
  }
}

namespace {

// Assets are immutable once built and cost tens of milliseconds each (OBJ parsing, Qhull, OBB
// fitting), so every World of the process shares them: batches build hundreds of worlds.
struct SharedAssets {
  std::mutex mutex;
  /// By mesh file, density and hull tolerance.
  std::map<std::tuple<std::string, double, double>, std::shared_ptr<const ConvexAsset>> byFile;
};

SharedAssets& sharedAssets() {
  static SharedAssets shared;
  return shared;
}

}  // namespace

void AssetLibrary::requireDirectory() const {
  if (!std::filesystem::is_directory(dir_)) {
    throw MeshLoadError(dir_.string() + ": asset directory does not exist");
  }
}

std::shared_ptr<const ConvexAsset> AssetLibrary::get(const std::string& name, double density) {
  const Key own{name, density};
  if (auto it = cache_.find(own); it != cache_.end()) return it->second;
  requireDirectory();
  const std::filesystem::path file = std::filesystem::absolute(dir_ / name / "textured.obj");
  const auto key = std::make_tuple(file.lexically_normal().string(), density, hullTolerance_);
  SharedAssets& shared = sharedAssets();
  {
    std::lock_guard<std::mutex> lock(shared.mutex);
    if (auto it = shared.byFile.find(key); it != shared.byFile.end()) {
      cache_[own] = it->second;
      return it->second;
    }
  }
  const std::shared_ptr<const ConvexAsset> built = build(name, density);
  std::lock_guard<std::mutex> lock(shared.mutex);
  // Another thread may have built it meanwhile; both copies are identical, keep the first.
  const auto inserted = shared.byFile.emplace(key, built).first->second;
  cache_[own] = inserted;
  return inserted;
}

std::shared_ptr<const ConvexAsset> AssetLibrary::build(const std::string& name,
                                                       double density) const {
  auto asset = std::make_shared<ConvexAsset>();
  asset->name = name;
  asset->objPath = dir_ / name / "textured.obj";
  const ObjMesh mesh = loadObjMesh(asset->objPath);
  std::shared_ptr<const ConvexHull> hull;
  try {
    // The body's mass properties are the object's, not those of a simpler collision hull.
    hull = std::make_shared<const ConvexHull>(ConvexHull::build(mesh.vertices));
    asset->massProperties = hullMassProperties(*hull, density);
    if (hullTolerance_ > 0.0) {
      hull = std::make_shared<const ConvexHull>(ConvexHull::build(mesh.vertices, hullTolerance_));
    }
  } catch (const std::exception& e) {
    throw MeshLoadError(asset->objPath.string() + ": " + e.what());
  }
  asset->shape = Shape::convexHull(hull);
  asset->localObb = fitObb(*hull);
  if (auto it = tableMasses_.find(name); it != tableMasses_.end()) {
    asset->massProperties = withMass(asset->massProperties, it->second);
    asset->massFromTable = true;
  }
  asset->meshInBody = Pose::translation(-asset->massProperties.centerOfMass);
  return asset;
}

std::filesystem::path assetPartsPath(const std::filesystem::path& assetDir,
                                     const std::string& name) {
  return assetDir / name / "convex_parts.obj";
}

std::vector<std::string> AssetLibrary::names() const {
  requireDirectory();
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    if (entry.is_directory() && std::filesystem::exists(entry.path() / "textured.obj")) {
      out.push_back(entry.path().filename().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void preloadAssets(const std::filesystem::path& assetDir, std::vector<std::string> names,
                   double density, double hullTolerance, int threads) {
  if (names.empty()) names = AssetLibrary(assetDir).names();
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::exception_ptr error;
  auto work = [&] {
    AssetLibrary own(assetDir,
                     hullTolerance);  // get() fills the library's own map too: one per thread
    for (std::size_t i; (i = next.fetch_add(1)) < names.size();) {
      try {
        own.get(names[i], density);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  {
    std::vector<std::jthread> workers;
    for (int j = 1; j < std::min<int>(threads, static_cast<int>(names.size())); ++j) {
      workers.emplace_back(work);
    }
    work();
  }
  if (error) std::rethrow_exception(error);
}

std::shared_ptr<const ConvexAsset> AssetLibrary::getParts(const std::string& name, double density) {
  const Key own{name, density};
  if (auto it = partsCache_.find(own); it != partsCache_.end()) return it->second;
  return partsCache_[own] = buildParts(name, density);
}

std::shared_ptr<const ConvexAsset> AssetLibrary::buildParts(const std::string& name,
                                                            double density) {
  auto asset = std::make_shared<ConvexAsset>(*get(name, density));
  // The scan mesh's own mass properties: the body frame at its centre of mass.
  const ObjMesh scan = loadObjMesh(asset->objPath);
  try {
    asset->massProperties = computeMassProperties(scan.vertices, scan.triangles, density);
  } catch (const MassPropertiesError& e) {
    throw MeshLoadError(asset->objPath.string() + ": " + e.what());
  }
  if (auto it = tableMasses_.find(name); it != tableMasses_.end()) {
    asset->massProperties = withMass(asset->massProperties, it->second);
  }
  asset->meshInBody = Pose::translation(-asset->massProperties.centerOfMass);
  const std::filesystem::path partsPath = assetPartsPath(dir_, name);
  const ObjMesh parts = loadObjMesh(partsPath);
  for (size_t k = 0; k < parts.objects.size(); ++k) {
    std::vector<Eigen::Vector3d> points;
    for (const int v : parts.objects[k]) points.push_back(parts.vertices[v]);
    try {
      auto hull = std::make_shared<const ConvexHull>(ConvexHull::build(points, hullTolerance_));
      asset->partBoxes.push_back(fitObb(*hull));
      asset->parts.push_back(Shape::convexHull(std::move(hull)));
    } catch (const HullError& e) {
      spdlog::warn("{}: piece {} skipped: {}", partsPath.string(), k, e.what());
    }
  }
  if (asset->parts.empty()) throw MeshLoadError(partsPath.string() + ": no convex piece");
  return asset;
}

}  // namespace hb
