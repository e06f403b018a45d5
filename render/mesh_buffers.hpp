#pragma once
// A triangle mesh on the GPU: one vertex array with positions (location 0), normals (1) and
// texture coordinates (2), and an index buffer. Uploaded once, drawn many times.

#include "render/render_mesh.hpp"

namespace hb {

class MeshBuffers {
 public:
  explicit MeshBuffers(const RenderMesh& mesh);
  ~MeshBuffers();
  MeshBuffers(const MeshBuffers&) = delete;
  MeshBuffers& operator=(const MeshBuffers&) = delete;

  void draw() const;
  int triangles() const { return indexCount_ / 3; }

 private:
  unsigned vao_ = 0, vbo_ = 0, ibo_ = 0;
  int indexCount_ = 0;
};

}  // namespace hb
