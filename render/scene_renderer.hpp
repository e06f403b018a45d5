#pragma once
// Draws a World: a shadow pass from the sun, the bodies (textured assets, flat-coloured
// primitives and static solids), the ground grid, then the funnel translucent on top so that
// what falls inside stays visible.

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "engine/world.hpp"
#include "render/ground_grid.hpp"
#include "render/lighting.hpp"
#include "render/mesh_cache.hpp"
#include "render/orbit_camera.hpp"
#include "render/render_settings.hpp"
#include "render/shader_program.hpp"
#include "render/shadow_map.hpp"

namespace hb {

struct RenderStatistics {
  int drawCalls = 0;
  long triangles = 0;
  /// Milliseconds per pass, measured only with SceneRenderer::setProfiling(true).
  double shadowMs = 0.0, opaqueMs = 0.0, groundMs = 0.0, funnelMs = 0.0;
};

class SceneRenderer {
 public:
  SceneRenderer(int maxTextureSize, int shadowMapSize);
  ~SceneRenderer();

  /// Call after building a World: sorts the static pieces into ground, funnel and solids, and
  /// fits the shadow map and the home view around the statics.
  void setWorld(const World& world);
  /// Clears the window's framebuffer and draws. Sizes in framebuffer pixels.
  void draw(const World& world, const OrbitCamera& camera, int width, int height,
            const RenderSettings& settings, const BodyHighlights& highlights);
  /// draw() in two halves, for a world stepped on another thread: collect() copies what the
  /// frame needs from the world (poses, levels of detail, sleeping), render() draws it without
  /// the world.
  void collect(const World& world, const OrbitCamera& camera, int height);
  void render(const OrbitCamera& camera, int width, int height, const RenderSettings& settings,
              const BodyHighlights& highlights);

  /// After collect(): every drawn body and solid static, and the ground, in one flat colour
  /// each that encodes its body index plus one (24 bits, RGB; 0 is nothing), with `program`
  /// (shadow.vert's uniforms, uColor). The translucent funnel is left out: what lies behind it
  /// is what it shows. The caller binds and clears the target.
  void renderIds(const OrbitCamera& camera, int width, int height, ShaderProgram& program);
  MeshCache& meshes() { return meshes_; }
  /// Waits for the GPU after each pass to time it (slows drawing down; for benchmarks).
  void setProfiling(bool on) { profiling_ = on; }
  const RenderStatistics& statistics() const { return stats_; }
  const Eigen::Vector3f& backgroundColor() const { return background_; }
  /// Centre and radius of the statics other than the ground (the funnel and its walls).
  const Eigen::Vector3d& sceneCenter() const { return sceneCenter_; }
  double sceneRadius() const { return sceneRadius_; }
  /// The sphere around what the scene holds when set: its statics but the ground and its bodies
  /// (the scene's box above when it holds neither), which the opening view frames.
  const Eigen::Vector3d& contentCenter() const { return contentCenter_; }
  double contentRadius() const { return contentRadius_; }

 private:
  enum class Role { Solid, Ground, Funnel };
  struct Item {
    int body;
    bool asleep;
    const Drawable* drawable;
    Eigen::Matrix4f model;
    int level;        // of detail, from the size on screen
    double distance;  // m from the camera
  };
  void shadowPass(const RenderSettings& settings, int width, int height);
  void opaquePass(const RenderSettings& settings, const BodyHighlights& highlights);
  void funnelPass(const RenderSettings& settings);
  void drawItem(const Item& item);

  MeshCache meshes_;
  ShadowMap shadow_;
  Lighting lighting_;
  std::unique_ptr<ShaderProgram> meshProgram_;
  std::unique_ptr<ShaderProgram> shadowProgram_;
  GroundGrid ground_;
  std::vector<Role> roles_;  // per proxy of body 0
  double groundHeight_ = 0.0;
  Eigen::Vector3d sceneCenter_ = Eigen::Vector3d(0.0, 0.0, 0.5);
  double sceneRadius_ = 1.0;
  Eigen::Vector3d contentCenter_ = Eigen::Vector3d(0.0, 0.0, 0.5);
  double contentRadius_ = 1.0;
  Eigen::Vector3f background_ = {0.85f, 0.88f, 0.92f};
  std::vector<Item> opaque_, funnel_, groundItems_;  // groundItems_: for renderIds only
  RenderStatistics stats_;
  bool profiling_ = false;
};

}  // namespace hb
