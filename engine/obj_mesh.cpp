#include "engine/obj_mesh.hpp"

#include <algorithm>
#include "collision/defaults.hpp"

#include <spdlog/spdlog.h>
#include <tiny_obj_loader.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>

namespace hb {
namespace {

[[noreturn]] void throwMeshError(const std::filesystem::path& path, const std::string& what) {
  throw MeshLoadError(path.string() + ": " + what);
}

std::string readFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throwMeshError(path, "no such file");
  if (std::filesystem::is_directory(path, ec))
    throwMeshError(path, "is a directory, not an OBJ file");
  if (!std::filesystem::is_regular_file(path, ec)) throwMeshError(path, "not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxObjFileBytes) {
    throwMeshError(path, std::to_string(size) + " bytes, more than an OBJ file may have (" +
                             std::to_string(kMaxObjFileBytes >> 20) + " MiB)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throwMeshError(path, "cannot open file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throwMeshError(path, "read error");
  return std::move(text).str();
}

bool isBlank(char c) {
  return c == ' ' || c == '\t';
}

/// Parses one coordinate token. tinyobjloader turns unparsable numbers (including "nan") into 0
/// silently, so every `v` record is checked here first.
enum class Number { Ok, NotANumber, NonFinite };

Number parseCoordinate(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+') {
    token.remove_prefix(1);  // from_chars rejects a leading '+', OBJ writers may emit it
  }
  double value = 0.0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (end != token.data() + token.size()) return Number::NotANumber;
  if (ec == std::errc::result_out_of_range) {
    // Overflow is non-finite; underflow just rounds to zero.
    const double v = std::strtod(std::string(token).c_str(), nullptr);
    return std::isfinite(v) ? Number::Ok : Number::NonFinite;
  }
  if (ec != std::errc()) return Number::NotANumber;
  // tinyobjloader stores real_t (float in the default build): larger values would become inf.
  if (!std::isfinite(value) ||
      std::abs(value) > static_cast<double>(std::numeric_limits<tinyobj::real_t>::max())) {
    return Number::NonFinite;
  }
  return Number::Ok;
}

/// Checks that every `v` record has three finite numbers; errors name the line and the
/// (0-based) vertex index.
void validateVertexRecords(const std::filesystem::path& path, std::string_view text) {
  int lineNumber = 0;
  int vertexIndex = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    // Lines end in \n, \r\n or \r, as tinyobjloader reads them.
    size_t end = text.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = (end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n') ? end + 2 : end + 1;
    ++lineNumber;

    size_t i = 0;
    while (i < line.size() && isBlank(line[i])) ++i;
    if (i + 1 >= line.size() || line[i] != 'v' || !isBlank(line[i + 1])) continue;
    i += 2;
    const std::string where =
        "line " + std::to_string(lineNumber) + ": vertex " + std::to_string(vertexIndex);
    for (int axis = 0; axis < 3; ++axis) {
      while (i < line.size() && isBlank(line[i])) ++i;
      const size_t start = i;
      while (i < line.size() && !isBlank(line[i])) ++i;
      const std::string_view token = line.substr(start, i - start);
      if (token.empty()) {
        throwMeshError(path, where + " has " + std::to_string(axis) + " coordinates, expected 3");
      }
      switch (parseCoordinate(token)) {
        case Number::Ok:
          break;
        case Number::NotANumber:
          throwMeshError(path, where + ": cannot parse coordinate '" + std::string(token) + "'");
        case Number::NonFinite:
          throwMeshError(path, where + " has a non-finite coordinate '" + std::string(token) + "'");
      }
    }
    ++vertexIndex;
  }
}

void logWarnings(const std::filesystem::path& path, const std::string& warnings) {
  std::istringstream lines(warnings);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) spdlog::debug("{}: tinyobjloader: {}", path.string(), line);
  }
}

}  // namespace

ObjMesh loadObjMesh(const std::filesystem::path& path, ObjFaces faces) {
  try {
    return parseObjMesh(readFile(path), path, faces);
  } catch (const std::bad_alloc&) {
    throwMeshError(path, "too large to load into memory");
  }
}

ObjMesh parseObjMesh(const std::string& text, const std::filesystem::path& path, ObjFaces faces) {
  validateVertexRecords(path, text);

  // Parsing from memory ignores `mtllib`: materials are not needed for geometry, and a missing
  // .mtl or texture must not stop a mesh from loading.
  tinyobj::ObjReaderConfig config;
  // Polygons stay whole so that every index can be checked (tinyobjloader's triangulation drops
  // polygons with bad indices, with only a warning); they are fan-triangulated below.
  config.triangulate = false;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  const bool parsed = reader.ParseFromString(text, std::string(), config);
  logWarnings(path, reader.Warning());
  if (!parsed) {
    std::string error = reader.Error();
    while (!error.empty() && (error.back() == '\n' || error.back() == '\r')) error.pop_back();
    throwMeshError(path, "parse error: " + (error.empty() ? std::string("unknown") : error));
  }

  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  ObjMesh mesh;
  const size_t numVertices = attrib.vertices.size() / 3;
  if (numVertices == 0) throwMeshError(path, "no vertices");
  mesh.vertices.reserve(numVertices);
  for (size_t v = 0; v < numVertices; ++v) {
    const Eigen::Vector3d x(attrib.vertices[3 * v], attrib.vertices[3 * v + 1],
                            attrib.vertices[3 * v + 2]);
    if (!x.allFinite())
      throwMeshError(path, "vertex " + std::to_string(v) + " has a non-finite coordinate");
    if (!(x.cwiseAbs().maxCoeff() <= defaults::kMaxLength)) {
      throwMeshError(path, "vertex " + std::to_string(v) + " has a coordinate beyond " +
                               std::to_string(static_cast<long>(defaults::kMaxLength)) +
                               " (metres; heavyball's range, docs/query.md)");
    }
    mesh.vertices.push_back(x);
  }

  int faceIndex = 0;
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    const tinyobj::mesh_t& m = shape.mesh;
    std::vector<int>& used = mesh.objects.emplace_back();
    for (const tinyobj::index_t& index : m.indices) {
      if (index.vertex_index >= 0 && static_cast<size_t>(index.vertex_index) < numVertices)
        used.push_back(index.vertex_index);
    }
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    size_t offset = 0;
    for (const unsigned int faceSize : m.num_face_vertices) {
      if (offset + faceSize > m.indices.size()) throwMeshError(path, "inconsistent face data");
      for (size_t k = 0; k < faceSize; ++k) {
        const int v = m.indices[offset + k].vertex_index;
        if (v < 0 || static_cast<size_t>(v) >= numVertices) {
          // OBJ indices are 1-based (negative ones relative); report the file's convention.
          throwMeshError(path, "face " + std::to_string(faceIndex) + " references vertex " +
                                   std::to_string(static_cast<long long>(v) + 1) +
                                   " (1-based), out of range 1.." + std::to_string(numVertices));
        }
      }
      for (size_t k = 1; k + 1 < faceSize; ++k) {
        mesh.triangles.push_back({m.indices[offset].vertex_index,
                                  m.indices[offset + k].vertex_index,
                                  m.indices[offset + k + 1].vertex_index});
      }
      offset += faceSize;
      ++faceIndex;
    }
  }
  if (mesh.triangles.empty() && faces == ObjFaces::Required) throwMeshError(path, "no faces");

  spdlog::debug("{}: {} vertices, {} triangles", path.string(), mesh.vertices.size(),
                mesh.triangles.size());
  return mesh;
}

}  // namespace hb
