#include "render/render_mesh.hpp"

#include <spdlog/spdlog.h>
#include <tiny_obj_loader.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <unordered_map>

#include "engine/obj_mesh.hpp"

namespace hb {
namespace {

/// Key of one OBJ corner: position, texture coordinate and normal indices (-1 when absent).
struct CornerKey {
  int v, vt, vn;
  bool operator==(const CornerKey&) const = default;
};

struct CornerHash {
  size_t operator()(const CornerKey& k) const {
    return (static_cast<size_t>(k.v) * 73856093u) ^ (static_cast<size_t>(k.vt + 1) * 19349663u) ^
           (static_cast<size_t>(k.vn + 1) * 83492791u);
  }
};

Eigen::Vector3d position(const tinyobj::attrib_t& a, int v) {
  return {a.vertices[3 * v], a.vertices[3 * v + 1], a.vertices[3 * v + 2]};
}

/// Smooth normals per OBJ position, for files without `vn` records.
std::vector<Eigen::Vector3d> positionNormals(const tinyobj::attrib_t& attrib,
                                             const std::vector<tinyobj::shape_t>& shapes) {
  std::vector<Eigen::Vector3d> normals(attrib.vertices.size() / 3, Eigen::Vector3d::Zero());
  for (const tinyobj::shape_t& shape : shapes) {
    const auto& idx = shape.mesh.indices;
    for (size_t i = 0; i + 2 < idx.size(); i += 3) {
      const int a = idx[i].vertex_index, b = idx[i + 1].vertex_index, c = idx[i + 2].vertex_index;
      // The cross product's length is twice the area: larger faces weigh more.
      const Eigen::Vector3d n = (position(attrib, b) - position(attrib, a))
                                    .cross(position(attrib, c) - position(attrib, a));
      normals[a] += n;
      normals[b] += n;
      normals[c] += n;
    }
  }
  for (Eigen::Vector3d& n : normals) {
    const double len = n.norm();
    n = len > 0.0 ? Eigen::Vector3d(n / len) : Eigen::Vector3d::UnitZ();
  }
  return normals;
}

}  // namespace

RenderMesh loadRenderMesh(const std::filesystem::path& objPath) {
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  config.mtl_search_path = objPath.parent_path().string();
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(objPath.string(), config)) {
    throw MeshLoadError(objPath.string() + ": " + reader.Error());
  }
  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  const std::vector<tinyobj::shape_t>& shapes = reader.GetShapes();
  if (attrib.vertices.empty()) throw MeshLoadError(objPath.string() + ": no vertices");

  RenderMesh mesh;
  mesh.hasUvs = !attrib.texcoords.empty();
  const bool hasNormals = !attrib.normals.empty();
  const std::vector<Eigen::Vector3d> computed =
      hasNormals ? std::vector<Eigen::Vector3d>{} : positionNormals(attrib, shapes);

  std::unordered_map<CornerKey, std::uint32_t, CornerHash> corners;
  corners.reserve(attrib.vertices.size() / 2);
  for (const tinyobj::shape_t& shape : shapes) {
    for (const tinyobj::index_t& index : shape.mesh.indices) {
      const CornerKey key{index.vertex_index, mesh.hasUvs ? index.texcoord_index : -1,
                          hasNormals ? index.normal_index : -1};
      const auto [it, inserted] =
          corners.try_emplace(key, static_cast<std::uint32_t>(mesh.vertices.size()));
      if (inserted) {
        RenderVertex vertex;
        const Eigen::Vector3d p = position(attrib, key.v);
        vertex.position = {float(p.x()), float(p.y()), float(p.z())};
        Eigen::Vector3d n = key.vn >= 0 ? Eigen::Vector3d(attrib.normals[3 * key.vn],
                                                          attrib.normals[3 * key.vn + 1],
                                                          attrib.normals[3 * key.vn + 2])
                                        : (hasNormals ? Eigen::Vector3d::UnitZ() : computed[key.v]);
        if (n.norm() > 0.0) n.normalize();
        vertex.normal = {float(n.x()), float(n.y()), float(n.z())};
        if (key.vt >= 0) {
          vertex.uv = {float(attrib.texcoords[2 * key.vt]),
                       float(attrib.texcoords[2 * key.vt + 1])};
        }
        mesh.vertices.push_back(vertex);
      }
      mesh.indices.push_back(it->second);
    }
  }
  if (mesh.indices.empty()) throw MeshLoadError(objPath.string() + ": no faces");

  // The first material naming a diffuse map that exists on disk gives the texture.
  for (const tinyobj::material_t& material : reader.GetMaterials()) {
    if (material.diffuse_texname.empty()) continue;
    const std::filesystem::path texture = objPath.parent_path() / material.diffuse_texname;
    std::error_code ec;
    if (std::filesystem::is_regular_file(texture, ec)) {
      mesh.texturePath = std::filesystem::absolute(texture);
      break;
    }
    spdlog::debug("{}: texture {} not found, drawing a flat colour", objPath.string(),
                  texture.string());
  }
  return mesh;
}

}  // namespace hb
