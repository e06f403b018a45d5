#include "engine/world.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

#include "collision/defaults.hpp"
#include "collision/obb.hpp"
#include "collision/portable_math.hpp"
#include "engine/drop_clearance.hpp"
#include "engine/funnel.hpp"

namespace hb {
namespace {

// Velocities beyond these overflow the step's arithmetic long before anything could hit them.
void requireVelocitiesInRange(const Eigen::Vector3d& linear, const Eigen::Vector3d& angular,
                              const std::string& where) {
  if (!(linear.allFinite() && linear.norm() <= kMaxBodySpeed && angular.allFinite() &&
        angular.norm() <= kMaxBodyAngularSpeed)) {
    std::ostringstream what;
    what << where << ": velocities must be finite, at most " << kMaxBodySpeed << " m/s and "
         << kMaxBodyAngularSpeed << " rad/s";
    throw std::invalid_argument(what.str());
  }
}

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// A large thin box whose top face is the plane z = height.
constexpr double kGroundHalfSize = 50.0;
constexpr double kGroundHalfThickness = 0.5;

Eigen::Vector3d uniformInBall(std::mt19937& rng, double radius) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (;;) {
    const Eigen::Vector3d v(u(rng), u(rng), u(rng));
    if (v.squaredNorm() <= 1.0) return radius * v;
  }
}

Eigen::Quaterniond uniformRotation(std::mt19937& rng) {
  // A point uniform in the unit 4-ball, normalised, is uniform on the rotations' sphere (no
  // logarithm, as a normal distribution's would be: the same draws on every CPU).
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (;;) {
    const Eigen::Vector4d v(u(rng), u(rng), u(rng), u(rng));
    const double n2 = v.squaredNorm();
    if (n2 <= 1.0 && n2 > 1e-12) return Eigen::Quaterniond(v.x(), v.y(), v.z(), v.w()).normalized();
  }
}

/// The shape a piece collides as: boxes and hulls rounded by the scene's convex radius (their
/// cores shared process-wide), so that resting contacts are GJK distances between cores; other
/// shapes as given.
Shape collisionShape(const Shape& shape, const SolverDescription& solver) {
  if (shape.type() != ShapeType::Box && shape.type() != ShapeType::ConvexHull) return shape;
  return shape.withConvexRadius(solver.convexRadius);
}

/// A primitive's (or a mesh's) mass properties at `density`, in the shape's frame.
MassProperties shapeMassProperties(const Shape& shape, double density) {
  switch (shape.type()) {
    case ShapeType::Box:
      return boxMassProperties(shape.halfExtents(), density);
    case ShapeType::Sphere:
      return sphereMassProperties(shape.radius(), density);
    case ShapeType::Capsule:
      return capsuleMassProperties(shape.radius(), shape.halfLength(), density);
    case ShapeType::Cylinder:
      return cylinderMassProperties(shape.radius(), shape.halfLength(), density);
    case ShapeType::Cone:
      return coneMassProperties(shape.radius(), shape.halfLength(), density);
    case ShapeType::Ellipsoid:
      return ellipsoidMassProperties(shape.radii(), density);
    case ShapeType::ConvexHull:
    case ShapeType::Superquadric:  // integrated over its tessellation (Shape::hull())
    case ShapeType::SupportPoints:
      break;
  }
  return hullMassProperties(shape.hull(), density);
}

/// A box around compound pieces, in the frame they are posed in: fitted to their boxes' corners.
Obb piecesBox(const std::vector<ShapePiece>& pieces) {
  std::vector<Eigen::Vector3d> corners;
  for (const ShapePiece& piece : pieces) {
    for (const Eigen::Vector3d& c : localObb(piece.shape).corners()) {
      corners.push_back(piece.pose.apply(c));
    }
  }
  return fitObb(corners);
}

}  // namespace

World::World(const SceneDescription& scene, int threads)
    : scene_(scene), workers_(threads), spawnRng_(1) {
  connectWorkers();
  assets_ = std::make_unique<AssetLibrary>(scene_.assetDir, scene_.hullTolerance);
  // Body 0 holds every static piece: the ground, the funnel and static shapes.
  WorldBody world;
  world.name = "static";
  bodies_.add(std::move(world), RigidBody::fixed(), BodyDescription{});
  for (const StaticDescription& s : scene_.statics) addStatic(s);
  for (const BodyDescription& b : scene_.bodies) addBody(b);
  for (const JointDescription& j : scene_.joints) addJoint(j);
  if (scene_.spawner) {
    spawnRng_.seed(scene_.spawner->seed);
    const bool everyAsset = scene_.spawner->assets.empty() && scene_.spawner->shapes.empty();
    spawnAssets_ = everyAsset ? assets_->names() : scene_.spawner->assets;
    // Load every candidate now: building hulls, their rounded cores, OBBs and mass properties
    // takes milliseconds per mesh, which must not land inside a step. The hulls are built on
    // the world's threads at once, into the process's shared cache, then taken in order.
    if (!spawnAssets_.empty() && workers_.threads() > 1) {
      preloadAssets(scene_.assetDir, spawnAssets_, scene_.defaultDensity, scene_.hullTolerance,
                    workers_.threads());
    }
    for (const std::string& name : spawnAssets_) {
      collisionShape(assets_->get(name, scene_.defaultDensity)->shape, scene_.solver);
      if (scene_.spawner->parts) {
        for (const Shape& part : assets_->getParts(name, scene_.defaultDensity)->parts) {
          collisionShape(part, scene_.solver);
        }
      }
    }
    spawnDue();
  }
  updateWorldObbs();
  initialState_ = saveState();
}

void World::addStatic(const StaticDescription& s) {
  // Static materials live on the proxies' body (0); one material per scene's statics is kept,
  // the last one given, since body 0 has a single material.
  bodies_.info[0].material = s.material;
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

namespace {

/// A radius about the box's centre within which the whole shape lies: the box's half-diagonal,
/// or less for a sphere or a hull (whose furthest vertex, moved out by its rounding, bounds it).
double boundingRadius(const Shape& shape, const Obb& box) {
  double radius = box.halfExtents.norm();
  if (shape.type() == ShapeType::Sphere) {
    radius = std::min(radius, box.center.norm() + shape.radius());
  } else if (shape.type() == ShapeType::ConvexHull) {
    double furthest = 0.0;
    for (const Eigen::Vector3d& v : shape.hull().vertices()) {
      furthest = std::max(furthest, (v - box.center).norm());
    }
    radius = std::min(radius, furthest + shape.convexRadius());
  }
  return radius;
}

}  // namespace

int World::addProxy(int body, const Shape& shape, const Pose& inBody, const Obb* localObb) {
  Proxy p;
  p.body = body;
  p.shape = collisionShape(shape, scene_.solver);
  p.inBody = inBody;
  p.localObb = localObb ? *localObb : hb::localObb(shape);
  p.boundingRadius = boundingRadius(p.shape, p.localObb);
  // The body's reach: the furthest corner of its pieces' boxes from its centre of mass.
  for (const Eigen::Vector3d& corner : p.localObb.corners()) {
    bodies_.reach[body] = std::max(bodies_.reach[body], inBody.apply(corner).norm());
  }
  bodies_.thickness[body] =
      std::min(bodies_.thickness[body], 2.0 * p.localObb.halfExtents.minCoeff());
  const double pieceReach = p.localObb.center.norm() + p.localObb.halfExtents.norm();
  const Obb box = p.localObb.transformed(piecePose(body, inBody));
  const bool isStatic = bodies_.state[body].isStatic;
  pieces_.add(std::move(p), isStatic, pieceReach, box);
  const int piece = pieces_.size() - 1;
  bodies_.info[body].proxies.push_back(piece);
  if (!isStatic) raiseDynamicTop(box);
  return piece;
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
    body.asset = d.shape.parts ? assets_->getParts(d.shape.asset, density)
                               : assets_->get(d.shape.asset, density);
    body.name = d.shape.asset;
    shape = body.asset->shape;
    meshInBody = body.asset->meshInBody;
    obb = &body.asset->localObb;
    mass = body.asset->massProperties;
  } else if (!d.shape.pieces.empty()) {
    body.name = "compound";
    std::vector<PlacedMass> parts;
    for (const ShapePiece& piece : d.shape.pieces) {
      parts.push_back(
          {shapeMassProperties(piece.shape, density), piece.pose.rotation(), piece.pose.p});
    }
    mass = combinedMassProperties(parts);
    meshInBody = Pose::translation(-mass.centerOfMass);
  } else {
    shape = *d.shape.shape;
    body.name = std::string(toString(shape.type()));
    mass = shapeMassProperties(shape, density);
    // The body frame sits at the centre of mass (a cone's, a hull's are off the shape's origin).
    meshInBody = Pose::translation(-mass.centerOfMass);
  }
  if (d.mass) mass = withMass(mass, *d.mass);
  if (d.inertial) {
    // Given outright (the shape's volume kept): the body frame at its centre of mass.
    mass.mass = d.inertial->mass;
    mass.centerOfMass = d.inertial->centerOfMass;
    mass.inertia = d.inertial->inertia;
    meshInBody = Pose::translation(-mass.centerOfMass);
  }
  requireVelocitiesInRange(d.linearVelocity, d.angularVelocity, "body '" + body.name + "'");
  RigidBody rigid;
  try {
    rigid = RigidBody::dynamic(mass);
  } catch (const MassPropertiesError& e) {
    throw MassPropertiesError("body '" + body.name + "': " + e.what());
  }
  // The description poses the shape's own frame; the body frame sits at the centre of mass.
  const Pose bodyPose = d.pose * meshInBody.inverse();
  rigid.position = bodyPose.p;
  rigid.orientation = bodyPose.q;
  rigid.linearVelocity = d.linearVelocity;
  rigid.angularVelocity = d.angularVelocity;
  bodies_.add(std::move(body), rigid, d);
  const int index = bodies_.size() - 1;
  if (d.shape.parts) {
    const ConvexAsset& asset = *bodies_.info[index].asset;
    bodies_.compoundBox[index] = asset.localObb.transformed(meshInBody);
    for (size_t k = 0; k < asset.parts.size(); ++k)
      addProxy(index, asset.parts[k], meshInBody, &asset.partBoxes[k]);
  } else if (!d.shape.pieces.empty()) {
    bodies_.compoundBox[index] = piecesBox(d.shape.pieces).transformed(meshInBody);
    for (const ShapePiece& piece : d.shape.pieces)
      addProxy(index, piece.shape, meshInBody * piece.pose);
  } else {
    addProxy(index, shape, meshInBody, obb);
  }
  energyIn_ += bodyEnergy(rigid);
  energyScale_ += rigid.kineticEnergy() + scene_.gravity.norm() / rigid.inverseMass;
  return index;
}

Pose World::piecePose(int body, const Pose& inBody) const {
  return hb::bodyPose(bodies_, body) * inBody;
}

void World::spawnDue() {
  const SpawnerDescription& s = *scene_.spawner;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  // The candidates: the assets, then the shapes.
  std::uniform_int_distribution<size_t> pick(0, spawnAssets_.size() + s.shapes.size() - 1);
  while (spawned_ < s.count) {
    // Interval 0: everything now, stacked in a column; otherwise one drop per interval.
    if (s.interval > 0.0 && time() + 1e-12 < spawned_ * s.interval) break;
    BodyDescription d;
    const size_t choice = pick(spawnRng_);
    d.material = s.material;
    // What the drop needs of it: its shape, bounding box and centre of mass (a shape's: its
    // origin, close enough for a drop point).
    const Shape* shape = nullptr;
    Obb box;
    Eigen::Vector3d com = Eigen::Vector3d::Zero();
    if (choice < spawnAssets_.size()) {
      d.shape.asset = spawnAssets_[choice];
      d.shape.parts = s.parts;
      const auto asset = s.parts ? assets_->getParts(d.shape.asset, scene_.defaultDensity)
                                 : assets_->get(d.shape.asset, scene_.defaultDensity);
      shape = &asset->shape;
      box = asset->localObb;
      com = asset->massProperties.centerOfMass;
    } else {
      d.shape.shape = s.shapes[choice - spawnAssets_.size()];
      shape = &*d.shape.shape;
      box = localObb(*shape);
    }
    const double angle = 2.0 * std::numbers::pi * unit(spawnRng_);
    const double r = s.radius * std::sqrt(unit(spawnRng_));
    double z = s.center.z();
    if (s.interval <= 0.0) {
      // A column: each body above the previous one by its bounding diameter.
      const double size = 2.0 * box.halfExtents.norm();
      z += spawnHeight_ + 0.5 * size;
      spawnHeight_ += size;
    } else {
      z += s.height * unit(spawnRng_);
    }
    const Eigen::Quaterniond q = uniformRotation(spawnRng_);
    // Place the centre of mass at the drawn point.
    d.pose.q = q;
    d.pose.p = Eigen::Vector3d(s.center.x() + r * portable::cos(angle),
                               s.center.y() + r * portable::sin(angle), z) -
               q * com;
    d.linearVelocity = uniformInBall(spawnRng_, s.maxLinearSpeed);
    d.angularVelocity = uniformInBall(spawnRng_, s.maxAngularSpeed);
    // Once the pile reaches the drop region, a drop can land inside it.
    if (s.liftClear) {
      liftClearOfBodies(*this, d, *shape, box, DropClearance::Shapes);
    }
    addBody(d);
    ++spawned_;
  }
}

Pose World::bodyPose(int i) const {
  return hb::bodyPose(bodies_, i);
}

Pose World::proxyPose(int p) const {
  return hb::piecePose(bodies_, pieces_.proxy[p]);
}

template <class Run>
void World::runStage(Stage stage, Run run) {
  const Clock::time_point start = Clock::now();
  run();
  stats_.stageMs[static_cast<int>(stage)] += msSince(start);
}

void World::step() {
  // A world with an invalid body stops: nothing past it means anything, and its infinite or
  // unnormalised values would trip every later stage (the summary reports the state).
  if (nonFinite_) return;
  stats_ = StepStatistics{};
  stats_.step = stepCount_;
  if (scene_.spawner) spawnDue();
  driveScheduledJoints();
  wakeForced();
  // The data path of docs/design.md, top to bottom; each stage hands on through context_.
  // Substeps, as many as each island's fastest turn asks for (planSubsteps): the first narrow
  // phase (its boxes grown for the whole step) decides how many, and each substep runs the data
  // path down to the bounces.
  const SolverDescription& settings = scene_.solver;
  StepContext& c = context_;
  substeps_ = 1;
  substep_ = 0;
  findAndCollide();
  const int most = planSubsteps(settings, scene_.dt, bodies_, pieces_, joints_, c);
  if (c.passSubsteps.size() == 1) {
    runSubsteps(most, collisionRound_ + most - 1);
    noteWokenBodies(most);
  } else {
    runPasses();
  }
  substeps_ = most;
  for (const int n : c.bodySubsteps) stats_.splitBodies += n > 1 ? 1 : 0;
  stats_.substeps = substeps_;
  for (ExternalForces& f : bodies_.forces) f.nextForce = f.nextTorque = Eigen::Vector3d::Zero();
  runStage(Stage::Sleep, [&] {  // islands at rest fall asleep
    if (!sleep(settings, scene_.dt, bodies_, joints_, sleepIslands_, c, stats_)) {
      nonFinite_ = true;
    }
  });
  ++stepCount_;
  stats_.bodies = static_cast<int>(bodies_.info.size()) - 1;
  // Both energies in one pass over the bodies.
  double kinetic = 0.0, mechanical = 0.0;
  for (const RigidBody& b : bodies_.state) {
    if (b.isStatic) continue;
    kinetic += b.kineticEnergy();
    mechanical += bodyEnergy(b);
  }
  stats_.kineticEnergy = kinetic;
  stats_.energyGain = mechanical - energyIn_;
  stats_.energyGrew = stats_.energyGain > energyGainLimit();
  for (const auto& observer : observers_) observer(*this);
}

void World::findAndCollide() {
  const SolverDescription& settings = scene_.solver;
  StepContext& c = context_;
  runStage(Stage::FindPairs, [&] {  // world boxes, broad phase
    findPairs(settings, clock(), bodies_, pieces_, jointedBodies_, broadPhase_, workers_, c);
  });
  ++collisionRound_;
  runStage(Stage::Collide, [&] {  // narrow phase, waking what it touches
    collide(settings, manifoldReuse_, clock(), bodies_, pieces_, pairCache_, workers_, c, stats_);
  });
}

void World::runSubsteps(int count, long lastRound) {
  const SolverDescription& settings = scene_.solver;
  StepContext& c = context_;
  substeps_ = count;
  for (substep_ = 0; substep_ < count; ++substep_) {
    if (substep_ > 0) findAndCollide();  // the first substep's narrow phase ran before
    const std::vector<Eigen::Vector3d> jointSpeeds = drivenJointVelocities();
    runStage(Stage::BuildContacts, [&] {  // manifolds -> contact constraints
      const StepClock now = clock();
      buildContacts({now, scene_.gravity, manifoldReuse_, bodies_, pieces_}, workers_, c, stats_);
    });
    runStage(Stage::IntegrateVelocities, [&] {  // forces, gravity, gyroscopic term
      integrateVelocities(settings, scene_.gravity, clock(), bodies_, integrator_,
                          {energyIn_, energyScale_}, c, stats_);
    });
    runStage(Stage::Solve, [&] {  // contacts: PGS
      solve(settings, scene_.gravity, clock(), bodies_, joints_, solver_, c, stats_);
    });
    runStage(Stage::UpdatePairCache, [&] {  // for the next (sub)step
      // After its last substep a pair's next narrow phase is the next step's first, whatever
      // rounds other islands' passes run in between.
      StepClock now = clock();
      if (substep_ == count - 1) now.round = lastRound;
      updatePairCache(now, bodies_, pieces_, workers_, c, pairCache_);
    });
    runStage(Stage::Integrate, [&] {  // poses from the velocities
      integrate(settings, clock(), bodies_, integrator_, c);
    });
    runStage(Stage::ContinuousCollision, [&] {  // fast bodies swept, then the world boxes
      continuousCollision(settings, clock(), bodies_, pieces_, workers_, c, stats_);
      // Current between steps for whoever places a drop (liftClearOfBodies) or draws them.
      updateWorldObbs();
    });
    runStage(Stage::Restitution, [&] { restitution(bodies_, solver_); });  // bounces
    energyIn_ += jointDriveWork(jointSpeeds);
  }
}

void World::noteWokenBodies(int substeps) {
  // Bodies a contact woke after the plan took the substeps of the island that woke them.
  std::vector<int>& taken = context_.bodySubsteps;
  for (size_t i = 0; i < taken.size(); ++i) {
    if (taken[i] == 0 && bodies_.state[i].isActive()) taken[i] = substeps;
  }
}

void World::runPasses() {
  // Islands that stay apart for the step (planSubsteps) take it in passes, one per count of
  // substeps, most first: a pass's islands step while every other awake body is held still, as
  // if asleep, and each pass starts from its share of the first narrow phase. A pair's record
  // goes with the island of the most substeps of its bodies' (a body not awake took none);
  // pairs of two islands do not touch, and the later substeps of that island's pass find them
  // again with the first narrow phase's answer as their previous one.
  StepContext& c = context_;
  std::swap(c.firstRecords, c.narrowPhase);
  c.firstPairs = c.pairs;
  c.passRecords.clear();
  c.passContacts.clear();
  int reused = 0;
  long lastRound = collisionRound_;
  for (const int n : c.passSubsteps) lastRound += n - 1;
  const auto passOf = [&](const NarrowPhaseRecord& record) {
    return std::max(c.bodySubsteps[pieces_.proxy[record.proxyA].body],
                    c.bodySubsteps[pieces_.proxy[record.proxyB].body]);
  };
  c.held.assign(bodies_.state.size(), 0);
  for (const int n : c.passSubsteps) {
    // The first substep's continuous collision sweeps the pairs of the first broad phase (a
    // later pass's broad phase held this pass's bodies still).
    c.pairs = c.firstPairs;
    c.narrowPhase.clear();
    for (const NarrowPhaseRecord& record : c.firstRecords) {
      if (passOf(record) == n) c.narrowPhase.push_back(record);
    }
    // Earlier passes rebuilt the pair cache: find the entries again (those of held pairs stayed).
    PairCache::Cursor cursor(pairCache_);
    for (NarrowPhaseRecord& record : c.narrowPhase) {
      record.cache = cursor.find(record.proxyA, record.proxyB);
    }
    for (size_t i = 0; i < bodies_.state.size(); ++i) {
      RigidBody& r = bodies_.state[i];
      c.held[i] = r.isActive() && c.bodySubsteps[i] != n ? 1 : 0;
      if (c.held[i]) r.sleeping = true;
    }
    runSubsteps(n, lastRound);
    for (size_t i = 0; i < bodies_.state.size(); ++i) {
      if (c.held[i]) bodies_.state[i].sleeping = false;
    }
    noteWokenBodies(n);
    // The pass's last substep, gathered: its records and their contacts.
    const int offset = static_cast<int>(c.passContacts.size());
    for (NarrowPhaseRecord& record : c.narrowPhase) {
      record.firstContact += offset;
      c.passRecords.push_back(std::move(record));
    }
    c.passContacts.insert(c.passContacts.end(), c.contacts.begin(), c.contacts.end());
    reused += c.reusedManifolds;
  }
  c.held.clear();
  std::swap(c.narrowPhase, c.passRecords);
  std::swap(c.contacts, c.passContacts);
  c.reusedManifolds = reused;
  stats_.contacts = static_cast<int>(c.contacts.size());
  stats_.candidatePairs = static_cast<int>(c.narrowPhase.size());
}

StepClock World::clock() const {
  return {substepLength(), substep_, collisionRound_, stepCount_};
}

void World::raiseDynamicTop(const Obb& box) {
  highestDynamicTop_ = std::max(highestDynamicTop_, box.center.z() + box.aabbHalfExtents().z());
}

void World::setThreads(int threads) {
  workers_ = WorkerPool(threads);
  connectWorkers();
}

void World::connectWorkers() {
  const auto forEach = [this](std::size_t count, const std::function<void(std::size_t)>& item) {
    workers_.forEach(count, item);
  };
  solver_.setParallelFor(forEach);
  broadPhase_.setForEach(forEach);
  integrator_.setParallelFor(forEach);
  solver_.setTeam(
      [this](std::size_t count, const std::function<void(std::size_t)>& task) {
        workers_.runTasks(count, task);
      },
      workers_.threads());
}

int World::escapedBodies() const {
  int escaped = 0;
  for (const RigidBody& b : bodies_.state) {
    if (b.isStatic) continue;
    const Eigen::Vector3d& p = b.position;
    if ((p.array() < scene_.boundsMin.array()).any() ||
        (p.array() > scene_.boundsMax.array()).any() || !p.allFinite()) {
      ++escaped;
    }
  }
  return escaped;
}

double World::bodyEnergy(const RigidBody& b) const {
  return b.kineticEnergy() - scene_.gravity.dot(b.position) / b.inverseMass;
}

double World::mechanicalEnergy() const {
  double e = 0.0;
  for (const RigidBody& b : bodies_.state) {
    if (!b.isStatic) e += bodyEnergy(b);
  }
  return e;
}

double World::kineticEnergy() const {
  double e = 0.0;
  for (const RigidBody& b : bodies_.state) e += b.kineticEnergy();
  return e;
}

}  // namespace hb
