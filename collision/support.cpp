#include "collision/support.hpp"

#include <cmath>

#include "collision/portable_math.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

// Ties (a zero component of dir) pick the positive side: any maximiser is a valid support.
inline double signOf(double x) {
  return x < 0.0 ? -1.0 : 1.0;
}

Vector3d sphereCore(const Shape&, const Vector3d&, int&) {
  return Vector3d::Zero();
}

Vector3d boxCore(const Shape& s, const Vector3d& d, int&) {
  const Vector3d& h = s.coreHalfExtents();
  return {signOf(d.x()) * h.x(), signOf(d.y()) * h.y(), signOf(d.z()) * h.z()};
}

Vector3d capsuleCore(const Shape& s, const Vector3d& d, int&) {
  return {0.0, 0.0, signOf(d.z()) * s.halfLength()};
}

Vector3d cylinderSupport(const Shape& s, const Vector3d& d, int&) {
  const double radial = portable::hypot(d.x(), d.y());
  const double z = signOf(d.z()) * s.halfLength();
  // Along the axis every point of the cap is a support; its centre is as good as any.
  if (radial <= 0.0) return {0.0, 0.0, z};
  const double k = s.radius() / radial;
  return {k * d.x(), k * d.y(), z};
}

Vector3d coneSupport(const Shape& s, const Vector3d& d, int&) {
  const double h = s.halfLength();
  const double radial = portable::hypot(d.x(), d.y());
  // The support is the apex or a point of the base rim, whichever reaches further along d.
  const double apexValue = d.z() * h;
  const double rimValue = s.radius() * radial - d.z() * h;
  if (apexValue >= rimValue) return {0.0, 0.0, h};
  if (radial <= 0.0) return {0.0, 0.0, -h};
  const double k = s.radius() / radial;
  return {k * d.x(), k * d.y(), -h};
}

Vector3d ellipsoidSupport(const Shape& s, const Vector3d& d, int&) {
  // argmax over x^T diag(r)^-2 x <= 1 of d.x is diag(r)^2 d / |diag(r) d|.
  const Vector3d& r = s.radii();
  const Vector3d rd = r.cwiseProduct(d);
  const double n = rd.norm();
  if (n <= 0.0) return {r.x(), 0.0, 0.0};
  return r.cwiseProduct(rd) / n;
}

Vector3d smoothCore(const Shape& s, const Vector3d& d, int&) {
  if (!(d.squaredNorm() > 0.0)) return s.smooth().supportPoint(Vector3d::UnitX());
  return s.smooth().supportPoint(d);
}

Vector3d hullCore(const Shape& s, const Vector3d& d, int& hint) {
  const ConvexHull& hull = s.coreHull();
  return hull.vertices()[hull.supportVertex(d, hint)];
}

}  // namespace

SupportFunction coreSupportFunction(ShapeType type) {
  switch (type) {
    case ShapeType::Sphere:
      return &sphereCore;
    case ShapeType::Box:
      return &boxCore;
    case ShapeType::Capsule:
      return &capsuleCore;
    case ShapeType::Cylinder:
      return &cylinderSupport;
    case ShapeType::Cone:
      return &coneSupport;
    case ShapeType::Ellipsoid:
      return &ellipsoidSupport;
    case ShapeType::ConvexHull:
      return &hullCore;
    case ShapeType::Superquadric:
    case ShapeType::SupportPoints:
      return &smoothCore;
  }
  return &sphereCore;
}

Vector3d supportCore(const Shape& shape, const Vector3d& dir, int& hint) {
  return coreSupportFunction(shape.type())(shape, dir, hint);
}

Vector3d support(const Shape& shape, const Vector3d& dir, int& hint) {
  Vector3d p = supportCore(shape, dir, hint);
  const double r = shape.convexRadius();
  const double n = dir.norm();
  if (r > 0.0 && n > 0.0) p += (r / n) * dir;
  return p;
}

}  // namespace hb
