#include "render/ray_cast.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "engine/world.hpp"

namespace hb {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The part [enter, exit] of the ray's line inside a convex set, built by clipping.
struct Interval {
  double enter = -kInf;
  double exit = kInf;
  bool empty() const { return enter > exit; }
  void clear() {
    enter = kInf;
    exit = -kInf;
  }
  /// Keeps the part where n . x <= offset.
  void clipPlane(const Ray& r, const Eigen::Vector3d& n, double offset) {
    const double along = n.dot(r.direction);
    const double gap = offset - n.dot(r.origin);
    if (std::abs(along) < 1e-15) {
      if (gap < 0.0) clear();  // parallel and outside
      return;
    }
    const double t = gap / along;
    if (along < 0.0) {
      enter = std::max(enter, t);
    } else {
      exit = std::min(exit, t);
    }
  }
  /// Keeps the part where a t^2 + 2 b t + c <= 0, the inside of a quadric that is convex along
  /// the line (a >= 0) — spheres, ellipsoids and cylinders' sides.
  void clipQuadric(double a, double b, double c) {
    if (a < 1e-15) {
      // Degenerate along the line (parallel to a cylinder's axis): inside everywhere or nowhere.
      if (std::abs(b) < 1e-15) {
        if (c > 0.0) clear();
        return;
      }
      const double t = -c / (2.0 * b);
      if (b > 0.0)
        exit = std::min(exit, t);
      else
        enter = std::max(enter, t);
      return;
    }
    const double disc = b * b - a * c;
    if (disc < 0.0) {
      clear();
      return;
    }
    const double root = std::sqrt(disc);
    enter = std::max(enter, (-b - root) / a);
    exit = std::min(exit, (-b + root) / a);
  }
  std::optional<double> hit() const {
    if (empty() || exit < 0.0) return std::nullopt;
    return std::max(enter, 0.0);
  }
};

/// Inside of x^2 + y^2 <= r^2 along the ray.
void clipInfiniteCylinder(Interval& in, const Ray& r, double radius) {
  const Eigen::Vector2d o = r.origin.head<2>(), d = r.direction.head<2>();
  in.clipQuadric(d.squaredNorm(), o.dot(d), o.squaredNorm() - radius * radius);
}

void clipSlabZ(Interval& in, const Ray& r, double halfLength) {
  in.clipPlane(r, Eigen::Vector3d::UnitZ(), halfLength);
  in.clipPlane(r, -Eigen::Vector3d::UnitZ(), halfLength);
}

std::optional<double> sphereCast(const Ray& r, const Eigen::Vector3d& center, double radius) {
  Interval in;
  const Eigen::Vector3d o = r.origin - center;
  in.clipQuadric(1.0, o.dot(r.direction), o.squaredNorm() - radius * radius);
  return in.hit();
}

/// The cone x^2 + y^2 <= k^2 (h - z)^2 under its apex z = h, above its base z = -h. The quadric
/// alone is a double cone, not convex along every line, so the line is cut at the roots and at
/// the apex plane and each piece tested at its middle; by convexity the inside pieces are adjacent.
std::optional<double> coneCast(const Ray& r, double radius, double h) {
  const double k2 = (radius / (2.0 * h)) * (radius / (2.0 * h));
  const Eigen::Vector3d& o = r.origin;
  const Eigen::Vector3d& d = r.direction;
  const double w0 = h - o.z();
  const double a = d.x() * d.x() + d.y() * d.y() - k2 * d.z() * d.z();
  const double b = o.x() * d.x() + o.y() * d.y() + k2 * w0 * d.z();
  const double c = o.x() * o.x() + o.y() * o.y() - k2 * w0 * w0;
  std::array<double, 5> cuts{};
  int n = 0;
  cuts[n++] = -1e6;
  if (std::abs(a) > 1e-15) {
    const double disc = b * b - a * c;
    if (disc >= 0.0) {
      cuts[n++] = (-b - std::sqrt(disc)) / a;
      cuts[n++] = (-b + std::sqrt(disc)) / a;
    }
  } else if (std::abs(b) > 1e-15) {
    cuts[n++] = -c / (2.0 * b);
  }
  if (std::abs(d.z()) > 1e-15) cuts[n++] = w0 / d.z();
  cuts[n++] = 1e6;
  std::sort(cuts.begin(), cuts.begin() + n);
  const auto inside = [&](double t) {
    const Eigen::Vector3d x = r.at(t);
    const double w = h - x.z();
    return w >= 0.0 && x.x() * x.x() + x.y() * x.y() <= k2 * w * w;
  };
  Interval in;
  in.clear();
  for (int i = 0; i + 1 < n; ++i) {
    if (cuts[i + 1] - cuts[i] < 1e-12 || !inside(0.5 * (cuts[i] + cuts[i + 1]))) continue;
    in.enter = std::min(in.enter, cuts[i]);
    in.exit = std::max(in.exit, cuts[i + 1]);
  }
  in.clipPlane(r, -Eigen::Vector3d::UnitZ(), h);  // the base
  return in.hit();
}

}  // namespace

std::optional<double> rayCast(const Shape& shape, const Ray& r) {
  Interval in;
  switch (shape.type()) {
    case ShapeType::Sphere:
      return sphereCast(r, Eigen::Vector3d::Zero(), shape.radius());
    case ShapeType::Box:
      for (int axis = 0; axis < 3; ++axis) {
        const Eigen::Vector3d n = Eigen::Vector3d::Unit(axis);
        in.clipPlane(r, n, shape.halfExtents()[axis]);
        in.clipPlane(r, -n, shape.halfExtents()[axis]);
      }
      return in.hit();
    case ShapeType::Ellipsoid: {
      // Scaled to the unit sphere: |D^-1 (o + t d)|^2 <= 1.
      const Eigen::Vector3d o = r.origin.cwiseQuotient(shape.radii());
      const Eigen::Vector3d d = r.direction.cwiseQuotient(shape.radii());
      in.clipQuadric(d.squaredNorm(), o.dot(d), o.squaredNorm() - 1.0);
      return in.hit();
    }
    case ShapeType::Cylinder:
      clipInfiniteCylinder(in, r, shape.radius());
      clipSlabZ(in, r, shape.halfLength());
      return in.hit();
    case ShapeType::Capsule: {
      // The union of the side cylinder and the two end spheres: the earliest entry wins.
      clipInfiniteCylinder(in, r, shape.radius());
      clipSlabZ(in, r, shape.halfLength());
      std::optional<double> best = in.hit();
      for (double z : {-shape.halfLength(), shape.halfLength()}) {
        const std::optional<double> t = sphereCast(r, {0.0, 0.0, z}, shape.radius());
        if (t && (!best || *t < *best)) best = t;
      }
      return best;
    }
    case ShapeType::Cone:
      return coneCast(r, shape.radius(), shape.halfLength());
    case ShapeType::ConvexHull:
    case ShapeType::Superquadric:  // its tessellation
    case ShapeType::SupportPoints: {
      const ConvexHull& hull = shape.hull();
      for (int f = 0; f < hull.numFaces() && !in.empty(); ++f) {
        in.clipPlane(r, hull.faceNormal(f), hull.faceOffset(f));
      }
      return in.hit();
    }
  }
  return std::nullopt;
}

std::optional<double> rayCast(const Shape& shape, const Pose& pose, const Ray& ray) {
  const Ray local{pose.applyInverse(ray.origin), pose.q.conjugate() * ray.direction};
  return rayCast(shape, local);
}

std::optional<RayHit> pickBody(const World& world, const Ray& ray, bool includeStatic) {
  std::optional<RayHit> best;
  const auto& proxies = world.proxies();
  for (int p = 0; p < static_cast<int>(proxies.size()); ++p) {
    const int body = proxies[p].body;
    if (body == 0 && !includeStatic) continue;
    // Cull with the world OBB before the exact test.
    const Obb& obb = world.worldObbs()[p];
    const Ray boxRay{obb.axes.transpose() * (ray.origin - obb.center),
                     obb.axes.transpose() * ray.direction};
    const std::optional<double> boxHit =
        rayCast(Shape::box(obb.halfExtents.cwiseMax(1e-9)), boxRay);
    if (!boxHit || (best && *boxHit > best->distance)) continue;
    const std::optional<double> t = rayCast(proxies[p].shape, world.proxyPose(p), ray);
    if (t && (!best || *t < best->distance)) best = RayHit{body, p, *t, ray.at(*t)};
  }
  return best;
}

}  // namespace hb
