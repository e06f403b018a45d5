// Oriented bounding boxes: corners, containment, posing, local boxes of shapes and the
// separating-axis overlap test. Fitting boxes to hulls is in obb_fit.cpp.

#include "collision/obb.hpp"

#include <Eigen/Geometry>
#include <array>
#include <cmath>

namespace hb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// Added to |R| in the separating-axis test: when an edge of one box is (nearly) parallel to an
// edge of the other, their cross product is (nearly) zero and round-off alone could make that
// degenerate axis report a separation (Ericson, Sec. 4.4.1).
constexpr double kParallelEpsilon = 1e-9;

}  // namespace

bool Obb::contains(const Eigen::Vector3d& x, double tolerance) const {
  const Vector3d local = axes.transpose() * (x - center);
  return (local.cwiseAbs() - halfExtents).maxCoeff() <= tolerance;
}

Obb Obb::transformed(const Pose& pose) const {
  Obb box = *this;
  box.center = pose.apply(center);
  box.axes = pose.rotation() * axes;
  return box;
}

std::array<Eigen::Vector3d, 8> Obb::corners() const {
  // Corner k takes the + side of axis i when bit i of k is set.
  std::array<Vector3d, 8> result;
  for (int k = 0; k < 8; ++k) {
    Vector3d local;
    for (int i = 0; i < 3; ++i) local[i] = (k >> i & 1) ? halfExtents[i] : -halfExtents[i];
    result[k] = center + axes * local;
  }
  return result;
}

Obb localObb(const Shape& shape) {
  Obb box;  // centred on the local origin, axis-aligned
  const double r = shape.radius();
  switch (shape.type()) {
    case ShapeType::Sphere:
      box.halfExtents = Vector3d::Constant(r);
      break;
    case ShapeType::Box:
      box.halfExtents = shape.halfExtents();
      break;
    case ShapeType::Capsule:
      box.halfExtents = Vector3d(r, r, shape.halfLength() + r);
      break;
    case ShapeType::Cylinder:
    case ShapeType::Cone:
      box.halfExtents = Vector3d(r, r, shape.halfLength());
      break;
    case ShapeType::Ellipsoid:
      box.halfExtents = shape.radii();
      break;
    case ShapeType::ConvexHull:
      box = fitObb(shape.hull());
      break;
    case ShapeType::Superquadric:
    case ShapeType::SupportPoints:
      // The supports along the frame's axes bound the body (a support point may be off-centre).
      box.halfExtents =
          shape.smooth().boundingHalfExtents() + Vector3d::Constant(shape.convexRadius());
      break;
  }
  return box;
}

// Separating-axis test of two boxes (Ericson, "Real-Time Collision Detection", Sec. 4.4.1):
// they are disjoint iff their projections are disjoint on one of the 15 axes a_i, b_j and
// a_i x b_j. Everything is expressed in a's frame, where a's axes are the unit vectors and b's
// are the columns of R. Separation must be strict, so touching boxes overlap.
bool obbOverlap(const Obb& a, const Obb& b) {
  const Matrix3d r = a.axes.transpose() * b.axes;
  const Matrix3d absR = r.cwiseAbs().array() + kParallelEpsilon;
  const Vector3d t = a.axes.transpose() * (b.center - a.center);
  const Vector3d& ea = a.halfExtents;
  const Vector3d& eb = b.halfExtents;

  for (int i = 0; i < 3; ++i) {  // L = a_i
    if (std::abs(t[i]) > ea[i] + absR.row(i).dot(eb)) return false;
  }
  for (int j = 0; j < 3; ++j) {  // L = b_j
    if (std::abs(r.col(j).dot(t)) > absR.col(j).dot(ea) + eb[j]) return false;
  }
  // L = a_i x b_j has components (in a's frame) L_i = 0, L_i1 = -R(i2, j), L_i2 = R(i1, j) with
  // (i, i1, i2) cyclic; on b's side, b_k . L = a_i . (b_j x b_k) picks R(i, j2) for k = j1 and
  // -R(i, j1) for k = j2.
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double radiusA = ea[i1] * absR(i2, j) + ea[i2] * absR(i1, j);
      const double radiusB = eb[j1] * absR(i, j2) + eb[j2] * absR(i, j1);
      const double distance = std::abs(t[i2] * r(i1, j) - t[i1] * r(i2, j));
      if (distance > radiusA + radiusB) return false;
    }
  }
  return true;
}

}  // namespace hb
