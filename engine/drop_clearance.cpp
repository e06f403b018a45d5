#include "engine/drop_clearance.hpp"

#include <algorithm>

#include "collision/collide.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

/// Height of a box's top face (or its bottom face).
double topOf(const Obb& box) {
  return box.center.z() + box.aabbHalfExtents().z();
}
double bottomOf(const Obb& box) {
  return box.center.z() - box.aabbHalfExtents().z();
}

constexpr double kGap = 0.005;     // m left between a lifted drop and the box it cleared
constexpr int kMaxAttempts = 200;  // each lift clears at least one box; a pile is finite

}  // namespace

double liftClearOfBodies(const World& world, BodyDescription& body, const Shape& shape,
                         const Obb& localBox, DropClearance clearance) {
  const std::vector<Proxy>& proxies = world.proxies();
  const std::vector<Obb>& boxes = world.worldObbs();  // current poses
  CollisionOptions boolean;  // a Boolean check: is the drop touching the piece at all?
  boolean.gjk.mode = GjkMode::Boolean;
  boolean.computePenetration = false;
  double total = 0.0;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    const Obb box = localBox.transformed(body.pose);
    // A drop above every dynamic piece (a column of drops, each on top) is clear at once.
    if (bottomOf(box) > world.highestDynamicTop()) break;
    const Eigen::Vector3d reach = box.aabbHalfExtents();
    double lift = 0.0;
    for (int p = 0; p < static_cast<int>(proxies.size()); ++p) {
      if (proxies[p].body == 0) continue;
      const Obb& other = boxes[p];
      // Axis-aligned bounds first: they reject almost every piece of a large scene for a few
      // operations, before the separating-axis test.
      const Eigen::Vector3d apart = (other.center - box.center).cwiseAbs();
      if ((apart.array() > (reach + other.aabbHalfExtents()).array()).any()) continue;
      if (!obbOverlap(box, other)) continue;
      if (clearance == DropClearance::Shapes) {
        const CollisionResult c = collide(shape, body.pose, proxies[p].shape, world.proxyPose(p),
                                          box.center - other.center, boolean);
        if (!c.collide) continue;
      }
      lift = std::max(lift, topOf(other) - bottomOf(box));
    }
    if (lift <= 0.0) break;
    body.pose.p.z() += lift + kGap;
    total += lift + kGap;
  }
  return total;
}

}  // namespace hb
