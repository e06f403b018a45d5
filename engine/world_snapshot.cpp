// World snapshots: everything a step depends on, as bytes, and back (World::saveState,
// World::restoreState, World::reset). The layout, in order:
//   magic "hbsnap" + 2 zero bytes, format version (u32), the scene's fingerprint (u64),
//   world counters and energies, the spawner (count, column height, random engine as text),
//   per body: how it was added (BodyIdentity) and its state (BodyState),
//   the pair cache in the order of its keys, the joints (with their settings, targets and forces).
// Each structure lists its fields once, in a `fields(archive, object)` template that both the
// writer and the reader run (engine/byte_archive.hpp).

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "collision/defaults.hpp"
#include "engine/state_hash.hpp"
#include "engine/world.hpp"

namespace hb {

namespace world_snapshot {

constexpr char kMagic[8] = {'h', 'b', 's', 'n', 'a', 'p', 0, 0};
constexpr std::uint32_t kFormatVersion = 4;  // 2: the joints; 3: spherical drives, twist;
                                             // 4: the pairs' kept simplices

/// How a body was added, as far as a snapshot can say: an asset, a primitive shape given by its
/// dimensions, or another shape (an inline mesh, a superquadric, a support function), which a
/// snapshot can recognise but not make again.
struct BodyIdentity {
  enum Kind : std::uint8_t { Asset = 0, Primitive = 1, Other = 2 };
  Kind kind = Other;
  std::string name;  ///< asset name or shape type
  bool parts = false;
  std::uint8_t shapeType = 0;                            ///< ShapeType, for primitives
  Eigen::Vector3d dimensions = Eigen::Vector3d::Zero();  ///< half extents, radii or (r, 0, h)
  std::optional<double> density;
  std::optional<double> mass;
  std::uint64_t pieces = 0;
  std::uint64_t hullVertices = 0;  ///< of the first piece's hull, for Other

  bool operator==(const BodyIdentity&) const = default;
};

/// A body's state, what restoring sets.
struct BodyState {
  RigidBody rigid;
  Material material;
  long sleepIsland = -1;
  ExternalForces forces;
};

}  // namespace world_snapshot
using namespace world_snapshot;

// The used part of a fixed array: its count, checked when read. The slots past it hold whatever
// was there before and are never read, so they are not part of the state.
template <class A, class N>
static void usedCount(A& a, N& count, int capacity) {
  a(count);
  if (count < 0 || count > capacity)
    throw SnapshotError("snapshot: damaged (a count out of range)");
}

// Found by argument-dependent lookup from the archives, so declared in hb itself; internal
// linkage keeps them to this file.
template <class A, class T>
static void fields(A& a, T& p) requires std::is_same_v<std::remove_const_t<T>, Pose> {
  a(p.q);
  a(p.p);
}
template <class A, class T>
static void fields(A& a, T& s) requires std::is_same_v<std::remove_const_t<T>, SupportHints> {
  a(s.a);
  a(s.b);
}
template <class A, class T>
static void fields(A& a, T& s) requires std::is_same_v<std::remove_const_t<T>, WarmSimplex> {
  usedCount(a, s.size, static_cast<int>(s.a.size()));
  for (int k = 0; k < s.size; ++k) {
    a(s.a[k]);
    a(s.b[k]);
  }
}
template <class A, class T>
static void fields(A& a, T& s) requires std::is_same_v<std::remove_const_t<T>, PreviousSolution> {
  a(s.separation);
  a(s.witnessALocal);
  a(s.witnessBLocal);
  a(s.overlapping);
}
template <class A, class T>
static void fields(A& a, T& c) requires std::is_same_v<std::remove_const_t<T>, CachedContact> {
  a(c.pointOnA);
  a(c.force);
}
template <class A, class T>
static void fields(A& a, T& m) requires std::is_same_v<std::remove_const_t<T>, PersistentManifold> {
  a(m.relativePose);
  a(m.normalInA);
  usedCount(a, m.size, defaults::kMaxManifoldPoints);
  for (int k = 0; k < m.size; ++k) {
    a(m.pointsInA[k]);
    a(m.pointsInB[k]);
  }
  a(m.margin);
  a(m.depthGap);
}
template <class A, class T>
static void fields(A& a, T& e) requires std::is_same_v<std::remove_const_t<T>, PairCacheEntry> {
  a(e.previous);
  a(e.hints);
  a(e.simplex);
  usedCount(a, e.contactCount, static_cast<int>(e.contacts.size()));
  for (int k = 0; k < e.contactCount; ++k) a(e.contacts[k]);
  a(e.manifold);
  a(e.lastRound);
}
template <class A, class T>
static void fields(A& a, T& r) requires std::is_same_v<std::remove_const_t<T>, RigidBody> {
  a(r.position);
  a(r.orientation);
  a(r.linearVelocity);
  a(r.angularVelocity);
  a(r.inverseMass);
  a(r.inertiaBody);
  a(r.inverseInertiaBody);
  a(r.isStatic);
  a(r.sleeping);
  a(r.restingTime);
}
template <class A, class T>
static void fields(A& a, T& m) requires std::is_same_v<std::remove_const_t<T>, Material> {
  a(m.friction);
  a(m.restitution);
}
template <class A, class T>
static void fields(A& a, T& f) requires std::is_same_v<std::remove_const_t<T>, ExternalForces> {
  a(f.heldForce);
  a(f.heldTorque);
  a(f.nextForce);
  a(f.nextTorque);
}
template <class A, class T>
static void fields(A& a, T& j) requires std::is_same_v<std::remove_const_t<T>, Joint> {
  a(j.name);
  a(j.type);
  a(j.bodyA);
  a(j.bodyB);
  a(j.frameA);
  a(j.frameB);
  a(j.limit.enabled);
  a(j.limit.lower);
  a(j.limit.upper);
  a(j.motor.enabled);
  a(j.motor.targetVelocity);
  a(j.motor.maxForce);
  a(j.motor.targetPosition);
  a(j.motor.stiffness);
  a(j.motor.damping);
  for (int k = 0; k < 3; ++k) a(j.motor.targetTurn[k]);
  for (int k = 0; k < 3; ++k) a(j.motor.targetSpin[k]);
  a(j.spring.stiffness);
  a(j.spring.damping);
  a(j.spring.restPosition);
  a(j.friction);
  a(j.twist.enabled);
  a(j.twist.lower);
  a(j.twist.upper);
  for (int k = 0; k < 6; ++k) a(j.force[k]);
  a(j.lowerForce);
  a(j.upperForce);
  a(j.motorForce);
  a(j.springForce);
  a(j.frictionForce);
  a(j.twistLowerForce);
  a(j.twistUpperForce);
  for (int k = 0; k < 3; ++k) a(j.springTorque[k]);
  for (int k = 0; k < 3; ++k) a(j.frictionTorque[k]);
  for (int k = 0; k < 3; ++k) a(j.motorTorque[k]);
}

namespace world_snapshot {

template <class A, class T>
static void fields(A& a, T& b) requires std::is_same_v<std::remove_const_t<T>, BodyIdentity> {
  a(b.kind);
  a(b.name);
  a(b.parts);
  a(b.shapeType);
  a(b.dimensions);
  a(b.density);
  a(b.mass);
  a(b.pieces);
  a(b.hullVertices);
}
template <class A, class T>
static void fields(A& a, T& s) requires std::is_same_v<std::remove_const_t<T>, BodyState> {
  a(s.rigid);
  a(s.material);
  a(s.sleepIsland);
  a(s.forces);
}

BodyIdentity identityOf(const BodyDescription& d, const WorldBody& body, const Proxy* firstPiece) {
  BodyIdentity id;
  id.name = body.name;
  id.pieces = body.proxies.size();
  id.density = d.density;
  id.mass = d.mass;
  if (!d.shape.asset.empty()) {
    id.kind = BodyIdentity::Asset;
    id.parts = d.shape.parts;
    return id;
  }
  if (!d.shape.pieces.empty()) {  // a compound of inline pieces: known by its name and pieces
    id.kind = BodyIdentity::Other;
    return id;
  }
  const Shape& s = *d.shape.shape;
  id.shapeType = static_cast<std::uint8_t>(s.type());
  switch (s.type()) {
    case ShapeType::Sphere:
      id.kind = BodyIdentity::Primitive;
      id.dimensions = {s.radius(), 0.0, 0.0};
      break;
    case ShapeType::Box:
      id.kind = BodyIdentity::Primitive;
      id.dimensions = s.halfExtents();
      break;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
    case ShapeType::Cone:
      id.kind = BodyIdentity::Primitive;
      id.dimensions = {s.radius(), 0.0, s.halfLength()};
      break;
    case ShapeType::Ellipsoid:
      id.kind = BodyIdentity::Primitive;
      id.dimensions = s.radii();
      break;
    default:
      id.kind = BodyIdentity::Other;
      if (firstPiece && firstPiece->shape.type() == ShapeType::ConvexHull) {
        id.hullVertices = static_cast<std::uint64_t>(firstPiece->shape.hull().numVertices());
      }
      break;
  }
  return id;
}

/// The body description that adds a body of this identity again (assets and primitives).
BodyDescription describe(const BodyIdentity& id) {
  BodyDescription d;
  d.density = id.density;
  d.mass = id.mass;
  if (id.kind == BodyIdentity::Asset) {
    d.shape.asset = id.name;
    d.shape.parts = id.parts;
    return d;
  }
  const Eigen::Vector3d& x = id.dimensions;
  switch (static_cast<ShapeType>(id.shapeType)) {
    case ShapeType::Sphere:
      d.shape.shape = Shape::sphere(x.x());
      break;
    case ShapeType::Box:
      d.shape.shape = Shape::box(x);
      break;
    case ShapeType::Capsule:
      d.shape.shape = Shape::capsule(x.x(), x.z());
      break;
    case ShapeType::Cylinder:
      d.shape.shape = Shape::cylinder(x.x(), x.z());
      break;
    case ShapeType::Cone:
      d.shape.shape = Shape::cone(x.x(), x.z());
      break;
    case ShapeType::Ellipsoid:
      d.shape.shape = Shape::ellipsoid(x);
      break;
    default:
      throw SnapshotError("snapshot: damaged (a primitive body of an unknown shape type)");
  }
  return d;
}

/// Symmetric, positive definite, and the other's inverse (to rounding).
bool plausibleInertia(const Eigen::Matrix3d& inertia, const Eigen::Matrix3d& inverse) {
  if (!(inertia.allFinite() && inverse.allFinite())) return false;
  const double scale = inertia.cwiseAbs().maxCoeff();
  if (!((inertia - inertia.transpose()).cwiseAbs().maxCoeff() <= 1e-9 * scale)) return false;
  const Eigen::LLT<Eigen::Matrix3d> llt(inertia);
  return llt.info() == Eigen::Success &&
         (inertia * inverse - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() <= 1e-6;
}

/// A body state a step can take: finite, within the scene's reach, a unit orientation, a
/// positive mass and inertia for a dynamic body, the static flag where it belongs.
bool plausible(const BodyState& state, bool isStatic) {
  const RigidBody& r = state.rigid;
  if (r.isStatic != isStatic) return false;
  if (isStatic) return true;
  return r.isValid() && r.position.cwiseAbs().maxCoeff() <= defaults::kMaxLength &&
         r.linearVelocity.norm() <= kMaxBodySpeed &&
         r.angularVelocity.norm() <= kMaxBodyAngularSpeed && r.inverseMass > 0.0 &&
         std::isfinite(r.inverseMass) && plausibleInertia(r.inertiaBody, r.inverseInertiaBody) &&
         std::isfinite(r.restingTime) && std::isfinite(state.material.friction) &&
         state.material.friction >= 0.0 && state.material.restitution >= 0.0 &&
         state.material.restitution <= 1.0 && state.forces.heldForce.allFinite() &&
         state.forces.heldTorque.allFinite() && state.forces.nextForce.allFinite() &&
         state.forces.nextTorque.allFinite();
}

/// A pair cache entry whose numbers are all finite (a damaged one would warm-start NaN).
bool plausible(const PairCacheEntry& e) {
  if (e.previous && !(e.previous->separation.allFinite() && e.previous->witnessALocal.allFinite() &&
                      e.previous->witnessBLocal.allFinite())) {
    return false;
  }
  for (int k = 0; k < e.contactCount; ++k) {
    if (!(e.contacts[k].pointOnA.allFinite() && e.contacts[k].force.allFinite())) return false;
  }
  if (!e.manifold) return true;
  const PersistentManifold& m = *e.manifold;
  for (int k = 0; k < m.size; ++k) {
    if (!(m.pointsInA[k].allFinite() && m.pointsInB[k].allFinite())) return false;
  }
  return m.relativePose.isValid() && m.normalInA.allFinite() && std::isfinite(m.margin) &&
         std::isfinite(m.depthGap);
}

/// A joint of known type between two bodies of the snapshot, its values finite.
bool plausible(const Joint& j, std::size_t bodies) {
  const auto body = [&](int b) { return b >= 0 && static_cast<std::size_t>(b) < bodies; };
  const int type = static_cast<int>(j.type);
  if (!body(j.bodyA) || !body(j.bodyB) || j.bodyA == j.bodyB || type < 0 || type > 3) return false;
  const double values[] = {j.limit.lower,
                           j.limit.upper,
                           j.motor.targetVelocity,
                           j.motor.maxForce,
                           j.motor.targetPosition,
                           j.motor.stiffness,
                           j.motor.damping,
                           j.spring.stiffness,
                           j.spring.damping,
                           j.spring.restPosition,
                           j.friction,
                           j.lowerForce,
                           j.upperForce,
                           j.motorForce,
                           j.springForce,
                           j.frictionForce,
                           j.force[0],
                           j.force[1],
                           j.force[2],
                           j.force[3],
                           j.force[4],
                           j.force[5],
                           j.twist.lower,
                           j.twist.upper,
                           j.twistLowerForce,
                           j.twistUpperForce,
                           j.springTorque[0],
                           j.springTorque[1],
                           j.springTorque[2],
                           j.frictionTorque[0],
                           j.frictionTorque[1],
                           j.frictionTorque[2],
                           j.motorTorque[0],
                           j.motorTorque[1],
                           j.motorTorque[2],
                           j.motor.targetTurn[0],
                           j.motor.targetTurn[1],
                           j.motor.targetTurn[2],
                           j.motor.targetSpin[0],
                           j.motor.targetSpin[1],
                           j.motor.targetSpin[2]};
  return std::all_of(std::begin(values), std::end(values),
                     [](double x) { return std::isfinite(x); }) &&
         j.frameA.isValid() && j.frameB.isValid();
}

/// What a snapshot holds, read in full before the world changes.
struct Snapshot {
  std::uint64_t fingerprint = 0;
  long stepCount = 0;
  long collisionRound = 0;
  long sleepIslands = 0;
  bool nonFinite = false;
  double energyIn = 0.0;
  double energyScale = 0.0;
  int spawned = 0;
  double spawnHeight = 0.0;
  std::string spawnRng;
  std::vector<BodyIdentity> identities;
  std::vector<BodyState> states;
  std::vector<std::pair<std::uint64_t, PairCacheEntry>> pairs;
  std::vector<Joint> joints;
};

template <class A, class T>
static void fields(A& a, T& s) requires std::is_same_v<std::remove_const_t<T>, Snapshot> {
  a(s.fingerprint);
  a(s.stepCount);
  a(s.collisionRound);
  a(s.sleepIslands);
  a(s.nonFinite);
  a(s.energyIn);
  a(s.energyScale);
  a(s.spawned);
  a(s.spawnHeight);
  a(s.spawnRng);
  a(s.identities);
  a(s.states);
  a(s.pairs);
  a(s.joints);
}

}  // namespace world_snapshot

template <class A, class T>
static void fields(A& a, T& p) requires
    std::is_same_v<std::remove_const_t<T>, std::pair<std::uint64_t, PairCacheEntry>> {
  a(p.first);
  a(p.second);
}

namespace {

/// The statics, step length and collision settings a snapshot's bodies were built with.
std::uint64_t sceneFingerprint(const SceneDescription& scene, const std::vector<Proxy>& proxies) {
  ByteWriter w;
  w(scene.dt);
  w(scene.hullTolerance);
  w(scene.defaultDensity);
  for (const Proxy& p : proxies) {
    if (p.body != 0) continue;
    w(static_cast<std::uint8_t>(p.shape.type()));
    w(p.inBody);
    w(p.localObb.center);
    w(p.localObb.halfExtents);
  }
  const std::vector<std::uint8_t> bytes = w.take();
  Fnv1a64 h;
  h.add(bytes.data(), bytes.size());
  return h.value();
}

}  // namespace

std::vector<std::uint8_t> World::saveState() const {
  Snapshot s;
  s.fingerprint = sceneFingerprint(scene_, pieces_.proxy);
  s.stepCount = stepCount_;
  s.collisionRound = collisionRound_;
  s.sleepIslands = sleepIslands_;
  s.nonFinite = nonFinite_;
  s.energyIn = energyIn_;
  s.energyScale = energyScale_;
  s.spawned = spawned_;
  s.spawnHeight = spawnHeight_;
  std::ostringstream rng;
  rng << spawnRng_;
  s.spawnRng = rng.str();
  for (size_t i = 1; i < bodies_.info.size(); ++i) {
    const WorldBody& b = bodies_.info[i];
    s.identities.push_back(identityOf(bodies_.description[i], b,
                                      b.proxies.empty() ? nullptr : &pieces_.proxy[b.proxies[0]]));
  }
  for (size_t i = 0; i < bodies_.info.size(); ++i) {
    s.states.push_back(
        {bodies_.state[i], bodies_.info[i].material, bodies_.sleepIsland[i], bodies_.forces[i]});
  }
  pairCache_.forEachInOrder([&](int i, int j, const PairCacheEntry& e) {
    s.pairs.emplace_back(PairCache::key(i, j), e);
  });
  s.joints = joints_;
  ByteWriter w;
  for (const char c : kMagic) w(c);
  w(kFormatVersion);
  w(s);
  return w.take();
}

namespace world_snapshot {

/// Reads a snapshot in full and checks what it can on its own: the header, that it ends where it
/// says, that its numbers are finite and in range, its random engine. Throws SnapshotError.
Snapshot readSnapshot(std::span<const std::uint8_t> bytes, std::mt19937& rng) {
  ByteReader r(bytes);
  char magic[8] = {};
  try {
    for (char& c : magic) r(c);
  } catch (const SnapshotError&) {
    throw SnapshotError("snapshot: not a heavyball snapshot (too short)");
  }
  if (std::memcmp(magic, kMagic, sizeof magic) != 0) {
    throw SnapshotError("snapshot: not a heavyball snapshot (it does not start with 'hbsnap')");
  }
  std::uint32_t version = 0;
  r(version);
  if (version != kFormatVersion) {
    throw SnapshotError("snapshot: format version " + std::to_string(version) +
                        ", this build reads version " + std::to_string(kFormatVersion));
  }
  Snapshot s;
  r(s);
  if (!r.atEnd()) throw SnapshotError("snapshot: damaged (bytes past its end)");
  if (s.states.size() != s.identities.size() + 1) {
    throw SnapshotError("snapshot: damaged (its body states and bodies do not match)");
  }
  for (size_t i = 0; i < s.states.size(); ++i) {
    if (!plausible(s.states[i], i == 0)) {
      throw SnapshotError("snapshot: damaged (body " + std::to_string(i) +
                          "'s state is not finite, in range and of its kind)");
    }
  }
  for (const auto& [key, entry] : s.pairs) {
    if (!plausible(entry)) throw SnapshotError("snapshot: damaged (a cached pair is not finite)");
  }
  for (const Joint& joint : s.joints) {
    if (!plausible(joint, s.states.size())) {
      throw SnapshotError("snapshot: damaged (a joint's bodies, type or values)");
    }
  }
  if (!(s.stepCount >= 0 && s.spawned >= 0 && std::isfinite(s.spawnHeight) &&
        std::isfinite(s.energyIn) && std::isfinite(s.energyScale))) {
    throw SnapshotError("snapshot: damaged (its counters)");
  }
  std::istringstream rngText(s.spawnRng);
  rngText >> rng;
  if (rngText.fail()) throw SnapshotError("snapshot: damaged (the spawner's random state)");
  return s;
}

}  // namespace world_snapshot

size_t World::checkSnapshotFits(const Snapshot& s) const {
  if (s.fingerprint != sceneFingerprint(scene_, pieces_.proxy)) {
    throw SnapshotError(
        "snapshot: of another scene (its statics, time step, density or hull tolerance differ "
        "from this world's)");
  }
  // Every body both have must be the same body; the snapshot's others must be ones it can add.
  const size_t common = std::min(bodies_.info.size(), s.states.size());
  for (size_t i = 1; i < s.states.size(); ++i) {
    const BodyIdentity& wanted = s.identities[i - 1];
    if (i < common) {
      const WorldBody& b = bodies_.info[i];
      const BodyIdentity here = identityOf(
          bodies_.description[i], b, b.proxies.empty() ? nullptr : &pieces_.proxy[b.proxies[0]]);
      if (!(here == wanted)) {
        throw SnapshotError("snapshot: of another world (body " + std::to_string(i) + " is '" +
                            here.name + "' here and '" + wanted.name + "' in the snapshot)");
      }
    } else if (wanted.kind == BodyIdentity::Other) {
      throw SnapshotError("snapshot: body " + std::to_string(i) + " ('" + wanted.name +
                          "') is not in this world, and a snapshot cannot add an inline mesh, "
                          "superquadric or support-function body again: add it first");
    }
  }
  // The pieces the world will have: those of the common bodies, then the added ones'.
  std::uint64_t pieces = common < bodies_.info.size() && !bodies_.info[common].proxies.empty()
                             ? static_cast<std::uint64_t>(bodies_.info[common].proxies.front())
                             : pieces_.proxy.size();
  for (size_t i = common; i < s.states.size(); ++i) pieces += s.identities[i - 1].pieces;
  for (const auto& [key, entry] : s.pairs) {
    if ((key >> 32) >= (key & 0xffffffffu) || (key & 0xffffffffu) >= pieces) {
      throw SnapshotError("snapshot: damaged (a cached pair names pieces the world does not have)");
    }
  }
  return common;
}

void World::restoreState(std::span<const std::uint8_t> bytes) {
  std::mt19937 rng;
  const Snapshot s = readSnapshot(bytes, rng);
  const size_t common = checkSnapshotFits(s);
  // From here on the world changes.
  truncateBodies(static_cast<int>(common));
  for (size_t i = common; i < s.states.size(); ++i) addBody(describe(s.identities[i - 1]));
  for (size_t i = 0; i < s.states.size(); ++i) {
    bodies_.state[i] = s.states[i].rigid;
    bodies_.info[i].material = s.states[i].material;
    bodies_.sleepIsland[i] = s.states[i].sleepIsland;
    bodies_.forces[i] = s.states[i].forces;
  }
  pairCache_.clear();
  for (const auto& [key, entry] : s.pairs) {
    pairCache_.entry(static_cast<int>(key >> 32), static_cast<int>(key & 0xffffffffu)) = entry;
  }
  stepCount_ = s.stepCount;
  collisionRound_ = s.collisionRound;
  sleepIslands_ = s.sleepIslands;
  nonFinite_ = s.nonFinite;
  energyIn_ = s.energyIn;
  energyScale_ = s.energyScale;
  joints_ = s.joints;
  updateJointedBodies();
  spawned_ = s.spawned;
  spawnHeight_ = s.spawnHeight;
  spawnRng_ = rng;
  broadPhase_.reset();
  updateWorldObbs();
}

void World::reset() {
  restoreState(initialState_);
}

void World::truncateBodies(int count) {
  if (count >= bodies_.size()) return;
  const int firstPiece =
      bodies_.info[count].proxies.empty() ? pieces_.size() : bodies_.info[count].proxies.front();
  bodies_.truncate(count);
  pieces_.truncate(firstPiece);
  std::erase_if(joints_, [&](const Joint& j) { return j.bodyA >= count || j.bodyB >= count; });
  updateJointedBodies();
  pairCache_.eraseIf([&](int i, int j) { return i >= firstPiece || j >= firstPiece; });
}

}  // namespace hb
