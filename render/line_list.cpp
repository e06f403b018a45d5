#include "render/line_list.hpp"

namespace hb {

void LineList::line(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Color& c) {
  const std::array<float, 4> color = {c.x(), c.y(), c.z(), c.w()};
  vertices_.push_back({{float(a.x()), float(a.y()), float(a.z())}, color});
  vertices_.push_back({{float(b.x()), float(b.y()), float(b.z())}, color});
}

void LineList::cross(const Eigen::Vector3d& p, double size, const Color& color) {
  for (int axis = 0; axis < 3; ++axis) {
    const Eigen::Vector3d d = size * Eigen::Vector3d::Unit(axis);
    line(p - d, p + d, color);
  }
}

void LineList::box(const Obb& box, const Color& color) {
  // Corner i has the sign pattern of its bits; edges join corners differing in one bit.
  const auto corner = [&](int i) {
    Eigen::Vector3d local;
    for (int axis = 0; axis < 3; ++axis) {
      local[axis] = ((i >> axis) & 1 ? 1.0 : -1.0) * box.halfExtents[axis];
    }
    return Eigen::Vector3d(box.center + box.axes * local);
  };
  for (int i = 0; i < 8; ++i) {
    for (int axis = 0; axis < 3; ++axis) {
      if (!((i >> axis) & 1)) line(corner(i), corner(i | (1 << axis)), color);
    }
  }
}

void LineList::arrow(const Eigen::Vector3d& from, const Eigen::Vector3d& to, const Color& color) {
  line(from, to, color);
  const Eigen::Vector3d d = to - from;
  const double length = d.norm();
  if (length < 1e-9) return;
  const Eigen::Vector3d u = d / length;
  const Eigen::Vector3d side = u.unitOrthogonal();
  const double head = 0.2 * length;
  for (const Eigen::Vector3d& s : {side, Eigen::Vector3d(u.cross(side))}) {
    line(to, to - head * u + 0.5 * head * s, color);
    line(to, to - head * u - 0.5 * head * s, color);
  }
}

}  // namespace hb
