#pragma once
// Level of detail for render meshes by vertex clustering. Vertices in one cell of a position
// grid move to the cell's mean position; among them, those that also share a cell of a
// texture-coordinate grid and a normal direction merge into one vertex. Triangles that collapse
// are dropped. A 16k-triangle YCB scan a hundred pixels tall looks the same with a few thousand
// triangles, and software renderers draw it several times faster. Copies of a vertex on either
// side of a texture seam land on the same point (no cracks) but keep their own texture
// coordinates, and the two faces of thin parts keep their own normals (vertices merge only
// when their normals are within 60 degrees).

#include "render/render_mesh.hpp"

namespace hb {

/// One clustering pass with cells of `cellSize` metres and `uvCellSize` in texture space.
RenderMesh clusterVertices(const RenderMesh& mesh, double cellSize, double uvCellSize);

/// The first of a sequence of ever coarser clusterings with at most `targetTriangles`
/// triangles (the coarsest if none is small enough); the mesh itself when already small.
RenderMesh simplifyMesh(const RenderMesh& mesh, int targetTriangles);

}  // namespace hb
