#pragma once
// Triangle meshes of collision shapes for drawing: primitives tessellated with smooth normals
// (flat on caps and box faces), hulls with one flat normal per face. In the shape's frame.

#include "collision/shape.hpp"
#include "render/render_mesh.hpp"

namespace hb {

/// `segments` around round shapes (rings get half as many).
RenderMesh shapeMesh(const Shape& shape, int segments = 32);

}  // namespace hb
