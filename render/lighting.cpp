#include "render/lighting.hpp"

#include "render/shadow_map.hpp"

namespace hb {

void setLightingUniforms(ShaderProgram& program, const Lighting& lighting,
                         const Eigen::Vector3d& cameraPosition, const ShadowMap& shadow,
                         bool shadowsEnabled) {
  program.set("uLightDirection", Eigen::Vector3f(lighting.towardsLight.cast<float>()));
  program.set("uLightColor", lighting.color);
  program.set("uSkyAmbient", lighting.skyAmbient);
  program.set("uGroundAmbient", lighting.groundAmbient);
  program.set("uCameraPosition", Eigen::Vector3f(cameraPosition.cast<float>()));
  program.set("uShadowMap", kShadowTextureUnit);
  program.set("uShadowTexel", 1.0f / static_cast<float>(shadow.size()));
  program.set("uShadowsEnabled", shadowsEnabled);
  program.set("uLightViewProjection", shadow.lightViewProjection());
}

}  // namespace hb
