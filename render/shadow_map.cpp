#include "render/shadow_map.hpp"

#include <cmath>

#include "render/gl.hpp"
#include "render/transforms.hpp"

namespace hb {

ShadowMap::ShadowMap(int size) : size_(size) {
  glGenTextures(1, &depth_);
  glBindTexture(GL_TEXTURE_2D, depth_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
               nullptr);
  // Linear filtering with comparison gives 2x2 percentage-closer filtering for free.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  // Outside the map nothing is in shadow.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
  const float border[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);

  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth_, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

ShadowMap::~ShadowMap() {
  glDeleteFramebuffers(1, &framebuffer_);
  glDeleteTextures(1, &depth_);
}

void ShadowMap::fit(const Eigen::Vector3d& towardsLight, const Eigen::Vector3d& center,
                    double radius) {
  const Eigen::Vector3d up =
      std::abs(towardsLight.z()) > 0.99 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ();
  const Eigen::Vector3d eye = center + 2.0 * radius * towardsLight;
  lightViewProjection_ =
      orthographic(-radius, radius, -radius, radius, 0.5 * radius, 3.5 * radius) *
      hb::lookAt(eye, center, up);
}

void ShadowMap::begin() {
  // The target the scene is drawn to afterwards: the window's, or an offscreen one.
  GLint target = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &target);
  target_ = static_cast<unsigned>(target);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, size_, size_);
  glClear(GL_DEPTH_BUFFER_BIT);
  // Pushes depths away from the light by the surface's slope: fewer self-shadowing stripes.
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(2.0f, 4.0f);
}

void ShadowMap::end(int viewportWidth, int viewportHeight) {
  glDisable(GL_POLYGON_OFFSET_FILL);
  glBindFramebuffer(GL_FRAMEBUFFER, target_);
  glViewport(0, 0, viewportWidth, viewportHeight);
}

void ShadowMap::bind(int unit) const {
  glActiveTexture(GL_TEXTURE0 + unit);
  glBindTexture(GL_TEXTURE_2D, depth_);
}

}  // namespace hb
