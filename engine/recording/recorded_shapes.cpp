// The hulls and the proxies' shapes of a recording (RecordingReader::Impl): checked against the
// ranges the file gives them, built as the world built them.

#include <spdlog/spdlog.h>

#include <cstdint>
#include <stdexcept>

#include "collision/support_points.hpp"
#include "engine/recording/recording_layout.hpp"
#include "engine/recording/recording_reader_impl.hpp"

namespace hb {
namespace {

using namespace recording;
using Eigen::Vector3d;

/// A hull's faces as stored: face f's vertices are indices[offsets[f] - offsets[0] ...
/// offsets[f + 1] - offsets[0]), counter-clockwise, its normal Newell's.
std::vector<PolytopeFace> storedFaces(const std::vector<Vector3d>& vertices,
                                      const std::vector<std::int64_t>& offsets,
                                      const std::vector<std::int32_t>& indices) {
  std::vector<PolytopeFace> faces;
  for (std::size_t f = 0; f + 1 < offsets.size(); ++f) {
    PolytopeFace face;
    face.vertices.assign(indices.begin() + (offsets[f] - offsets.front()),
                         indices.begin() + (offsets[f + 1] - offsets.front()));
    face.normal.setZero();
    for (std::size_t i = 0; i < face.vertices.size(); ++i) {
      const Vector3d& a = vertices[face.vertices[i]];
      const Vector3d& b = vertices[face.vertices[(i + 1) % face.vertices.size()]];
      face.normal += a.cross(b);
    }
    face.normal.normalize();
    faces.push_back(std::move(face));
  }
  return faces;
}

}  // namespace

std::vector<std::shared_ptr<const ConvexHull>> RecordingReader::Impl::readHulls(
    const std::vector<char>& cores, std::map<std::size_t, std::vector<Vector3d>>& pointSets) const {
  const auto hullRows =
      readRows<HullRow>(dataset::kHulls, hullLayout(), 0, rows(dataset::kHulls, kScalar));
  const hsize_t vertexRows = rows(dataset::kHullVertices, kVector);
  const hsize_t offsetRows = rows(dataset::kHullFaceOffsets, kScalar);
  const hsize_t indexRows = rows(dataset::kHullFaceIndices, kScalar);
  std::vector<std::shared_ptr<const ConvexHull>> hullList;
  for (std::size_t h = 0; h < hullRows.size(); ++h) {
    const HullRow& row = hullRows[h];
    const std::string which = "hull " + std::to_string(h);
    if (row.vertexBegin < 0 || row.vertexCount < 2 ||
        static_cast<hsize_t>(row.vertexBegin) + row.vertexCount > vertexRows) {
      fail(which + ": vertex range is outside /" + dataset::kHullVertices);
    }
    if (row.faceCount == 0 && info.formatVersion >= 4) {  // a point set
      const auto coordinates =
          read<double>(dataset::kHullVertices, kVector, row.vertexBegin, row.vertexCount);
      std::vector<Vector3d>& points = pointSets[h];
      for (int v = 0; v < row.vertexCount; ++v) {
        points.emplace_back(coordinates[3 * v], coordinates[3 * v + 1], coordinates[3 * v + 2]);
      }
      hullList.push_back(nullptr);
      continue;
    }
    if (row.vertexCount < 4) fail(which + ": vertex range is outside /" + dataset::kHullVertices);
    if (row.faceBegin < 0 || row.faceCount < 4 ||
        static_cast<hsize_t>(row.faceBegin) + row.faceCount + 1 > offsetRows) {
      fail(which + ": face range is outside /" + dataset::kHullFaceOffsets);
    }
    const auto offsets =
        read<std::int64_t>(dataset::kHullFaceOffsets, kScalar, row.faceBegin, row.faceCount + 1);
    for (std::size_t f = 0; f + 1 < offsets.size(); ++f) {
      if (offsets[f] < 0 || offsets[f + 1] < offsets[f] + 3 ||
          static_cast<hsize_t>(offsets[f + 1]) > indexRows) {
        fail(which + ": face " + std::to_string(f) + " has invalid offsets");
      }
    }
    const auto indices = read<std::int32_t>(dataset::kHullFaceIndices, kScalar, offsets.front(),
                                            offsets.back() - offsets.front());
    for (std::int32_t v : indices) {
      if (v < 0 || v >= row.vertexCount) fail(which + ": a face index is out of range");
    }
    const auto coordinates =
        read<double>(dataset::kHullVertices, kVector, row.vertexBegin, row.vertexCount);
    std::vector<Vector3d> vertices(row.vertexCount);
    for (int v = 0; v < row.vertexCount; ++v) {
      vertices[v] = {coordinates[3 * v], coordinates[3 * v + 1], coordinates[3 * v + 2]};
    }
    try {
      if (h < cores.size() && cores[h]) {
        // A core was assembled from its faces (insetHull), not by Qhull: the same vertices and
        // faces give the same edges, hence the same supports as in the world.
        hullList.push_back(std::make_shared<const ConvexHull>(
            ConvexHull::fromFaces(vertices, storedFaces(vertices, offsets, indices))));
        continue;
      }
      auto hull = std::make_shared<const ConvexHull>(ConvexHull::build(vertices));
      // Support hints are vertex indices: they only mean the same on the same vertex order.
      if (hull->vertices() != vertices) {
        spdlog::warn(
            "recording {}: hull {} rebuilt with a different vertex order; recorded "
            "support hints do not apply to it",
            path.string(), h);
      }
      hullList.push_back(std::move(hull));
    } catch (const HullError& e) {
      fail(which + ": " + e.what());
    }
  }
  return hullList;
}

Shape RecordingReader::Impl::proxyShape(
    const ProxyRow& row, const std::string& which,
    const std::vector<std::shared_ptr<const ConvexHull>>& hulls,
    const std::map<std::size_t, std::vector<Vector3d>>& pointSets) const {
  try {
    switch (enumValue<ShapeType>(row.shapeType, kShapeTypeCount, "shape type")) {
      case ShapeType::Sphere:
        return Shape::sphere(row.radius);
      case ShapeType::Box:
        return Shape::box(vec3(row.halfExtents)).withConvexRadius(row.convexRadius);
      case ShapeType::Capsule:
        return Shape::capsule(row.radius, row.halfLength);
      case ShapeType::Cylinder:
        return Shape::cylinder(row.radius, row.halfLength);
      case ShapeType::Cone:
        return Shape::cone(row.radius, row.halfLength);
      case ShapeType::Ellipsoid:
        return Shape::ellipsoid(vec3(row.halfExtents));
      case ShapeType::Superquadric:
        return Shape::superquadric(vec3(row.halfExtents), row.radius, row.halfLength);
      case ShapeType::SupportPoints: {
        const auto points = pointSets.find(static_cast<std::size_t>(row.hull));
        if (row.hull < 0 || points == pointSets.end()) {
          fail(which + ": point set index " + std::to_string(row.hull) + " is out of range");
        }
        try {
          if (row.halfLength > 0.0) {
            std::vector<Eigen::Vector2d> profile;
            for (const Vector3d& q : points->second) profile.emplace_back(q.x(), q.y());
            return Shape::supportPoints(std::make_shared<const SupportPoints>(
                SupportPoints::revolution(profile, row.radius, row.halfLength)));
          }
          return Shape::supportPoints(
              std::make_shared<const SupportPoints>(points->second, row.radius));
        } catch (const std::exception& e) {
          fail(which + ": " + e.what());
        }
      }
      case ShapeType::ConvexHull:
        if (row.hull < 0 || row.hull >= static_cast<int>(hulls.size())) {
          fail(which + ": hull index " + std::to_string(row.hull) + " is out of range");
        }
        if (row.convexRadius == 0.0 && row.coreHull == -1) {
          return Shape::convexHull(hulls[row.hull]);
        }
        // The core as the world had it, not one computed again: the same GJK iterations.
        if (row.coreHull < 0 || row.coreHull >= static_cast<int>(hulls.size())) {
          fail(which + ": core hull index " + std::to_string(row.coreHull) + " is out of range");
        }
        return Shape::roundedConvexHull(hulls[row.hull], hulls[row.coreHull], row.convexRadius);
    }
  } catch (const std::invalid_argument& e) {
    fail(which + ": " + e.what());
  }
  fail(which + ": shape type " + std::to_string(row.shapeType) + " is out of range");
}

void RecordingReader::Impl::readProxies() {
  const bool hasConvexRadius = info.formatVersion >= 2;
  std::vector<ProxyRow> rowsRead =
      readRows<ProxyRow>(dataset::kProxies, hasConvexRadius ? proxyLayout() : proxyLayoutVersion1(),
                         0, rows(dataset::kProxies, kScalar));
  // Out-of-range core indices are reported with their proxy below.
  std::vector<char> cores(rows(dataset::kHulls, kScalar), 0);
  for (const ProxyRow& row : rowsRead) {
    if (hasConvexRadius && row.coreHull >= 0 &&
        static_cast<std::size_t>(row.coreHull) < cores.size()) {
      cores[row.coreHull] = 1;
    }
  }
  std::map<std::size_t, std::vector<Vector3d>> pointSets;
  const std::vector<std::shared_ptr<const ConvexHull>> hullList = readHulls(cores, pointSets);
  proxies.resize(rowsRead.size());
  for (std::size_t i = 0; i < rowsRead.size(); ++i) {
    ProxyRow& row = rowsRead[i];
    if (!hasConvexRadius) {
      row.convexRadius = 0.0;
      row.coreHull = -1;
    }
    RecordedProxy& p = proxies[i];
    const std::string which = "proxy " + std::to_string(i);
    p.body = row.body;
    if (p.body < 0 || p.body >= static_cast<int>(bodies.size())) {
      fail(which + " refers to body " + std::to_string(p.body) + ", the recording has " +
           std::to_string(bodies.size()));
    }
    p.hull = row.hull;
    p.shape = proxyShape(row, which, hullList, pointSets);
    p.inBody = {quat(row.orientationInBody), vec3(row.positionInBody)};
    p.localObb.center = vec3(row.obbCenter);
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) p.localObb.axes(r, c) = row.obbAxes[r][c];
    }
    p.localObb.halfExtents = vec3(row.obbHalfExtents);
  }
}

}  // namespace hb
