#pragma once
// GPU meshes and textures for the world's pieces, built once per asset or primitive and kept
// across world resets. Asset meshes and texture maps load on a worker thread: until they are
// ready the piece is drawn as its convex hull in a flat colour.

#include <Eigen/Core>
#include <array>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/world.hpp"
#include "render/image.hpp"
#include "render/mesh_buffers.hpp"
#include "render/render_mesh.hpp"
#include "render/texture.hpp"

namespace hb {

/// Levels of detail of asset meshes: the scan itself, then simplified copies.
inline constexpr int kDetailLevels = 3;
/// Triangles at each simplified level (level 0 is the full mesh).
inline constexpr std::array<int, kDetailLevels> kLevelTriangles = {0, 2000, 500};

struct Drawable {
  /// The mesh at `level` (0: full), or the nearest coarser or finer one that exists; the
  /// collision shape until the asset's mesh is loaded.
  const MeshBuffers& mesh(int level) const {
    for (int l = level; l < kDetailLevels; ++l) {
      if (levels[l]) return *levels[l];
    }
    for (int l = level - 1; l >= 0; --l) {
      if (levels[l]) return *levels[l];
    }
    return *shape;
  }
  bool loaded() const { return levels[0] != nullptr; }
  std::unique_ptr<MeshBuffers> shape;  ///< the collision shape (hull or primitive)
  /// The asset's mesh at each level of detail, once loaded (null where a level would not be
  /// smaller than the one before).
  std::array<std::unique_ptr<MeshBuffers>, kDetailLevels> levels;
  std::unique_ptr<Texture> texture;                         ///< its texture map, when it has one
  Eigen::Vector3f color = Eigen::Vector3f::Constant(0.7f);  ///< sRGB, where there is no texture
  bool isAsset = false;
};

class MeshCache {
 public:
  /// Texture maps are shrunk to at most `maxTextureSize` texels a side.
  explicit MeshCache(int maxTextureSize) : maxTextureSize_(maxTextureSize) {}
  ~MeshCache();

  /// The drawable of a piece (in the piece's frame, World::proxyPose).
  const Drawable& get(const Proxy& proxy, const WorldBody& body);
  /// Uploads whatever the worker threads finished; call once per frame with the GL context.
  void poll();
  /// Blocks until every started load is uploaded (scripted runs want the final look).
  void finishLoading();
  bool loading() const { return !pending_.empty(); }

 private:
  struct Loaded {
    std::array<RenderMesh, kDetailLevels> levels;
    std::optional<Image> texture;
  };
  struct Pending {
    std::string key;
    std::filesystem::path obj;
    std::future<Loaded> result;  ///< invalid until started
  };
  void start(Pending& pending);
  void upload(Pending& pending);

  int maxTextureSize_;
  std::map<std::string, Drawable> drawables_;
  // Shapes that are not assets are keyed by their parameters; hulls by address, so the hulls are
  // kept alive here to keep the addresses from being reused.
  std::map<std::string, std::shared_ptr<const ConvexHull>> hulls_;
  std::vector<Pending> pending_;
};

/// A pleasant flat colour (sRGB) picked by hashing `name`.
Eigen::Vector3f paletteColor(const std::string& name);
/// The i-th colour of the same palette.
Eigen::Vector3f paletteColor(int index);

}  // namespace hb
