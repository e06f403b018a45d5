#include "render/shape_mesh.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include <numbers>

namespace hb {
namespace {

class MeshBuilder {
 public:
  std::uint32_t vertex(const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
    RenderVertex v;
    v.position = {float(p.x()), float(p.y()), float(p.z())};
    const Eigen::Vector3d u = n.normalized();
    v.normal = {float(u.x()), float(u.y()), float(u.z())};
    mesh_.vertices.push_back(v);
    return static_cast<std::uint32_t>(mesh_.vertices.size() - 1);
  }
  void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    mesh_.indices.insert(mesh_.indices.end(), {a, b, c});
  }
  /// A grid of (rows + 1) x (columns + 1) vertices from surface(u, v) and normal(u, v) with u, v
  /// in [0, 1], u around (periodic: the seam is duplicated), v from bottom to top.
  void surface(int columns, int rows, const std::function<Eigen::Vector3d(double, double)>& point,
               const std::function<Eigen::Vector3d(double, double)>& normal) {
    const std::uint32_t first = static_cast<std::uint32_t>(mesh_.vertices.size());
    for (int j = 0; j <= rows; ++j) {
      for (int i = 0; i <= columns; ++i) {
        const double u = double(i) / columns, v = double(j) / rows;
        vertex(point(u, v), normal(u, v));
      }
    }
    const auto at = [&](int i, int j) { return first + std::uint32_t(j * (columns + 1) + i); };
    for (int j = 0; j < rows; ++j) {
      for (int i = 0; i < columns; ++i) {
        triangle(at(i, j), at(i + 1, j), at(i + 1, j + 1));
        triangle(at(i, j), at(i + 1, j + 1), at(i, j + 1));
      }
    }
  }
  /// A flat disk at height z facing +z (up) or -z.
  void disk(double radius, double z, bool up, int segments) {
    const Eigen::Vector3d n(0.0, 0.0, up ? 1.0 : -1.0);
    const std::uint32_t center = vertex({0.0, 0.0, z}, n);
    const std::uint32_t first = static_cast<std::uint32_t>(mesh_.vertices.size());
    for (int i = 0; i < segments; ++i) vertex(ring(i, segments, radius, z), n);
    for (int i = 0; i < segments; ++i) {
      const std::uint32_t a = first + i, b = first + (i + 1) % segments;
      if (up)
        triangle(center, a, b);
      else
        triangle(center, b, a);
    }
  }
  static Eigen::Vector3d ring(int i, int segments, double radius, double z) {
    const double angle = 2.0 * std::numbers::pi * i / segments;
    return {radius * std::cos(angle), radius * std::sin(angle), z};
  }
  RenderMesh take() { return std::move(mesh_); }

 private:
  RenderMesh mesh_;
};

Eigen::Vector3d around(double u, double radius = 1.0) {
  const double angle = 2.0 * std::numbers::pi * u;
  return {radius * std::cos(angle), radius * std::sin(angle), 0.0};
}

/// A point of the side of a (truncated) cone around z: radius from bottom to top, z in [-h, h].
Eigen::Vector3d side(double u, double v, double bottomRadius, double topRadius, double h) {
  return around(u, bottomRadius + v * (topRadius - bottomRadius)) +
         Eigen::Vector3d(0.0, 0.0, (2.0 * v - 1.0) * h);
}

/// Unit sphere direction at longitude u, latitude v (both in [0, 1]).
Eigen::Vector3d sphereDirection(double u, double v) {
  const double lat = std::numbers::pi * (v - 0.5);
  return std::cos(lat) * around(u) + Eigen::Vector3d(0.0, 0.0, std::sin(lat));
}

void box(MeshBuilder& b, const Eigen::Vector3d& h) {
  for (int axis = 0; axis < 3; ++axis) {
    for (double sign : {-1.0, 1.0}) {
      const Eigen::Vector3d n = sign * Eigen::Vector3d::Unit(axis);
      // Two in-plane axes ordered so that (u x v) points along n.
      const Eigen::Vector3d u = Eigen::Vector3d::Unit((axis + 1) % 3);
      const Eigen::Vector3d v = n.cross(u);
      const Eigen::Vector3d c = n.cwiseProduct(h);
      const Eigen::Vector3d du = u.cwiseProduct(h), dv = v.cwiseProduct(h);
      const std::uint32_t a = b.vertex(c - du - dv, n), bb = b.vertex(c + du - dv, n),
                          cc = b.vertex(c + du + dv, n), d = b.vertex(c - du + dv, n);
      b.triangle(a, bb, cc);
      b.triangle(a, cc, d);
    }
  }
}

void hull(MeshBuilder& b, const ConvexHull& hull) {
  for (int f = 0; f < hull.numFaces(); ++f) {
    const auto face = hull.face(f);
    const Eigen::Vector3d& n = hull.faceNormal(f);
    const std::uint32_t first = b.vertex(hull.vertices()[face[0]], n);
    std::uint32_t previous = b.vertex(hull.vertices()[face[1]], n);
    for (size_t i = 2; i < face.size(); ++i) {
      const std::uint32_t next = b.vertex(hull.vertices()[face[i]], n);
      b.triangle(first, previous, next);
      previous = next;
    }
  }
}

}  // namespace

RenderMesh shapeMesh(const Shape& shape, int segments) {
  MeshBuilder b;
  const int rings = std::max(segments / 2, 4);
  switch (shape.type()) {
    case ShapeType::Sphere: {
      const double r = shape.radius();
      b.surface(
          segments, rings,
          [&](double u, double v) { return Eigen::Vector3d(r * sphereDirection(u, v)); },
          sphereDirection);
      break;
    }
    case ShapeType::Ellipsoid: {
      // Normals of a scaled sphere scale by the inverse radii.
      const Eigen::Vector3d r = shape.radii();
      b.surface(
          segments, rings,
          [&](double u, double v) {
            return Eigen::Vector3d(sphereDirection(u, v).cwiseProduct(r));
          },
          [&](double u, double v) {
            return Eigen::Vector3d(sphereDirection(u, v).cwiseQuotient(r));
          });
      break;
    }
    case ShapeType::Box:
      box(b, shape.halfExtents());
      break;
    case ShapeType::Cylinder: {
      const double r = shape.radius(), h = shape.halfLength();
      b.surface(
          segments, 1, [&](double u, double v) { return side(u, v, r, r, h); },
          [&](double u, double) { return around(u); });
      b.disk(r, h, true, segments);
      b.disk(r, -h, false, segments);
      break;
    }
    case ShapeType::Capsule: {
      // Two hemispheres (latitudes below and above the equator) joined by the side.
      const double r = shape.radius(), h = shape.halfLength();
      for (double sign : {-1.0, 1.0}) {
        const auto direction = [sign](double u, double v) {
          return sphereDirection(u, 0.5 + 0.5 * (sign > 0 ? v : v - 1.0));
        };
        b.surface(
            segments, rings / 2 + 1,
            [&](double u, double v) {
              return Eigen::Vector3d(r * direction(u, v) + Eigen::Vector3d(0, 0, sign * h));
            },
            direction);
      }
      b.surface(
          segments, 1, [&](double u, double v) { return side(u, v, r, r, h); },
          [&](double u, double) { return around(u); });
      break;
    }
    case ShapeType::Cone: {
      const double r = shape.radius(), h = shape.halfLength();
      // The side normal leans up by the half-angle: (2h cos, 2h sin, r) normalised.
      b.surface(
          segments, 1, [&](double u, double v) { return side(u, v, r, 0.0, h); },
          [&](double u, double) {
            return Eigen::Vector3d(around(u, 2.0 * h) + Eigen::Vector3d(0, 0, r));
          });
      b.disk(r, -h, false, segments);
      break;
    }
    case ShapeType::ConvexHull:
    case ShapeType::Superquadric:  // its tessellation (Shape::hull())
    case ShapeType::SupportPoints:
      hull(b, shape.hull());
      break;
  }
  return b.take();
}

}  // namespace hb
