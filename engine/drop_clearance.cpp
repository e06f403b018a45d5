#include "engine/drop_clearance.hpp"

#include <algorithm>

#include "collision/collide.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

/// Height of a box's top face (or, mirrored about its centre, its bottom face).
double topOf(const Obb& box) {
  return box.center.z() + box.axes.row(2).cwiseAbs().dot(box.halfExtents);
}
double bottomOf(const Obb& box) {
  return 2.0 * box.center.z() - topOf(box);
}

constexpr double kGap = 0.005;     // m left between a lifted drop and the box it cleared
constexpr int kMaxAttempts = 200;  // each lift clears at least one box; a pile is finite

}  // namespace

double liftClearOfBodies(const World& world, BodyDescription& body, const Shape& shape,
                         const Obb& localBox, DropClearance clearance) {
  const std::vector<Proxy>& proxies = world.proxies();
  CollisionOptions boolean;  // a Boolean check: is the drop touching the piece at all?
  boolean.gjk.mode = GjkMode::Boolean;
  boolean.computePenetration = false;
  double total = 0.0;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    const Obb box = localBox.transformed(body.pose);
    double lift = 0.0;
    for (int p = 0; p < static_cast<int>(proxies.size()); ++p) {
      if (proxies[p].body == 0) continue;
      const Pose pose = world.proxyPose(p);
      const Obb other = proxies[p].localObb.transformed(pose);
      if (!obbOverlap(box, other)) continue;
      if (clearance == DropClearance::Shapes) {
        const CollisionResult c =
            collide(shape, body.pose, proxies[p].shape, pose, box.center - other.center, boolean);
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
