#pragma once
// The scene's light: one directional light (the sun, casting the shadow map) and a hemisphere
// ambient, shared by every lit shader (assets/shaders/lighting.glsl).

#include <Eigen/Core>

#include "render/shader_program.hpp"

namespace hb {

class ShadowMap;

struct Lighting {
  Eigen::Vector3d towardsLight = Eigen::Vector3d(-0.45, -0.35, 1.0).normalized();
  Eigen::Vector3f color = {0.95f, 0.92f, 0.86f};          ///< linear
  Eigen::Vector3f skyAmbient = {0.30f, 0.33f, 0.38f};     ///< linear, from above
  Eigen::Vector3f groundAmbient = {0.14f, 0.13f, 0.12f};  ///< linear, bounced from below
};

/// Texture unit the shadow map is bound to; unit 0 holds the albedo texture.
inline constexpr int kShadowTextureUnit = 1;

/// Sets lighting.glsl's uniforms on a program that is in use.
void setLightingUniforms(ShaderProgram& program, const Lighting& lighting,
                         const Eigen::Vector3d& cameraPosition, const ShadowMap& shadow,
                         bool shadowsEnabled);

}  // namespace hb
