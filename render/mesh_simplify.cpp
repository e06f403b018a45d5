#include "render/mesh_simplify.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace hb {
namespace {

using Cell = std::array<std::int32_t, 3>;

struct CellHash {
  size_t operator()(const Cell& c) const {
    size_t h = 0;
    for (std::int32_t x : c) h = h * 0x9E3779B97F4A7C15ull + static_cast<std::uint32_t>(x);
    return h;
  }
};

/// Vertices that may merge: same position cell and texture cell (u, v).
struct VertexKey {
  std::uint32_t positionCell;
  std::int32_t u, v;
  bool operator==(const VertexKey&) const = default;
};

struct VertexKeyHash {
  size_t operator()(const VertexKey& k) const {
    return (static_cast<size_t>(k.positionCell) * 0x9E3779B97F4A7C15ull +
            static_cast<std::uint32_t>(k.u)) *
               0x9E3779B97F4A7C15ull +
           static_cast<std::uint32_t>(k.v);
  }
};

/// Normals closer than this (cosine of 60 degrees) merge; the two faces of a thin part do not.
constexpr double kMergeCosine = 0.5;

struct PositionCluster {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  int count = 0;
  Eigen::Vector3d mean() const { return sum / count; }
};

struct VertexCluster {
  std::uint32_t positionCell = 0;
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();  // sum of the members' normals
  Eigen::Vector2d uv = Eigen::Vector2d::Zero();      // sum of the members' uvs
  int count = 0;
};

Eigen::Vector3d position(const RenderVertex& v) {
  return {v.position[0], v.position[1], v.position[2]};
}

}  // namespace

RenderMesh clusterVertices(const RenderMesh& mesh, double cellSize, double uvCellSize) {
  std::unordered_map<Cell, std::uint32_t, CellHash> cellIndex;
  std::vector<PositionCluster> cells;
  std::unordered_map<VertexKey, std::vector<std::uint32_t>, VertexKeyHash> candidatesOf;
  std::vector<VertexCluster> merged;
  std::vector<std::uint32_t> mergedOf(mesh.vertices.size());
  for (size_t i = 0; i < mesh.vertices.size(); ++i) {
    const RenderVertex& v = mesh.vertices[i];
    Cell cell;
    for (int a = 0; a < 3; ++a) {
      cell[a] = static_cast<std::int32_t>(std::floor(v.position[a] / cellSize));
    }
    const auto [c, newCell] = cellIndex.try_emplace(cell, static_cast<std::uint32_t>(cells.size()));
    if (newCell) cells.emplace_back();
    cells[c->second].sum += position(v);
    ++cells[c->second].count;

    // Among the vertices of the same cells, join the first whose mean normal is close.
    const Eigen::Vector3d normal(v.normal[0], v.normal[1], v.normal[2]);
    const VertexKey key{c->second, static_cast<std::int32_t>(std::floor(v.uv[0] / uvCellSize)),
                        static_cast<std::int32_t>(std::floor(v.uv[1] / uvCellSize))};
    std::vector<std::uint32_t>& candidates = candidatesOf[key];
    auto target = static_cast<std::uint32_t>(merged.size());
    for (std::uint32_t m : candidates) {
      if (normal.dot(merged[m].normal) > kMergeCosine * merged[m].normal.norm()) {
        target = m;
        break;
      }
    }
    if (target == merged.size()) {
      merged.emplace_back();
      merged.back().positionCell = c->second;
      candidates.push_back(target);
    }
    VertexCluster& into = merged[target];
    into.normal += normal;
    into.uv += Eigen::Vector2d(v.uv[0], v.uv[1]);
    ++into.count;
    mergedOf[i] = target;
  }

  RenderMesh out;
  out.texturePath = mesh.texturePath;
  out.hasUvs = mesh.hasUvs;
  out.vertices.reserve(merged.size());
  for (const VertexCluster& m : merged) {
    RenderVertex v;
    const Eigen::Vector3d p = cells[m.positionCell].mean();
    const Eigen::Vector2d uv = m.uv / m.count;
    const double length = m.normal.norm();
    const Eigen::Vector3d n =
        length > 0.0 ? Eigen::Vector3d(m.normal / length) : Eigen::Vector3d::UnitZ();
    v.position = {float(p.x()), float(p.y()), float(p.z())};
    v.normal = {float(n.x()), float(n.y()), float(n.z())};
    v.uv = {float(uv.x()), float(uv.y())};
    out.vertices.push_back(v);
  }
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint32_t a = mergedOf[mesh.indices[t]], b = mergedOf[mesh.indices[t + 1]],
                        c = mergedOf[mesh.indices[t + 2]];
    // Collapsed: two corners in one position cell.
    if (merged[a].positionCell == merged[b].positionCell ||
        merged[b].positionCell == merged[c].positionCell ||
        merged[a].positionCell == merged[c].positionCell) {
      continue;
    }
    // Merging can turn a small triangle over; the merged normals say which way is out.
    const auto p = [&](std::uint32_t k) { return position(out.vertices[k]); };
    const Eigen::Vector3d faceNormal = (p(b) - p(a)).cross(p(c) - p(a));
    const Eigen::Vector3d vertexNormals = merged[a].normal + merged[b].normal + merged[c].normal;
    if (faceNormal.dot(vertexNormals) < 0.0) {
      out.indices.insert(out.indices.end(), {a, c, b});
    } else {
      out.indices.insert(out.indices.end(), {a, b, c});
    }
  }
  return out;
}

RenderMesh simplifyMesh(const RenderMesh& mesh, int targetTriangles) {
  if (static_cast<int>(mesh.indices.size() / 3) <= targetTriangles || mesh.vertices.empty()) {
    return mesh;
  }
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(1e30), hi = Eigen::Vector3d::Constant(-1e30);
  for (const RenderVertex& v : mesh.vertices) {
    const Eigen::Vector3d p(v.position[0], v.position[1], v.position[2]);
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const double diagonal = (hi - lo).norm();
  // Cells from 1/120 of the diagonal, a third coarser each time; texture-space cells coarsen
  // alike (else they alone would bound the merging).
  RenderMesh best;
  for (double cells = 120.0; cells >= 10.0; cells /= 1.33) {
    best = clusterVertices(mesh, diagonal / cells, 2.0 / cells);
    if (static_cast<int>(best.indices.size() / 3) <= targetTriangles) break;
  }
  return best;
}

}  // namespace hb
