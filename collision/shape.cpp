#include "collision/shape.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "collision/defaults.hpp"
#include "collision/inset_hull_cache.hpp"
#include "collision/superquadric.hpp"

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
    case ShapeType::Superquadric:
      return "superquadric";
    case ShapeType::SupportPoints:
      return "support_points";
  }
  return "unknown";
}

Shape Shape::sphere(double radius) {
  requirePositive(radius, "sphere radius");
  Shape s;
  s.type_ = ShapeType::Sphere;
  s.radius_ = radius;
  s.convexRadius_ = radius;
  return s;
}

Shape Shape::box(const Eigen::Vector3d& halfExtents) {
  requirePositive(halfExtents, "box half extents");
  Shape s;
  s.type_ = ShapeType::Box;
  s.dims_ = halfExtents;
  s.coreDims_ = halfExtents;
  return s;
}

Shape Shape::capsule(double radius, double halfLength) {
  requirePositive(radius, "capsule radius");
  requirePositive(halfLength, "capsule half length");
  Shape s;
  s.type_ = ShapeType::Capsule;
  s.radius_ = radius;
  s.convexRadius_ = radius;
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

namespace {

/// The polyhedron of a smooth body's support points (with its convex radius) over directions
/// spread evenly on the sphere (a Fibonacci lattice).
std::shared_ptr<const ConvexHull> tessellate(const SmoothConvex& body, double radius) {
  std::vector<Eigen::Vector3d> points;
  for (const Eigen::Vector3d& x : evenDirections(defaults::kSmoothTessellationDirections)) {
    points.push_back(body.supportPoint(x) + radius * x);
  }
  return std::make_shared<const ConvexHull>(ConvexHull::build(points));
}

}  // namespace

Shape Shape::superquadric(const Eigen::Vector3d& radii, double alpha1, double alpha2) {
  Shape s;
  s.type_ = ShapeType::Superquadric;
  const auto body = std::make_shared<const Superquadric>(radii, alpha1, alpha2);
  s.smooth_ = body;
  s.dims_ = radii;
  s.convexRadius_ = defaults::kSuperquadricRadius;
  s.hull_ = std::make_shared<const ConvexHull>(
      ConvexHull::build(body->surfacePoints(40, 80, s.convexRadius_)));
  return s;
}

Shape Shape::supportPoints(std::shared_ptr<const SmoothConvex> body) {
  if (!body) throw std::invalid_argument("support_points shape needs a body");
  Shape s;
  s.type_ = ShapeType::SupportPoints;
  s.smooth_ = std::move(body);
  s.dims_ = s.smooth_->boundingHalfExtents();
  s.hull_ = tessellate(*s.smooth_, 0.0);
  return s;
}

Shape Shape::convexHull(std::shared_ptr<const ConvexHull> hull) {
  if (!hull || hull->numVertices() < 4) {
    throw std::invalid_argument("convex hull shape needs a hull with at least 4 vertices");
  }
  Shape s;
  s.type_ = ShapeType::ConvexHull;
  s.hull_ = std::move(hull);
  s.core_ = s.hull_;
  return s;
}

Shape Shape::roundedConvexHull(std::shared_ptr<const ConvexHull> hull,
                               std::shared_ptr<const ConvexHull> core, double convexRadius) {
  Shape s = convexHull(std::move(hull));
  if (!core || core->numVertices() < 4) {
    throw std::invalid_argument("rounded convex hull needs a core with at least 4 vertices");
  }
  // The radius was clamped against a hull that may differ from this one in the last bits.
  const double largest = s.maxConvexRadius() * (1.0 + 1e-9);
  if (!(std::isfinite(convexRadius) && convexRadius >= 0.0 && convexRadius <= largest)) {
    std::ostringstream what;
    what << "convex radius of a rounded hull must be in [0, " << s.maxConvexRadius() << "] m, got "
         << convexRadius;
    throw std::invalid_argument(what.str());
  }
  // The core's support along each face normal, an exact climb, must stay r inside the face.
  const ConvexHull& outer = *s.hull_;
  int hint = -1;
  for (int f = 0; f < outer.numFaces(); ++f) {
    const Eigen::Vector3d& n = outer.faceNormal(f);
    const double reach = n.dot(core->vertices()[core->supportVertex(n, hint)]);
    const double excess = reach - (outer.faceOffset(f) - convexRadius);
    if (!(excess <= defaults::kCoreTolerance)) {
      std::ostringstream what;
      what << "the core of a hull rounded by " << convexRadius << " m reaches " << excess
           << " m past face " << f << " moved in by the radius";
      throw std::invalid_argument(what.str());
    }
  }
  s.core_ = std::move(core);
  s.convexRadius_ = convexRadius;
  return s;
}

Shape Shape::withConvexRadius(double r) const {
  if (type_ != ShapeType::Box && type_ != ShapeType::ConvexHull) {
    throw std::invalid_argument("only boxes and convex hulls take a convex radius, not a " +
                                std::string(toString(type_)));
  }
  if (!(std::isfinite(r) && r >= 0.0)) {
    throw std::invalid_argument("convex radius must be finite and >= 0, got " + std::to_string(r));
  }
  Shape s = *this;
  s.convexRadius_ = std::min(r, maxConvexRadius());
  if (type_ == ShapeType::Box) {
    s.coreDims_ = dims_.array() - s.convexRadius_;
  } else {
    s.core_ = s.convexRadius_ > 0.0 ? sharedInsetHull(hull_, s.convexRadius_) : hull_;
  }
  return s;
}

double Shape::maxConvexRadius() const {
  switch (type_) {
    case ShapeType::Box:
      return defaults::kMaxConvexRadiusFraction * dims_.minCoeff();
    case ShapeType::ConvexHull:
      return defaults::kMaxConvexRadiusFraction * hull_->innerRadius();
    default:
      return 0.0;
  }
}

}  // namespace hb
