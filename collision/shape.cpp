#include "collision/shape.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace hb {
namespace {

void requirePositive(double value, const char* what) {
  if (!(std::isfinite(value) && value > 0.0)) {
    throw std::invalid_argument(std::string(what) + " must be finite and > 0, got " +
                                std::to_string(value));
  }
}

void requirePositive(const Eigen::Vector3d& v, const char* what) {
  for (int i = 0; i < 3; ++i) requirePositive(v[i], what);
}

}  // namespace

std::string_view toString(ShapeType type) {
  switch (type) {
    case ShapeType::Sphere:
      return "sphere";
    case ShapeType::Box:
      return "box";
    case ShapeType::Capsule:
      return "capsule";
    case ShapeType::Cylinder:
      return "cylinder";
    case ShapeType::Cone:
      return "cone";
    case ShapeType::Ellipsoid:
      return "ellipsoid";
    case ShapeType::ConvexHull:
      return "mesh";
  }
  return "unknown";
}

Shape Shape::sphere(double radius) {
  requirePositive(radius, "sphere radius");
  Shape s;
  s.type_ = ShapeType::Sphere;
  s.radius_ = radius;
  return s;
}

Shape Shape::box(const Eigen::Vector3d& halfExtents) {
  requirePositive(halfExtents, "box half extents");
  Shape s;
  s.type_ = ShapeType::Box;
  s.dims_ = halfExtents;
  return s;
}

Shape Shape::capsule(double radius, double halfLength) {
  requirePositive(radius, "capsule radius");
  requirePositive(halfLength, "capsule half length");
  Shape s;
  s.type_ = ShapeType::Capsule;
  s.radius_ = radius;
  s.dims_ = {radius, radius, halfLength};
  return s;
}

Shape Shape::cylinder(double radius, double halfLength) {
  requirePositive(radius, "cylinder radius");
  requirePositive(halfLength, "cylinder half length");
  Shape s;
  s.type_ = ShapeType::Cylinder;
  s.radius_ = radius;
  s.dims_ = {radius, radius, halfLength};
  return s;
}

Shape Shape::cone(double radius, double halfLength) {
  requirePositive(radius, "cone radius");
  requirePositive(halfLength, "cone half length");
  Shape s;
  s.type_ = ShapeType::Cone;
  s.radius_ = radius;
  s.dims_ = {radius, radius, halfLength};
  return s;
}

Shape Shape::ellipsoid(const Eigen::Vector3d& radii) {
  requirePositive(radii, "ellipsoid radii");
  Shape s;
  s.type_ = ShapeType::Ellipsoid;
  s.dims_ = radii;
  return s;
}

Shape Shape::convexHull(std::shared_ptr<const ConvexHull> hull) {
  if (!hull || hull->numVertices() < 4) {
    throw std::invalid_argument("convex hull shape needs a hull with at least 4 vertices");
  }
  Shape s;
  s.type_ = ShapeType::ConvexHull;
  s.hull_ = std::move(hull);
  return s;
}

}  // namespace hb
