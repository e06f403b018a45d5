#pragma once
// GLSL sources embedded at build time from assets/shaders (render/embed_shaders.cmake).

#include <string_view>

namespace hb {

/// The text of a shader file by name ("mesh.vert"); throws std::runtime_error for unknown names.
std::string_view shaderSource(std::string_view name);

}  // namespace hb
