#include "render/debug_draw.hpp"

#include <algorithm>
#include <set>

#include "render/joint_draw.hpp"

namespace hb {
namespace {

const Color kStaticColor(0.45f, 0.47f, 0.52f, 0.6f);
const Color kAwakeColor(0.15f, 0.75f, 0.30f, 0.9f);
const Color kSleepingColor(0.30f, 0.45f, 0.85f, 0.9f);
const Color kHullColor(0.10f, 0.10f, 0.12f, 0.55f);
const Color kPairSeparated(0.95f, 0.75f, 0.10f, 0.8f);
const Color kPairColliding(0.95f, 0.20f, 0.15f, 0.95f);
const Color kSpeculative(0.55f, 0.55f, 0.58f, 0.8f);
const Color kResting(0.20f, 0.70f, 0.60f, 0.9f);
const Color kWitnessA(0.05f, 0.70f, 0.85f, 1.0f);
const Color kWitnessB(0.85f, 0.15f, 0.75f, 1.0f);
const Color kSeparation(0.05f, 0.55f, 0.95f, 0.9f);
const Color kPenetration(0.95f, 0.10f, 0.55f, 0.9f);

/// The ground is a 100 m box: its outline is noise at the funnel's scale.
constexpr double kLargestDrawnBox = 10.0;

/// The point of `box` nearest to p (p itself inside it).
Eigen::Vector3d nearestInBox(const Obb& box, const Eigen::Vector3d& p) {
  const Eigen::Vector3d local = box.axes.transpose() * (p - box.center);
  return box.center + box.axes * local.cwiseMax(-box.halfExtents).cwiseMin(box.halfExtents);
}

}  // namespace

Color DebugDraw::impulseColor(double impulse, double scale) {
  // The ramp saturates at the impulse that draws a 10 cm normal.
  const float s = static_cast<float>(std::clamp(impulse * scale / 0.1, 0.0, 1.0));
  return {0.15f + 0.85f * s, 0.45f * (1.0f - s) + 0.15f, 1.0f - 0.85f * s, 1.0f};
}

Color DebugDraw::restingColor() {
  return kResting;
}

void DebugDraw::build(const World& world, const DebugDrawOptions& options, LineList& lines) {
  focus_ = options.focusSelected && options.focusBody > 0 &&
                   options.focusBody < static_cast<int>(world.bodies().size())
               ? options.focusBody
               : -1;
  nearFocus_.clear();
  if (focus_ >= 0) {
    for (const NarrowPhaseRecord& r : world.narrowPhaseRecords()) {
      const int a = world.proxies()[r.proxyA].body, b = world.proxies()[r.proxyB].body;
      if (a == focus_) nearFocus_.insert(b);
      if (b == focus_) nearFocus_.insert(a);
    }
  }
  if (options.obbs) obbs(world, lines);
  if (options.hulls) hulls(world, lines);
  if (options.pairs) pairs(world, lines);
  if (options.contacts) contacts(world, options, lines);
  if (options.gjk) gjk(world, lines);
  if (options.joints) joints(world, options, lines);
}

void DebugDraw::obbs(const World& world, LineList& lines) const {
  for (size_t p = 0; p < world.proxies().size(); ++p) {
    const Obb& box = world.worldObbs()[p];
    if (box.halfExtents.maxCoeff() > kLargestDrawnBox || !shows(world.proxies()[p].body)) continue;
    const RigidBody& body = world.rigidBodies()[world.proxies()[p].body];
    lines.box(box, body.isStatic ? kStaticColor : body.sleeping ? kSleepingColor : kAwakeColor);
  }
}

const std::vector<std::pair<int, int>>& DebugDraw::edges(
    const std::shared_ptr<const ConvexHull>& hull) {
  auto it = edges_.find(hull.get());
  if (it != edges_.end()) return it->second.second;
  std::set<std::pair<int, int>> unique;
  for (int f = 0; f < hull->numFaces(); ++f) {
    const auto face = hull->face(f);
    for (size_t i = 0; i < face.size(); ++i) {
      const int a = face[i], b = face[(i + 1) % face.size()];
      unique.emplace(std::min(a, b), std::max(a, b));
    }
  }
  auto& entry = edges_[hull.get()];
  entry.first = hull;
  entry.second.assign(unique.begin(), unique.end());
  return entry.second;
}

void DebugDraw::hulls(const World& world, LineList& lines) {
  for (int p = 0; p < static_cast<int>(world.proxies().size()); ++p) {
    const Proxy& proxy = world.proxies()[p];
    if (!shows(proxy.body)) continue;
    const Pose pose = world.proxyPose(p);
    if (proxy.shape.type() == ShapeType::ConvexHull) {
      const auto& vertices = proxy.shape.hull().vertices();
      for (const auto& [a, b] : edges(proxy.shape.hullPtr())) {
        lines.line(pose.apply(vertices[a]), pose.apply(vertices[b]), kHullColor);
      }
    } else if (proxy.shape.type() == ShapeType::Box &&
               proxy.shape.halfExtents().maxCoeff() <= kLargestDrawnBox) {
      lines.box(Obb{pose.p, pose.rotation(), proxy.shape.halfExtents()}, kHullColor);
    }
  }
}

void DebugDraw::pairs(const World& world, LineList& lines) const {
  for (const NarrowPhaseRecord& r : world.narrowPhaseRecords()) {
    if (!showsPair(world.proxies()[r.proxyA].body, world.proxies()[r.proxyB].body)) continue;
    const Color& color = r.result.collide ? kPairColliding : kPairSeparated;
    // Between the boxes' centres; a static's end where its box comes nearest the other centre
    // (the ground's centre may be metres away from what rests on it).
    const Obb& a = world.worldObbs()[r.proxyA];
    const Obb& b = world.worldObbs()[r.proxyB];
    const bool staticA = world.rigidBodies()[world.proxies()[r.proxyA].body].isStatic;
    const bool staticB = world.rigidBodies()[world.proxies()[r.proxyB].body].isStatic;
    lines.line(staticA ? nearestInBox(a, b.center) : a.center,
               staticB ? nearestInBox(b, a.center) : b.center, color);
  }
}

void DebugDraw::contacts(const World& world, const DebugDrawOptions& options,
                         LineList& lines) const {
  for (const ContactConstraint& c : world.contacts()) {
    if (!showsPair(c.bodyA, c.bodyB)) continue;
    // impulse.x() is the normal impulse; speculative contacts that stayed open carry none.
    const double impulse = c.impulse.x();
    const bool active = impulse > 0.0;
    const Color color = active ? impulseColor(impulse, options.impulseScale) : kSpeculative;
    lines.cross(c.point, 0.004, color);
    const double length = options.minNormalLength + options.impulseScale * impulse;
    lines.arrow(c.point, c.point + std::min(length, 0.3) * c.normal, color);
  }
  // Sleeping bodies are not solved: their contacts are those kept for their waking, drawn with
  // the impulse they carried over a step.
  const double dt = world.scene().dt;
  for (const World::RestingContact& c : world.restingContacts()) {
    if (!showsPair(c.bodyA, c.bodyB)) continue;
    lines.cross(c.point, 0.004, kResting);
    const double impulse = c.force.norm() * dt;
    if (impulse == 0.0) continue;
    const double length = options.minNormalLength + options.impulseScale * impulse;
    lines.arrow(c.point, c.point + std::min(length, 0.3) * c.force.normalized(), kResting);
  }
}

void DebugDraw::gjk(const World& world, LineList& lines) const {
  for (const NarrowPhaseRecord& r : world.narrowPhaseRecords()) {
    const CollisionResult& result = r.result;
    if (result.gjkStatus == GjkStatus::InvalidInput ||
        !showsPair(world.proxies()[r.proxyA].body, world.proxies()[r.proxyB].body)) {
      continue;
    }
    lines.cross(result.witnessA, 0.003, kWitnessA);
    lines.cross(result.witnessB, 0.003, kWitnessB);
    lines.line(result.witnessA, result.witnessB,
               result.distance > 0.0 ? kSeparation : kPenetration);
  }
}

void DebugDraw::joints(const World& world, const DebugDrawOptions& options, LineList& lines) const {
  const std::vector<RigidBody>& bodies = world.rigidBodies();
  for (const Joint& joint : world.joints()) {
    if (!showsPair(joint.bodyA, joint.bodyB)) continue;
    const JointGlyph glyph =
        jointGlyph(joint, bodies[joint.bodyA], bodies[joint.bodyB], options.jointSize);
    drawJointGlyph(glyph, options.jointSize, lines);
  }
}

}  // namespace hb
