#pragma once
// Loading Wavefront OBJ meshes (tinyobjloader): vertex positions and triangles, in the file's own
// frame and units (YCB meshes are in metres). I/O boundary: errors are exceptions naming the file.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace hb {

/// Thrown for a missing or unreadable file, a file without vertices or faces, or non-finite
/// coordinates; the message starts with the file path.
class MeshLoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ObjMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;  ///< indices into vertices (polygons fan-triangulated)
  /// Per object of the file (`o` or `g` groups, in order), the vertices its faces use.
  std::vector<std::vector<int>> objects;
};

/// Whether a mesh without faces is an error: a scan's mass and rendering need its faces; a
/// convex hull needs its vertices only (a point cloud is a valid `mesh` shape).
enum class ObjFaces { Required, Optional };

/// The largest OBJ file loadObjMesh reads (a scan of a million vertices is about 60 MB).
inline constexpr std::uintmax_t kMaxObjFileBytes = std::uintmax_t{256} << 20;

/// Loads positions and faces; texture coordinates and normals are ignored here. Only regular
/// files of at most kMaxObjFileBytes are read (a device such as /dev/zero would never end); a
/// file too large for the memory is a MeshLoadError naming it too.
ObjMesh loadObjMesh(const std::filesystem::path& path, ObjFaces faces = ObjFaces::Required);
/// The same from the file's text; `path` only names it in messages.
ObjMesh parseObjMesh(const std::string& text, const std::filesystem::path& path,
                     ObjFaces faces = ObjFaces::Required);

}  // namespace hb
