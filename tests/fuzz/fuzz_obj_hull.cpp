// libFuzzer target: an OBJ file's text through the asset pipeline: the mesh, its convex hull,
// its bounding box and a rounded core. Every input is a hull or a MeshLoadError/HullError.

#include <cstddef>
#include <cstdint>
#include <string>

#include "collision/convex_hull.hpp"
#include "collision/obb.hpp"
#include "collision/shape.hpp"
#include "engine/obj_mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const hb::ObjMesh mesh = hb::parseObjMesh(text, "fuzz.obj");
    const auto hull = std::make_shared<const hb::ConvexHull>(hb::ConvexHull::build(mesh.vertices));
    hb::fitObb(*hull);
    const hb::Shape shape = hb::Shape::convexHull(hull);
    shape.withConvexRadius(0.5 * shape.maxConvexRadius());
  } catch (const hb::MeshLoadError&) {
  } catch (const hb::HullError&) {
  }
  return 0;
}
