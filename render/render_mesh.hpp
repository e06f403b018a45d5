#pragma once
// Render meshes: an OBJ's triangles with per-vertex normals and texture coordinates, ready to
// upload to a GPU. Separate from obj_mesh.hpp, which keeps positions only for collision shapes.
// Vertices are split where an OBJ corner's (position, uv, normal) triple differs (seams).

#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace hb {

struct RenderVertex {
  std::array<float, 3> position{};  ///< m, the OBJ's frame
  std::array<float, 3> normal{};    ///< unit
  std::array<float, 2> uv{};        ///< OBJ convention: v = 0 at the bottom of the image
};

struct RenderMesh {
  std::vector<RenderVertex> vertices;
  std::vector<std::uint32_t> indices;  ///< three per triangle, counter-clockwise from outside
  /// The diffuse map the material names (absolute), when the file exists; empty otherwise.
  std::filesystem::path texturePath;
  bool hasUvs = false;
};

/// Loads an OBJ for drawing. Normals missing from the file are computed (area-weighted, smooth
/// across shared positions). Throws MeshLoadError (engine/obj_mesh.hpp) naming the file.
RenderMesh loadRenderMesh(const std::filesystem::path& objPath);

}  // namespace hb
