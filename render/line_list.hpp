#pragma once
// Coloured line segments collected on the CPU each frame for debug drawing, with helpers for
// boxes, crosses and arrows. LineRenderer draws them.

#include <Eigen/Core>
#include <array>
#include <vector>

#include "collision/obb.hpp"

namespace hb {

/// RGBA in [0, 1], sRGB.
using Color = Eigen::Vector4f;

struct LineVertex {
  std::array<float, 3> position{};
  std::array<float, 4> color{};
};

class LineList {
 public:
  void clear() { vertices_.clear(); }
  void line(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Color& color);
  /// Three axis-aligned strokes of half-length `size` through p.
  void cross(const Eigen::Vector3d& p, double size, const Color& color);
  /// The twelve edges.
  void box(const Obb& box, const Color& color);
  /// A line from `from` to `to` with a small head.
  void arrow(const Eigen::Vector3d& from, const Eigen::Vector3d& to, const Color& color);

  const std::vector<LineVertex>& vertices() const { return vertices_; }
  bool empty() const { return vertices_.empty(); }

 private:
  std::vector<LineVertex> vertices_;
};

}  // namespace hb
