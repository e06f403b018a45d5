#include "render/scene_renderer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "engine/funnel.hpp"
#include "render/gl.hpp"
#include "render/transforms.hpp"

namespace hb {
namespace {

const Eigen::Vector3f kStaticColor = {0.70f, 0.72f, 0.76f};
const Eigen::Vector3f kFunnelColor = {0.55f, 0.74f, 0.92f};
/// On-screen radii (pixels) above which assets are drawn at detail levels 0 and 1.
constexpr double kLevel0Pixels = 150.0;
constexpr double kLevel1Pixels = 50.0;

/// Times passes when profiling: waits for the GPU, returns the ms since the previous lap.
class PassTimer {
 public:
  explicit PassTimer(bool on) : on_(on) { lap(); }
  double lap() {
    if (!on_) return 0.0;
    glFinish();
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace

SceneRenderer::SceneRenderer(int maxTextureSize, int shadowMapSize)
    : meshes_(maxTextureSize),
      shadow_(shadowMapSize),
      meshProgram_(std::make_unique<ShaderProgram>(
          std::vector<std::string_view>{"mesh.vert"},
          std::vector<std::string_view>{"lighting.glsl", "mesh.frag"})),
      shadowProgram_(
          std::make_unique<ShaderProgram>(std::vector<std::string_view>{"shadow.vert"},
                                          std::vector<std::string_view>{"shadow.frag"})) {}

SceneRenderer::~SceneRenderer() = default;

void SceneRenderer::setWorld(const World& world) {
  // Body 0's pieces follow the scene's statics in order (World::addStatic).
  roles_.clear();
  groundHeight_ = 0.0;
  for (const StaticDescription& s : world.scene().statics) {
    switch (s.kind) {
      case StaticDescription::Kind::Ground:
        roles_.push_back(Role::Ground);
        groundHeight_ = s.groundHeight;
        break;
      case StaticDescription::Kind::Funnel:
        roles_.insert(roles_.end(), funnelPanels(s.funnel).size(), Role::Funnel);
        break;
      case StaticDescription::Kind::Shape:
        roles_.push_back(Role::Solid);
        break;
    }
  }
  // The bodies' box. A static far larger than it (a floor made of a box, as under the piles)
  // counts only where it lies under the bodies (the ground plane does not count at all): an
  // 800 m floor would otherwise frame the view and fit the shadows on itself.
  Eigen::Vector3d bodiesLo = Eigen::Vector3d::Constant(INFINITY), bodiesHi = -bodiesLo;
  for (size_t b = 1; b < world.bodies().size(); ++b) {
    for (const int piece : world.bodies()[b].proxies) {
      for (const Eigen::Vector3d& c : world.worldObbs()[piece].corners()) {
        bodiesLo = bodiesLo.cwiseMin(c);
        bodiesHi = bodiesHi.cwiseMax(c);
      }
    }
  }
  const bool anyBody = (bodiesLo.array() <= bodiesHi.array()).all();
  constexpr double kFloorRatio = 5.0;  // a static this many times the bodies' size is a floor
  const double bodiesSize = anyBody ? (bodiesHi - bodiesLo).norm() : INFINITY;
  // The box around every static but the ground.
  Eigen::Vector3d staticsLo = Eigen::Vector3d::Constant(INFINITY), staticsHi = -staticsLo;
  const std::vector<int>& pieces = world.bodies()[0].proxies;
  for (size_t i = 0; i < pieces.size() && i < roles_.size(); ++i) {
    if (roles_[i] == Role::Ground) continue;
    const Obb& box = world.worldObbs()[pieces[i]];
    const bool floor = 2.0 * box.halfExtents.norm() > kFloorRatio * bodiesSize;
    for (Eigen::Vector3d c : box.corners()) {
      if (floor) {
        c.head<2>() = c.head<2>().cwiseMax(bodiesLo.head<2>()).cwiseMin(bodiesHi.head<2>());
      }
      staticsLo = staticsLo.cwiseMin(c);
      staticsHi = staticsHi.cwiseMax(c);
    }
  }
  // The scene: the statics and at least the space above the ground where things are dropped.
  const Eigen::Vector3d lo = staticsLo.cwiseMin(Eigen::Vector3d(-0.5, -0.5, groundHeight_));
  const Eigen::Vector3d hi = staticsHi.cwiseMax(Eigen::Vector3d(0.5, 0.5, groundHeight_ + 1.0));
  sceneCenter_ = 0.5 * (lo + hi);
  sceneRadius_ = 0.5 * (hi - lo).norm();
  // What the scene holds: the statics and the bodies, without the room above the ground.
  Eigen::Vector3d contentLo = bodiesLo.cwiseMin(staticsLo);
  const Eigen::Vector3d contentHi = bodiesHi.cwiseMax(staticsHi);
  if ((contentLo.array() <= contentHi.array()).all()) {
    contentLo.z() = std::min(contentLo.z(), groundHeight_);  // down to the ground they rest on
    contentCenter_ = 0.5 * (contentLo + contentHi);
    contentRadius_ = std::max(0.5 * (contentHi - contentLo).norm(), 0.05);
  } else {
    contentCenter_ = sceneCenter_;
    contentRadius_ = sceneRadius_;
  }
  shadow_.fit(lighting_.towardsLight, sceneCenter_, 1.05 * sceneRadius_);
}

void SceneRenderer::collect(const World& world, const OrbitCamera& camera, int height) {
  meshes_.poll();
  // Pixels per metre at unit distance: projected radius = radius / distance * this.
  const double pixelsPerMetre = 0.5 * height / std::tan(0.5 * OrbitCamera::kFovY);
  const Eigen::Vector3d eye = camera.position();
  opaque_.clear();
  funnel_.clear();
  groundItems_.clear();
  const auto& proxies = world.proxies();
  for (int p = 0; p < static_cast<int>(proxies.size()); ++p) {
    const int body = proxies[p].body;
    Role role = Role::Solid;
    if (body == 0) {
      // Position of this piece among body 0's: its index into roles_.
      const auto& pieces = world.bodies()[0].proxies;
      const auto it = std::find(pieces.begin(), pieces.end(), p);
      const size_t index = static_cast<size_t>(it - pieces.begin());
      if (index < roles_.size()) role = roles_[index];
    }
    const Drawable& d = meshes_.get(proxies[p], world.bodies()[body]);
    const Obb& box = world.worldObbs()[p];
    const double distance = std::max((box.center - eye).norm(), 1e-3);
    const double pixels = box.halfExtents.norm() / distance * pixelsPerMetre;
    const int level = pixels > kLevel0Pixels ? 0 : pixels > kLevel1Pixels ? 1 : 2;
    Item item{body,  world.rigidBodies()[body].sleeping,
              &d,    poseMatrix(world.proxyPose(p)),
              level, distance};
    (role == Role::Funnel   ? funnel_
     : role == Role::Ground ? groundItems_
                            : opaque_)
        .push_back(item);
  }
  // Nearest first: hidden fragments then fail the depth test before they are shaded.
  std::sort(opaque_.begin(), opaque_.end(),
            [](const Item& a, const Item& b) { return a.distance < b.distance; });
}

void SceneRenderer::drawItem(const Item& item) {
  const MeshBuffers& mesh = item.drawable->mesh(item.level);
  mesh.draw();
  ++stats_.drawCalls;
  stats_.triangles += mesh.triangles();
}

void SceneRenderer::shadowPass(const RenderSettings& settings, int width, int height) {
  shadow_.begin();
  if (settings.shadows) {
    shadowProgram_->use();
    shadowProgram_->set("uLightViewProjection", shadow_.lightViewProjection());
    for (const Item& item : opaque_) {
      shadowProgram_->set("uModel", item.model);
      const Drawable& d = *item.drawable;
      // Shadows are soft and small: the coarse level does, unless detail is asked for.
      const MeshBuffers& mesh = d.mesh(settings.detailedShadows ? std::min(item.level, 1) : 2);
      mesh.draw();
      ++stats_.drawCalls;
      stats_.triangles += mesh.triangles();
    }
  }
  shadow_.end(width, height);
}

void SceneRenderer::opaquePass(const RenderSettings& settings, const BodyHighlights& highlights) {
  ShaderProgram& program = *meshProgram_;
  program.set("uAlpha", 1.0f);
  program.set("uTexture", 0);
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  for (const Item& item : opaque_) {
    const int body = item.body;
    const Drawable& d = *item.drawable;
    const bool textured = settings.textures && d.texture && d.loaded();
    if (textured) d.texture->bind(0);
    Eigen::Vector3f color = body == 0 ? kStaticColor : (d.isAsset ? d.color : paletteColor(body));
    program.set("uUseTexture", textured);
    program.set("uColor", color);
    const bool asleep = settings.tintSleeping && item.asleep;
    program.set("uTint",
                asleep ? Eigen::Vector3f(0.45f, 0.5f, 0.65f) : Eigen::Vector3f::Ones().eval());
    Eigen::Vector3f emissive = Eigen::Vector3f::Zero();
    if (body == highlights.grabbed) {
      emissive = {0.30f, 0.16f, 0.02f};
    } else if (body == highlights.selected) {
      emissive = {0.22f, 0.17f, 0.05f};
    } else if (body == highlights.hovered) {
      emissive = {0.07f, 0.07f, 0.07f};
    }
    program.set("uEmissive", emissive);
    program.set("uShininess", body == 0 ? 16.0f : 48.0f);
    program.set("uSpecular", body == 0 ? 0.05f : 0.25f);
    program.set("uModel", item.model);
    program.set("uNormalMatrix", Eigen::Matrix3f(item.model.block<3, 3>(0, 0)));
    drawItem(item);
  }
  glDisable(GL_CULL_FACE);
}

void SceneRenderer::funnelPass(const RenderSettings& settings) {
  if (funnel_.empty() || settings.funnelOpacity <= 0.0f) return;
  ShaderProgram& program = *meshProgram_;
  program.set("uUseTexture", false);
  program.set("uColor", kFunnelColor);
  program.set("uTint", Eigen::Vector3f::Ones().eval());
  program.set("uEmissive", Eigen::Vector3f::Zero().eval());
  program.set("uShininess", 64.0f);
  program.set("uSpecular", 0.5f);
  program.set("uAlpha", settings.funnelOpacity);
  // Glass: blended, not writing depth; the far side of the walls first, then the near side.
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  glEnable(GL_CULL_FACE);
  for (GLenum cull : {GL_FRONT, GL_BACK}) {
    glCullFace(cull);
    for (const Item& item : funnel_) {
      program.set("uModel", item.model);
      program.set("uNormalMatrix", Eigen::Matrix3f(item.model.block<3, 3>(0, 0)));
      drawItem(item);
    }
  }
  glDisable(GL_CULL_FACE);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void SceneRenderer::draw(const World& world, const OrbitCamera& camera, int width, int height,
                         const RenderSettings& settings, const BodyHighlights& highlights) {
  collect(world, camera, height);
  render(camera, width, height, settings, highlights);
}

void SceneRenderer::render(const OrbitCamera& camera, int width, int height,
                           const RenderSettings& settings, const BodyHighlights& highlights) {
  stats_ = {};
  PassTimer timer(profiling_);
  glEnable(GL_DEPTH_TEST);
  shadowPass(settings, width, height);
  stats_.shadowMs = timer.lap();

  glClearColor(background_.x(), background_.y(), background_.z(), 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const double aspect = double(width) / std::max(height, 1);
  const Eigen::Matrix4f viewProjection = camera.projectionMatrix(aspect) * camera.viewMatrix();
  shadow_.bind(kShadowTextureUnit);

  meshProgram_->use();
  setLightingUniforms(*meshProgram_, lighting_, camera.position(), shadow_, settings.shadows);
  meshProgram_->set("uViewProjection", viewProjection);
  opaquePass(settings, highlights);
  stats_.opaqueMs = timer.lap();
  ground_.draw(groundHeight_, camera, viewProjection, lighting_, shadow_, settings.shadows,
               settings.grid, background_);
  stats_.groundMs = timer.lap();
  meshProgram_->use();
  funnelPass(settings);
  stats_.funnelMs = timer.lap();
  glActiveTexture(GL_TEXTURE0);
}

void SceneRenderer::renderIds(const OrbitCamera& camera, int width, int height,
                              ShaderProgram& program) {
  const double aspect = double(width) / std::max(height, 1);
  program.use();
  program.set("uLightViewProjection",
              Eigen::Matrix4f(camera.projectionMatrix(aspect) * camera.viewMatrix()));
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  for (const std::vector<Item>* items : {&opaque_, &groundItems_}) {
    for (const Item& item : *items) {
      const unsigned code = static_cast<unsigned>(item.body) + 1u;
      program.set("uColor", Eigen::Vector3f((code & 0xffu) / 255.0f, ((code >> 8) & 0xffu) / 255.0f,
                                            ((code >> 16) & 0xffu) / 255.0f));
      program.set("uModel", item.model);
      // The finest mesh: the ids outline what the picture shows.
      item.drawable->mesh(0).draw();
    }
  }
}

}  // namespace hb
