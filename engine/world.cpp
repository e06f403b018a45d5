#include "engine/world.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <numbers>

#include "dynamics/integrator.hpp"
#include "engine/drop_clearance.hpp"
#include "engine/funnel.hpp"

namespace hb {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// A large thin box whose top face is the plane z = height.
constexpr double kGroundHalfSize = 50.0;
constexpr double kGroundHalfThickness = 0.5;

/// Contacts of consecutive steps are the same contact when their points on A are this close (m).
constexpr double kContactMatchRadius = 0.01;

Eigen::Vector3d uniformInBall(std::mt19937& rng, double radius) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (;;) {
    const Eigen::Vector3d v(u(rng), u(rng), u(rng));
    if (v.squaredNorm() <= 1.0) return radius * v;
  }
}

Eigen::Quaterniond uniformRotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  return q.normalized();
}

/// The shape a piece collides as: boxes and hulls rounded by the scene's convex radius (their
/// cores shared process-wide), so that resting contacts are GJK distances between cores; other
/// shapes as given.
Shape collisionShape(const Shape& shape, const SolverDescription& solver) {
  if (shape.type() != ShapeType::Box && shape.type() != ShapeType::ConvexHull) return shape;
  return shape.withConvexRadius(solver.convexRadius);
}

}  // namespace

World::World(const SceneDescription& scene) : scene_(scene), spawnRng_(1) {
  assets_ = std::make_unique<AssetLibrary>(scene_.assetDir);
  // Body 0 holds every static piece: the ground, the funnel and static shapes.
  WorldBody world;
  world.name = "static";
  bodies_.push_back(std::move(world));
  rigid_.push_back(RigidBody::fixed());
  for (const StaticDescription& s : scene_.statics) addStatic(s);
  for (const BodyDescription& b : scene_.bodies) addBody(b);
  if (scene_.spawner) {
    spawnRng_.seed(scene_.spawner->seed);
    spawnAssets_ = scene_.spawner->assets.empty() ? assets_->names() : scene_.spawner->assets;
    // Load every candidate now: building hulls, their rounded cores, OBBs and mass properties
    // takes milliseconds per mesh, which must not land inside a step.
    for (const std::string& name : spawnAssets_) {
      collisionShape(assets_->get(name, scene_.defaultDensity)->shape, scene_.solver);
    }
    spawnDue();
  }
  updateWorldObbs();
}

void World::addStatic(const StaticDescription& s) {
  // Static materials live on the proxies' body (0); one material per scene's statics is kept,
  // the last one given, since body 0 has a single material.
  bodies_[0].material = s.material;
  switch (s.kind) {
    case StaticDescription::Kind::Ground:
      addProxy(0, Shape::box({kGroundHalfSize, kGroundHalfSize, kGroundHalfThickness}),
               Pose::translation({0.0, 0.0, s.groundHeight - kGroundHalfThickness}));
      break;
    case StaticDescription::Kind::Funnel:
      for (const auto& [shape, pose] : funnelPanels(s.funnel)) addProxy(0, shape, pose);
      break;
    case StaticDescription::Kind::Shape:
      addProxy(0, *s.shape, s.pose);
      break;
  }
}

int World::addProxy(int body, const Shape& shape, const Pose& inBody, const Obb* localObb) {
  Proxy p;
  p.body = body;
  p.shape = collisionShape(shape, scene_.solver);
  p.inBody = inBody;
  p.localObb = localObb ? *localObb : hb::localObb(shape);
  // The body's reach: the furthest corner of its pieces' boxes from its centre of mass.
  bodyReach_.resize(bodies_.size(), 0.0);
  for (const Eigen::Vector3d& corner : p.localObb.corners()) {
    bodyReach_[body] = std::max(bodyReach_[body], inBody.apply(corner).norm());
  }
  proxyReach_.push_back(p.localObb.center.norm() + p.localObb.halfExtents.norm());
  proxies_.push_back(std::move(p));
  proxyOwners_.push_back(body);
  proxyStatic_.push_back(rigid_[body].isStatic ? 1 : 0);
  bodies_[body].proxies.push_back(static_cast<int>(proxies_.size()) - 1);
  worldObbs_.push_back(proxies_.back().localObb.transformed(piecePose(body, inBody)));
  return static_cast<int>(proxies_.size()) - 1;
}

int World::addBody(const BodyDescription& d) {
  const double density = d.density.value_or(scene_.defaultDensity);
  WorldBody body;
  body.material = d.material;
  Shape shape;
  Pose meshInBody;
  const Obb* obb = nullptr;
  MassProperties mass;
  if (!d.shape.asset.empty()) {
    body.asset = assets_->get(d.shape.asset, density);
    body.name = d.shape.asset;
    shape = body.asset->shape;
    meshInBody = body.asset->meshInBody;
    obb = &body.asset->localObb;
    mass = body.asset->massProperties;
  } else {
    shape = *d.shape.shape;
    body.name = std::string(toString(shape.type()));
    switch (shape.type()) {
      case ShapeType::Box:
        mass = boxMassProperties(shape.halfExtents(), density);
        break;
      case ShapeType::Sphere:
        mass = sphereMassProperties(shape.radius(), density);
        break;
      case ShapeType::ConvexHull:
        mass = hullMassProperties(shape.hull(), density);
        meshInBody = Pose::translation(-mass.centerOfMass);
        break;
      default: {
        // Other primitives: mass properties of their tight box, a close and safe stand-in.
        mass = boxMassProperties(localObb(shape).halfExtents, density);
        mass.inertia *= 0.8;  // rounder than a box
        break;
      }
    }
  }
  if (d.mass) mass = withMass(mass, *d.mass);
  RigidBody rigid = RigidBody::dynamic(mass);
  // The description poses the shape's own frame; the body frame sits at the centre of mass.
  const Pose bodyPose = d.pose * meshInBody.inverse();
  rigid.position = bodyPose.p;
  rigid.orientation = bodyPose.q;
  rigid.linearVelocity = d.linearVelocity;
  rigid.angularVelocity = d.angularVelocity;
  bodies_.push_back(std::move(body));
  rigid_.push_back(rigid);
  const int index = static_cast<int>(bodies_.size()) - 1;
  addProxy(index, shape, meshInBody, obb);
  return index;
}

void World::applyImpulse(int body, const Eigen::Vector3d& worldPoint,
                         const Eigen::Vector3d& impulse) {
  RigidBody& r = rigid_[body];
  if (r.isStatic) return;
  r.linearVelocity += r.inverseMass * impulse;
  r.angularVelocity += r.inverseInertiaWorld() * (worldPoint - r.position).cross(impulse);
  r.sleeping = false;
  r.restingTime = 0.0;
}

Pose World::piecePose(int body, const Pose& inBody) const {
  const RigidBody& r = rigid_[body];
  return Pose{r.orientation, r.position} * inBody;
}

void World::spawnDue() {
  const SpawnerDescription& s = *scene_.spawner;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<size_t> pick(0, spawnAssets_.size() - 1);
  while (spawned_ < s.count) {
    // Interval 0: everything now, stacked in a column; otherwise one drop per interval.
    if (s.interval > 0.0 && time() + 1e-12 < spawned_ * s.interval) break;
    BodyDescription d;
    d.shape.asset = spawnAssets_[pick(spawnRng_)];
    d.material = s.material;
    const auto asset = assets_->get(d.shape.asset, scene_.defaultDensity);
    const double angle = 2.0 * std::numbers::pi * unit(spawnRng_);
    const double r = s.radius * std::sqrt(unit(spawnRng_));
    double z = s.center.z();
    if (s.interval <= 0.0) {
      // A column: each body above the previous one by its bounding diameter.
      const double size = 2.0 * asset->localObb.halfExtents.norm();
      z += spawnHeight_ + 0.5 * size;
      spawnHeight_ += size;
    } else {
      z += s.height * unit(spawnRng_);
    }
    const Eigen::Quaterniond q = uniformRotation(spawnRng_);
    // Place the asset's centre of mass at the drawn point.
    const Eigen::Vector3d com = asset->massProperties.centerOfMass;
    d.pose.q = q;
    d.pose.p =
        Eigen::Vector3d(s.center.x() + r * std::cos(angle), s.center.y() + r * std::sin(angle), z) -
        q * com;
    d.linearVelocity = uniformInBall(spawnRng_, s.maxLinearSpeed);
    d.angularVelocity = uniformInBall(spawnRng_, s.maxAngularSpeed);
    // Once the pile reaches the drop region, a drop can land inside it.
    if (s.liftClear) {
      liftClearOfBodies(*this, d, asset->shape, asset->localObb, DropClearance::Shapes);
    }
    addBody(d);
    ++spawned_;
  }
}

Pose World::bodyPose(int i) const {
  return {rigid_[i].orientation, rigid_[i].position};
}

Pose World::proxyPose(int p) const {
  return piecePose(proxies_[p].body, proxies_[p].inBody);
}

void World::step() {
  stats_ = StepStatistics{};
  stats_.step = stepCount_;
  if (scene_.spawner) spawnDue();
  const Clock::time_point t0 = Clock::now();
  updateWorldObbs();
  broadPhase();
  stats_.stageMs[static_cast<int>(Stage::BroadPhase)] = msSince(t0);

  Clock::time_point t = Clock::now();
  narrowPhase();
  stats_.stageMs[static_cast<int>(Stage::NarrowPhase)] = msSince(t);

  t = Clock::now();
  setupContacts();
  stats_.stageMs[static_cast<int>(Stage::ContactSetup)] = msSince(t);

  t = Clock::now();
  solve();
  stats_.stageMs[static_cast<int>(Stage::Solve)] = msSince(t);

  t = Clock::now();
  integrate();
  stats_.stageMs[static_cast<int>(Stage::Integrate)] = msSince(t);

  ++stepCount_;
  stats_.bodies = static_cast<int>(bodies_.size()) - 1;
  stats_.kineticEnergy = kineticEnergy();
  for (const auto& observer : observers_) observer(*this);
}

void World::updateWorldObbs() {
  worldObbs_.resize(proxies_.size());
  for (size_t p = 0; p < proxies_.size(); ++p) {
    worldObbs_[p] = proxies_[p].localObb.transformed(proxyPose(static_cast<int>(p)));
  }
}

double World::sweepDistance(int body) const {
  // How far any point of the body can travel this step: |v| dt + |w| dt * (its reach).
  const RigidBody& r = rigid_[body];
  if (!r.isActive()) return 0.0;
  return scene_.dt * (r.linearVelocity.norm() + r.angularVelocity.norm() * bodyReach_[body]);
}

void World::broadPhase() {
  // Each box grows by half the speculative margin plus how far its body may move this step, so
  // that fast bodies meet what they would otherwise pass through between two steps.
  sweptObbs_.resize(worldObbs_.size());
  for (size_t p = 0; p < worldObbs_.size(); ++p) {
    sweptObbs_[p] = worldObbs_[p];
    sweptObbs_[p].halfExtents.array() +=
        0.5 * scene_.solver.speculativeMargin + sweepDistance(proxies_[p].body);
  }
  BroadPhaseInput input;
  input.boxes = sweptObbs_;
  input.owners = proxyOwners_;
  input.isStatic = proxyStatic_;
  const auto& pairs = broadPhase_.update(input);
  candidates_.clear();
  // Pairs whose bodies are all asleep or static need no narrow phase.
  for (const ProxyPair& pair : pairs) {
    const RigidBody& a = rigid_[proxies_[pair.first].body];
    const RigidBody& b = rigid_[proxies_[pair.second].body];
    if (a.isActive() || b.isActive()) candidates_.push_back(pair);
  }
  stats_.candidatePairs = static_cast<int>(candidates_.size());
}

void World::narrowPhase() {
  const SolverDescription& solver = scene_.solver;
  CollisionOptions options;
  options.gjk.variant = solver.gjkVariant;
  options.gjk.tolerance = solver.gjkTolerance;
  options.gjk.maxIterations = solver.gjkMaxIterations;
  narrowPhase_.clear();
  recordCache_.clear();
  for (const ProxyPair& pair : candidates_) {
    const Proxy& pa = proxies_[pair.first];
    const Proxy& pb = proxies_[pair.second];
    const Pose poseA = proxyPose(pair.first);
    const Pose poseB = proxyPose(pair.second);
    PairCacheEntry& cache = pairCache_.entry(pair.first, pair.second);
    NarrowPhaseRecord record;
    record.proxyA = pair.first;
    record.proxyB = pair.second;
    record.poseA = poseA;
    record.poseB = poseB;
    record.hints = cache.hints;
    if (cache.previous && cache.lastStep == stepCount_ - 1) record.previous = cache.previous;
    record.initialGuess = initialGuess(solver.warmStart, worldObbs_[pair.first],
                                       worldObbs_[pair.second], poseA, poseB, record.previous);
    record.result =
        collide(pa.shape, poseA, pb.shape, poseB, record.initialGuess, options, cache.hints);
    const CollisionResult& r = record.result;
    ++stats_.gjkCalls;
    stats_.gjkIterations += r.gjkIterations;
    if (r.epaStatus) ++stats_.epaCalls;
    cache.hints = r.hints;
    cache.lastStep = stepCount_;
    if (r.gjkStatus != GjkStatus::InvalidInput && std::isfinite(r.distance)) {
      cache.previous =
          makePreviousSolution(poseA, poseB, r.witnessA, r.witnessB, r.normal, r.distance);
    }
    narrowPhase_.push_back(record);
    // Entries stay put in the map until evicted, and a pair seen this step is not.
    recordCache_.push_back(&cache);
  }
  // Pairs the broad phase dropped lose their cache; sleeping pairs keep theirs.
  pairCache_.evictStale(stepCount_, [&](int i, int j) {
    return !rigid_[proxies_[i].body].isActive() && !rigid_[proxies_[j].body].isActive();
  });
}

void World::setupContacts() {
  contacts_.clear();
  contactPair_.clear();
  reusedManifolds_ = 0;
  for (size_t k = 0; k < narrowPhase_.size(); ++k) {
    const NarrowPhaseRecord& record = narrowPhase_[k];
    const CollisionResult& r = record.result;
    const Proxy& pa = proxies_[record.proxyA];
    const Proxy& pb = proxies_[record.proxyB];
    // Speculative contacts for every gap the bodies could close within this step.
    const double margin =
        scene_.solver.speculativeMargin + sweepDistance(pa.body) + sweepDistance(pb.body);
    if (r.gjkStatus == GjkStatus::InvalidInput || !(r.distance < margin)) continue;
    PairCacheEntry& cache = *recordCache_[k];
    // A pair that barely moved since its manifold was built keeps it, re-posed.
    std::optional<ContactManifold> manifold;
    if (cache.manifold) {
      manifold =
          reposeManifold(*cache.manifold, record.poseA, record.poseB, r.normal, r.distance, margin,
                         proxyReach_[record.proxyA], proxyReach_[record.proxyB], manifoldReuse_);
    }
    if (manifold) {
      ++reusedManifolds_;
    } else {
      manifold = buildContactManifold(pa.shape, record.poseA, pb.shape, record.poseB, r.normal,
                                      r.witnessA, r.witnessB, r.distance, margin);
      cache.manifold = persistManifold(*manifold, record.poseA, record.poseB, r.distance, margin);
    }
    const WorldBody& a = bodies_[pa.body];
    const WorldBody& b = bodies_[pb.body];
    const Pose bodyA = bodyPose(pa.body);
    for (int i = 0; i < manifold->size; ++i) {
      const ContactPoint& point = manifold->points[i];
      ContactConstraint c;
      c.bodyA = pa.body;
      c.bodyB = pb.body;
      c.point = 0.5 * (point.pointA + point.pointB);
      c.normal = manifold->normal;
      c.buildTangents();
      c.depth = point.depth;
      c.friction = std::sqrt(a.material.friction * b.material.friction);
      c.restitution = std::max(a.material.restitution, b.material.restitution);
      // Warm start from the matching contact of the previous step, re-expressed in this basis.
      if (const auto impulse = PairCache::matchImpulse(cache, bodyA.applyInverse(point.pointA),
                                                       kContactMatchRadius)) {
        c.impulse = {c.normal.dot(*impulse), c.tangent1.dot(*impulse), c.tangent2.dot(*impulse)};
        c.impulse.x() = std::max(0.0, c.impulse.x());
      }
      stats_.maxPenetration = std::max(stats_.maxPenetration, c.depth);
      contacts_.push_back(c);
      contactPair_.push_back(static_cast<int>(k));
    }
  }
  stats_.contacts = static_cast<int>(contacts_.size());

  // Islands: sleeping bodies touched by awake ones wake up with their whole island.
  touching_.clear();
  for (const ContactConstraint& c : contacts_) touching_.emplace_back(c.bodyA, c.bodyB);
  islands_ = findIslands(rigid_, touching_);
  wakeTouchedIslands(rigid_, islands_);
}

void World::solve() {
  const SolverDescription& s = scene_.solver;
  ContactSolverOptions options;
  options.velocityIterations = s.velocityIterations;
  options.positionIterations = s.positionIterations;
  options.tolerance = s.solverTolerance;
  options.restitutionThreshold = s.restitutionThreshold;
  integrateVelocities(rigid_, scene_.gravity, scene_.dt);
  solver_.prepare(rigid_, contacts_, scene_.dt, options);
  solver_.warmStart(rigid_);
  const ContactSolverStats stats = solver_.solveVelocities(rigid_);
  solver_.solvePositions(rigid_, pseudo_);
  stats_.solverIterations = stats.iterations;
  stats_.solverResidual = stats.residual;

  // The impulses go back to the pair cache for the next step's warm start.
  for (size_t k = 0; k < contacts_.size(); ++k) {
    PairCacheEntry& cache = *recordCache_[contactPair_[k]];
    if (k == 0 || contactPair_[k] != contactPair_[k - 1]) cache.contactCount = 0;
    if (cache.contactCount >= static_cast<int>(cache.contacts.size())) continue;
    const ContactConstraint& c = contacts_[k];
    CachedContact& cached = cache.contacts[cache.contactCount++];
    cached.pointOnA = bodyPose(c.bodyA).applyInverse(c.point);
    cached.impulse =
        c.normal * c.impulse.x() + c.tangent1 * c.impulse.y() + c.tangent2 * c.impulse.z();
  }
}

void World::integrate() {
  integratePositions(rigid_, pseudo_, scene_.dt);
  SleepOptions sleep;
  sleep.enabled = scene_.solver.sleeping;
  // Islands were found before the solve; bodies added since (none within a step) have none.
  islands_.resize(rigid_.size(), -1);
  updateSleep(rigid_, islands_, scene_.dt, sleep);
  int awake = 0;
  for (const RigidBody& r : rigid_) {
    if (!r.isFinite()) nonFinite_ = true;
    if (r.isActive()) ++awake;
  }
  stats_.awakeBodies = awake;
}

int World::escapedBodies() const {
  int escaped = 0;
  for (const RigidBody& b : rigid_) {
    if (b.isStatic) continue;
    const Eigen::Vector3d& p = b.position;
    if ((p.array() < scene_.boundsMin.array()).any() ||
        (p.array() > scene_.boundsMax.array()).any() || !p.allFinite()) {
      ++escaped;
    }
  }
  return escaped;
}

double World::kineticEnergy() const {
  double e = 0.0;
  for (const RigidBody& b : rigid_) e += b.kineticEnergy();
  return e;
}

}  // namespace hb
