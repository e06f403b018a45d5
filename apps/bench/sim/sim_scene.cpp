#include "apps/bench/sim/sim_scene.hpp"

#include <stdexcept>

#include "engine/world.hpp"

namespace hb::sim {
namespace {

/// The step at whose start World's spawner makes drop k: the first step s with
/// s * dt + 1e-12 >= k * interval (World::spawnDue compares the same way).
long dropStep(int k, double interval, double dt) {
  if (interval <= 0.0) return 0;
  long s = static_cast<long>(k * interval / dt);
  while (s > 0 && !(static_cast<double>(s - 1) * dt + 1e-12 < k * interval)) --s;
  while (static_cast<double>(s) * dt + 1e-12 < k * interval) ++s;
  return s;
}

}  // namespace

SimScene buildSimScene(const SceneDescription& scene) {
  // A World built from the scene creates the statics and the listed bodies, and the spawner's
  // drops due at time 0. With the interval shrunk so that every drop is due at time 0 (but still
  // positive, so each drop draws its height as it does when spread over time), the World makes
  // all of them at once from the same random draws, without simulating anything.
  SceneDescription probe = scene;
  const bool spreadOverTime = scene.spawner && scene.spawner->interval > 0.0;
  if (spreadOverTime) probe.spawner->interval = 1e-13 / std::max(1, scene.spawner->count);
  // Every engine gets the raw draws: lifting a drop clear of the pile depends on the engine's
  // state (and in the probe all drops exist at once). Drops into a body are measured apart.
  if (probe.spawner) probe.spawner->liftClear = false;
  // Every engine gets the sharp shapes, and the penetration meter measures on them; heavyball's
  // World (built from `base`) rounds its boxes and hulls itself, as Bullet adds its margins.
  probe.solver.convexRadius = 0.0;
  const World world(probe);

  SimScene out;
  out.base = scene;
  out.base.bodies.clear();
  out.base.spawner.reset();
  out.joints = scene.joints;
  out.base.joints.clear();
  if (!scene.jointTargets.empty()) {
    throw std::runtime_error("bench: joint_targets are not compared across engines; remove them");
  }
  out.staticMaterial = world.bodies()[0].material;

  // The World adds the statics' pieces in the order of the scene's statics: one piece each,
  // except a funnel (one per panel).
  int piece = 0;
  const std::vector<int>& staticProxies = world.bodies()[0].proxies;
  for (int group = 0; group < static_cast<int>(scene.statics.size()); ++group) {
    const StaticDescription& s = scene.statics[group];
    const int count = s.kind == StaticDescription::Kind::Funnel ? s.funnel.panels : 1;
    for (int i = 0; i < count; ++i, ++piece) {
      const Proxy& proxy = world.proxies()[staticProxies.at(piece)];
      out.statics.push_back({proxy.shape, proxy.inBody, group});
    }
  }

  const int listed = static_cast<int>(scene.bodies.size());
  for (int i = 1; i < static_cast<int>(world.bodies().size()); ++i) {
    const WorldBody& wb = world.bodies()[i];
    const RigidBody& rb = world.rigidBodies()[i];
    SimBody b;
    b.name = wb.name;
    for (const int p : wb.proxies) {
      b.pieces.push_back({world.proxies()[p].shape, world.proxies()[p].inBody});
    }
    if (b.isCompound() && wb.asset) {
      b.shape = wb.asset->shape;
      b.shapeInBody = wb.asset->meshInBody;
    } else {
      b.shape = b.pieces[0].shape;
      b.shapeInBody = b.pieces[0].inBody;
    }
    b.mass = 1.0 / rb.inverseMass;
    b.inertia = rb.inertiaBody;
    b.pose = world.bodyPose(i);
    b.linearVelocity = rb.linearVelocity;
    b.angularVelocity = rb.angularVelocity;
    b.material = wb.material;
    const int k = i - 1 - listed;  // index among the spawner's drops
    if (k < 0) {
      b.description = scene.bodies[i - 1];
    } else {
      b.dropStep = dropStep(k, spreadOverTime ? scene.spawner->interval : 0.0, scene.dt);
      // What the spawner handed to World::addBody: the asset's own frame posed in the world.
      b.description.shape.asset = wb.asset->name;
      b.description.shape.parts = b.isCompound();
      b.description.pose = b.pose * wb.asset->meshInBody;
      b.description.linearVelocity = b.linearVelocity;
      b.description.angularVelocity = b.angularVelocity;
      b.description.material = b.material;
    }
    out.bodies.push_back(std::move(b));
  }
  return out;
}

}  // namespace hb::sim
