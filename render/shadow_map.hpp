#pragma once
// The directional light's shadow map: a depth texture rendered from the light through an
// orthographic box fitted around the scene, sampled with hardware depth comparison.

#include <Eigen/Core>

namespace hb {

class ShadowMap {
 public:
  explicit ShadowMap(int size);
  ~ShadowMap();
  ShadowMap(const ShadowMap&) = delete;
  ShadowMap& operator=(const ShadowMap&) = delete;

  /// Covers the sphere (center, radius) seen from the light; `towardsLight` is unit.
  void fit(const Eigen::Vector3d& towardsLight, const Eigen::Vector3d& center, double radius);
  const Eigen::Matrix4f& lightViewProjection() const { return lightViewProjection_; }
  int size() const { return size_; }

  /// Binds the depth target and clears it; draw the casters between begin() and end().
  void begin();
  /// Restores the framebuffer bound before begin() and sets the viewport.
  void end(int viewportWidth, int viewportHeight);
  void bind(int unit) const;

 private:
  int size_ = 0;
  unsigned framebuffer_ = 0;
  unsigned depth_ = 0;
  unsigned target_ = 0;  // the framebuffer bound when begin() was called
  Eigen::Matrix4f lightViewProjection_ = Eigen::Matrix4f::Identity();
};

}  // namespace hb
