#include "render/mesh_cache.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <functional>

#include "render/mesh_simplify.hpp"
#include "render/shape_mesh.hpp"

namespace hb {
namespace {

constexpr int kMaxConcurrentLoads = 2;

constexpr std::array<std::array<float, 3>, 10> kPalette = {{
    {0.89f, 0.45f, 0.36f},  // coral
    {0.36f, 0.60f, 0.84f},  // blue
    {0.95f, 0.77f, 0.34f},  // mustard
    {0.47f, 0.73f, 0.49f},  // green
    {0.69f, 0.53f, 0.82f},  // lilac
    {0.93f, 0.60f, 0.72f},  // pink
    {0.38f, 0.74f, 0.74f},  // teal
    {0.84f, 0.62f, 0.42f},  // tan
    {0.62f, 0.66f, 0.72f},  // slate
    {0.80f, 0.36f, 0.40f},  // brick
}};

/// A key that names a primitive by its type and parameters, or a hull by its address.
std::string shapeKey(const Shape& s) {
  char buffer[160];
  if (s.type() == ShapeType::ConvexHull) {
    std::snprintf(buffer, sizeof buffer, "hull %p", static_cast<const void*>(&s.hull()));
  } else {
    const Eigen::Vector3d& d = s.halfExtents();  // the shape's dimensions, whatever they mean
    std::snprintf(buffer, sizeof buffer, "%s %.9g %.9g %.9g %.9g",
                  std::string(toString(s.type())).c_str(), d.x(), d.y(), d.z(), s.radius());
  }
  return buffer;
}

}  // namespace

Eigen::Vector3f paletteColor(int index) {
  const auto& c = kPalette[static_cast<size_t>(index) % kPalette.size()];
  return {c[0], c[1], c[2]};
}

Eigen::Vector3f paletteColor(const std::string& name) {
  return paletteColor(static_cast<int>(std::hash<std::string>{}(name) % kPalette.size()));
}

MeshCache::~MeshCache() {
  // Let running loads finish before their results' owner goes.
  for (Pending& p : pending_) {
    if (p.result.valid()) p.result.wait();
  }
}

const Drawable& MeshCache::get(const Proxy& proxy, const WorldBody& body) {
  const bool isAsset = body.asset != nullptr;
  const std::string key = isAsset ? body.asset->objPath.string() : shapeKey(proxy.shape);
  if (auto it = drawables_.find(key); it != drawables_.end()) return it->second;

  Drawable& d = drawables_[key];
  d.isAsset = isAsset;
  d.shape = std::make_unique<MeshBuffers>(shapeMesh(proxy.shape));
  if (proxy.shape.type() == ShapeType::ConvexHull) hulls_[key] = proxy.shape.hullPtr();
  if (isAsset) {
    d.color = paletteColor(body.name);
    pending_.push_back({key, body.asset->objPath, {}});
    poll();
  }
  return d;
}

void MeshCache::start(Pending& pending) {
  const std::filesystem::path obj = pending.obj;
  const int maxSize = maxTextureSize_;
  pending.result = std::async(std::launch::async, [obj, maxSize] {
    Loaded loaded;
    loaded.levels[0] = loadRenderMesh(obj);
    // Each level simplifies the previous one: cheaper, and the levels nest.
    for (int l = 1; l < kDetailLevels; ++l) {
      loaded.levels[l] = simplifyMesh(loaded.levels[l - 1], kLevelTriangles[l]);
    }
    const RenderMesh& mesh = loaded.levels[0];
    if (!mesh.texturePath.empty() && mesh.hasUvs) {
      loaded.texture = loadImage(mesh.texturePath, maxSize);
    }
    return loaded;
  });
}

void MeshCache::upload(Pending& pending) {
  Drawable& d = drawables_[pending.key];
  try {
    Loaded loaded = pending.result.get();
    for (int l = 0; l < kDetailLevels; ++l) {
      if (l == 0 || loaded.levels[l].indices.size() < loaded.levels[l - 1].indices.size()) {
        d.levels[l] = std::make_unique<MeshBuffers>(loaded.levels[l]);
      }
    }
    if (loaded.texture) d.texture = std::make_unique<Texture>(*loaded.texture);
  } catch (const std::exception& e) {
    // The hull stays on screen; the simulation does not depend on the render mesh.
    spdlog::warn("drawing {} as its convex hull: {}", pending.key, e.what());
  }
}

void MeshCache::poll() {
  for (size_t i = 0; i < pending_.size();) {
    Pending& p = pending_[i];
    if (p.result.valid() &&
        p.result.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      upload(p);
      pending_.erase(pending_.begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
  // A decoded 4096^2 map takes 48 MB before it is shrunk: a few loads at a time, not twenty.
  int running = 0;
  for (Pending& p : pending_) {
    if (p.result.valid()) {
      ++running;
    } else if (running < kMaxConcurrentLoads) {
      start(p);
      ++running;
    }
  }
}

void MeshCache::finishLoading() {
  while (!pending_.empty()) {
    poll();
    for (Pending& p : pending_) {
      if (p.result.valid()) p.result.wait();
    }
  }
}

}  // namespace hb
