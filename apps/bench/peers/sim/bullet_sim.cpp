// Bullet peer of `heavyball bench sim`: btDiscreteDynamicsWorld with btDbvtBroadphase and
// btSequentialImpulseConstraintSolver at its defaults, double precision when the float64 build
// is installed.
//
// Shapes. A btConvexHullShape is made of the hull's own vertices. Bullet rounds convex shapes by
// a collision margin: a hull is its points grown by the margin, a box keeps its size and rounds
// its edges. The margin is 1 mm (Bullet's default of 4 cm is for metre-sized objects), so Bullet's
// bodies are 1 mm larger than their hulls. Insetting the hulls by the margin would keep their
// faces, but the inset polytopes of the YCB hulls have two to four times as many vertices, and
// Bullet's hull support function visits every vertex.
//
// Frames. A btRigidBody's frame is its principal frame: heavyball's body frame turned by the
// inertia's principal rotation. The rotation is baked into the hull points (a btCompoundShape
// child transform would do the same at the cost of a compound per body). A compound body
// ("collision": "parts") is a btCompoundShape of its pieces' hulls, baked the same way.
//
// Materials. Bullet multiplies the two frictions and the two restitutions of a contact;
// heavyball takes the geometric mean of the frictions and the larger restitution. Bullet's
// global combination callbacks are set to heavyball's rules while a BulletSim exists.
//
// Joints. A joint enters when the later of its bodies does, with its frames taken at the bodies'
// poses then (as heavyball's World::addJoint does), and the pair it links stops colliding. A
// spherical joint is a btPoint2PointConstraint, a fixed one a btFixedConstraint, a prismatic one a
// btSliderConstraint (its x axis along the joint's axis, rotation about it locked). A revolute
// joint is a btHingeConstraint whose z is the axis, built with heavyball's B as Bullet's body A:
// Bullet's hinge angle is the angle of its body A relative to its body B, right-handed about z
// (it measures B's turn relative to A left-handed), so with the bodies swapped it is heavyball's
// joint angle and limits and motor targets go in unchanged. Bullet's hinge limit is a stop that
// acts once crossed, its error scaled by a bias factor and its approach speed reflected by a
// "relaxation" factor (a restitution); the stops here are Baumgarte-corrected at the world's ERP
// (bias factor 1) and do not bounce (relaxation 0). What Bullet's joints do not have (a position
// servo, a spring, joint friction, hinge limits beyond +-pi) is refused, not approximated. Bodies
// on joints never sleep.

#include <btBulletDynamicsCommon.h>
#include <spdlog/fmt/fmt.h>

#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "apps/bench/sim/principal_axes.hpp"
#include "apps/bench/sim/sim_peer.hpp"

namespace hb::sim {
namespace {

constexpr double kMargin = 0.001;  // m
// A box's margin never takes more than this fraction of its thinnest half-extent.
constexpr double kMaxMarginFraction = 0.25;

btVector3 toBullet(const Eigen::Vector3d& v) {
  return btVector3(v.x(), v.y(), v.z());
}

Eigen::Vector3d toEigen(const btVector3& v) {
  return Eigen::Vector3d(v.x(), v.y(), v.z());
}

btTransform toBullet(const Pose& pose) {
  const Eigen::Quaterniond& q = pose.q;
  return btTransform(btQuaternion(q.x(), q.y(), q.z(), q.w()), toBullet(pose.p));
}

Pose toPose(const btTransform& t) {
  const btQuaternion q = t.getRotation();
  return {Eigen::Quaterniond(q.w(), q.x(), q.y(), q.z()).normalized(), toEigen(t.getOrigin())};
}

Eigen::Matrix3d toEigen(const btMatrix3x3& m) {
  Eigen::Matrix3d out;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) out(r, c) = m[r][c];
  }
  return out;
}

btScalar heavyballFriction(const btCollisionObject* a, const btCollisionObject* b) {
  return std::sqrt(a->getFriction() * b->getFriction());
}

btScalar heavyballRestitution(const btCollisionObject* a, const btCollisionObject* b) {
  return std::max(a->getRestitution(), b->getRestitution());
}

// Bullet's hinge limit: a stop Baumgarte-corrected at the world's ERP (bias factor 1) that does
// not reflect the approach speed (relaxation 0). Bullet's hinge does not read the softness.
constexpr double kHingeLimitSoftness = 1.0;
constexpr double kHingeLimitBias = 1.0;
constexpr double kHingeLimitRelaxation = 0.0;

btTransform toBullet(const Eigen::Quaterniond& q, const Eigen::Vector3d& p) {
  return btTransform(btQuaternion(q.x(), q.y(), q.z(), q.w()), toBullet(p));
}

/// "joint 3" or "joint 3 (elbow)": how a refusal names a joint.
std::string jointName(const SimScene& scene, size_t j) {
  const std::string& name = scene.joints[j].name;
  return "joint " + std::to_string(j) + (name.empty() ? "" : " (" + name + ")");
}

/// Throws when Bullet's constraints cannot build joint j as the scene specifies it.
void checkJoint(const SimScene& scene, size_t j) {
  const JointDescription& d = scene.joints[j];
  const auto refuse = [&](const std::string& what) {
    throw std::runtime_error("Bullet peer: " + jointName(scene, j) + ": " + what);
  };
  const int bodies = static_cast<int>(scene.bodies.size());
  if (d.bodyA < 0 || d.bodyB < 0 || d.bodyA > bodies || d.bodyB > bodies || d.bodyA == d.bodyB) {
    refuse("needs two different bodies of the scene");
  }
  if (!d.anchor.allFinite() || !d.axis.allFinite() || !(d.axis.norm() > 1e-9)) {
    refuse("needs a finite anchor and a non-zero axis");
  }
  const bool freeAxis = d.type == JointType::Revolute || d.type == JointType::Prismatic;
  if (!freeAxis && (d.limit.enabled || d.motor.enabled || d.spring.active() || d.friction > 0.0)) {
    refuse(std::string("a ") + toString(d.type) +
           " joint has no free axis for a limit, motor, spring or friction");
  }
  if (d.spring.active()) refuse("springs are not built");
  if (d.friction > 0.0) refuse("joint friction is not built");
  if (d.motor.enabled && d.motor.servo()) {
    refuse("position servos (motor stiffness or damping) are not built");
  }
  if (d.limit.enabled) {
    if (!std::isfinite(d.limit.lower) || !std::isfinite(d.limit.upper) ||
        d.limit.lower > d.limit.upper) {
      refuse("a limit needs finite lower <= upper");
    }
    if (d.type == JointType::Revolute && (d.limit.lower < -SIMD_PI || d.limit.upper > SIMD_PI)) {
      refuse("hinge limits beyond +-pi are not built (Bullet's hinge angle wraps at pi)");
    }
  }
  if (d.motor.enabled && (!std::isfinite(d.motor.targetVelocity) ||
                          !std::isfinite(d.motor.maxForce) || d.motor.maxForce < 0.0)) {
    refuse("a motor needs a finite target velocity and a finite force >= 0");
  }
}

/// A convex hull of points as Bullet's shape: the points, grown by the margin.
std::unique_ptr<btConvexHullShape> hullShape(const std::vector<Eigen::Vector3d>& points) {
  auto shape = std::make_unique<btConvexHullShape>();
  for (const Eigen::Vector3d& v : points) shape->addPoint(toBullet(v), false);
  shape->recalcLocalAabb();
  shape->setMargin(kMargin);
  return shape;
}

/// A static piece's shape in its own frame (also dynamic spheres, boxes and capsules).
std::unique_ptr<btCollisionShape> staticShape(const Shape& shape) {
  switch (shape.type()) {
    case ShapeType::Box: {
      auto box = std::make_unique<btBoxShape>(toBullet(shape.halfExtents()));
      box->setMargin(std::min(kMargin, kMaxMarginFraction * shape.halfExtents().minCoeff()));
      return box;
    }
    case ShapeType::Sphere:
      return std::make_unique<btSphereShape>(shape.radius());
    case ShapeType::Capsule:  // along z, as heavyball's
      return std::make_unique<btCapsuleShapeZ>(shape.radius(), 2.0 * shape.halfLength());
    case ShapeType::ConvexHull:
      return hullShape(shape.hull().vertices());
    default:
      throw std::runtime_error("Bullet peer: static " + std::string(toString(shape.type())) +
                               " shapes are not supported");
  }
}

/// The points whose hull is a body's shape, in the body frame.
std::vector<Eigen::Vector3d> bodyPoints(const SimBody& b) {
  std::vector<Eigen::Vector3d> points;
  if (b.shape.type() == ShapeType::ConvexHull) {
    for (const Eigen::Vector3d& v : b.shape.hull().vertices()) points.push_back(v);
  } else if (b.shape.type() == ShapeType::Box) {
    const Eigen::Vector3d& h = b.shape.halfExtents();
    for (int i = 0; i < 8; ++i) {
      points.emplace_back(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z());
    }
  } else {
    throw std::runtime_error("Bullet peer: dynamic " + std::string(toString(b.shape.type())) +
                             " bodies are not supported (" + b.name + ")");
  }
  for (Eigen::Vector3d& p : points) p = b.shapeInBody.apply(p);
  return points;
}

class BulletSim final : public SimPeer {
 public:
  explicit BulletSim(const SimScene& scene)
      : scene_(scene),
        dispatcher_(&configuration_),
        world_(&dispatcher_, &broadphase_, &solver_, &configuration_) {
    savedFriction_ = gCalculateCombinedFrictionCallback;
    savedRestitution_ = gCalculateCombinedRestitutionCallback;
    gCalculateCombinedFrictionCallback = &heavyballFriction;
    gCalculateCombinedRestitutionCallback = &heavyballRestitution;
    world_.setGravity(toBullet(scene.base.gravity));
    // Bullet ignores restitution below 0.2 m/s of approach speed; heavyball's scene says where.
    world_.getSolverInfo().m_restitutionVelocityThreshold = scene.base.solver.restitutionThreshold;
    try {
      for (size_t j = 0; j < scene_.joints.size(); ++j) checkJoint(scene_, j);
      addStatics();
      prepareBodies();
    } catch (...) {
      release();
      throw;
    }
  }

  ~BulletSim() override { release(); }

  std::string_view name() const override { return "bullet"; }

  std::string settings() const override {
    const btContactSolverInfo& info = world_.getSolverInfo();
#ifdef BT_USE_DOUBLE_PRECISION
    const char* precision = "double";
#else
    const char* precision = "float";
#endif
    std::string bodyDefaults;  // read back from a body: Bullet's defaults, as built
    if (!bodies_.empty()) {
      const btRigidBody& b = *bodies_.front();
      bodyDefaults = fmt::format(
          "; gyroscopic term {}; sleeping below {:g} m/s and {:g} rad/s for {:g} s",
          (b.getFlags() & BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY) ? "implicit" : "off",
          b.getLinearSleepingThreshold(), b.getAngularSleepingThreshold(), gDeactivationTime);
    }
    const std::string engine = fmt::format(
        "Bullet {}.{:02d} ({}): btDiscreteDynamicsWorld, btDbvtBroadphase, "
        "btSequentialImpulseConstraintSolver defaults ({} iterations, overlaps corrected by "
        "Baumgarte ERP {:g} up to {:g} m deep and by split impulses (ERP2 {:g}) beyond{}, warm "
        "starting {:g}, SOR {:g}, one friction direction per contact), restitution above {:g} "
        "m/s; hull vertices grown by a {:g} mm margin; no CCD{}",
        btGetVersion() / 100, btGetVersion() % 100, precision, info.m_numIterations, info.m_erp,
        -info.m_splitImpulsePenetrationThreshold, info.m_erp2,
        info.m_splitImpulse ? "" : " (split impulses off)", info.m_warmstartingFactor, info.m_sor,
        info.m_restitutionVelocityThreshold, 1000.0 * kMargin, bodyDefaults);
    return engine + jointSettings();
  }

  void drop(int i) override {
    if (i != static_cast<int>(bodies_.size())) {
      throw std::logic_error("Bullet peer: bodies dropped out of order");
    }
    const SimBody& b = scene_.bodies.at(i);
    const Prepared& p = prepared_[i];
    btRigidBody::btRigidBodyConstructionInfo info(b.mass, nullptr, p.shape,
                                                  toBullet(p.axes.moments));
    info.m_startWorldTransform = toBullet(b.pose * principalFrame(i));
    info.m_friction = b.material.friction;
    info.m_restitution = b.material.restitution;
    auto body = std::make_unique<btRigidBody>(info);
    body->setLinearVelocity(toBullet(b.linearVelocity));
    body->setAngularVelocity(toBullet(b.angularVelocity));
    world_.addRigidBody(body.get());
    bodies_.push_back(std::move(body));
    const int index = i + 1;  // the joints' numbering: 0 is the world
    for (size_t j = 0; j < scene_.joints.size(); ++j) {
      const JointDescription& d = scene_.joints[j];
      if (std::max(d.bodyA, d.bodyB) == index) addJoint(d);
    }
  }

  void step() override {
    world_.stepSimulation(scene_.base.dt, 0);
  }

  Pose pose(int i) const override {
    return toPose(bodies_.at(i)->getCenterOfMassTransform()) * principalFrame(i).inverse();
  }

  BodyVelocity velocity(int i) const override {
    const btRigidBody& body = *bodies_.at(i);
    return {toEigen(body.getLinearVelocity()), toEigen(body.getAngularVelocity())};
  }

  BodyMass massProperties(int i) const override {
    const btRigidBody& body = *bodies_.at(i);
    return {1.0 / body.getInvMass(), toEigen(body.getCenterOfMassPosition()),
            toEigen(body.getInvInertiaTensorWorld()).inverse()};
  }

 private:
  struct Prepared {
    btCollisionShape* shape = nullptr;
    PrincipalAxes axes;
  };

  /// Bullet's body frame (principal axes) in heavyball's body frame.
  Pose principalFrame(int i) const {
    return {prepared_[i].axes.rotation, Eigen::Vector3d::Zero()};
  }

  /// A joint's body: the scene's body k - 1, or Bullet's fixed body for the world (k = 0).
  btRigidBody& jointBody(int k) {
    return k == 0 ? btTypedConstraint::getFixedBody() : *bodies_.at(k - 1);
  }

  /// A frame given in the world as seen from joint body k's Bullet frame, at its current pose.
  btTransform frameIn(int k, const btTransform& frame) {
    return jointBody(k).getCenterOfMassTransform().inverse() * frame;
  }

  void addJoint(const JointDescription& d) {
    const Eigen::Vector3d axis = d.axis.normalized();
    std::unique_ptr<btTypedConstraint> c;
    switch (d.type) {
      case JointType::Spherical: {
        const btVector3 anchor = toBullet(d.anchor);
        if (d.bodyA == 0 || d.bodyB == 0) {
          const int k = d.bodyA == 0 ? d.bodyB : d.bodyA;
          c = std::make_unique<btPoint2PointConstraint>(
              jointBody(k), jointBody(k).getCenterOfMassTransform().invXform(anchor));
        } else {
          c = std::make_unique<btPoint2PointConstraint>(
              jointBody(d.bodyA), jointBody(d.bodyB),
              jointBody(d.bodyA).getCenterOfMassTransform().invXform(anchor),
              jointBody(d.bodyB).getCenterOfMassTransform().invXform(anchor));
        }
        break;
      }
      case JointType::Revolute: {
        // z along the axis; heavyball's B is Bullet's A (see the top of the file).
        const btTransform frame =
            toBullet(Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), axis), d.anchor);
        std::unique_ptr<btHingeConstraint> hinge;
        if (d.bodyA == 0) {
          hinge = std::make_unique<btHingeConstraint>(jointBody(d.bodyB), frameIn(d.bodyB, frame));
        } else {
          hinge =
              std::make_unique<btHingeConstraint>(jointBody(d.bodyB), jointBody(d.bodyA),
                                                  frameIn(d.bodyB, frame), frameIn(d.bodyA, frame));
        }
        if (d.limit.enabled) {
          hinge->setLimit(d.limit.lower, d.limit.upper, kHingeLimitSoftness, kHingeLimitBias,
                          kHingeLimitRelaxation);
        }
        if (d.motor.enabled) {
          // Bullet bounds the motor's impulse per step.
          hinge->enableAngularMotor(true, d.motor.targetVelocity,
                                    d.motor.maxForce * scene_.base.dt);
        }
        c = std::move(hinge);
        break;
      }
      case JointType::Prismatic: {
        // x along the axis; the offset is B's relative to A, measured in A's frame.
        const btTransform frame =
            toBullet(Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitX(), axis), d.anchor);
        std::unique_ptr<btSliderConstraint> slider;
        if (d.bodyA == 0) {
          slider = std::make_unique<btSliderConstraint>(jointBody(d.bodyB), frameIn(d.bodyB, frame),
                                                        true);
        } else {
          slider = std::make_unique<btSliderConstraint>(jointBody(d.bodyA), jointBody(d.bodyB),
                                                        frameIn(d.bodyA, frame),
                                                        frameIn(d.bodyB, frame), true);
        }
        slider->setLowerAngLimit(0.0);
        slider->setUpperAngLimit(0.0);
        // lower > upper: free.
        slider->setLowerLinLimit(d.limit.enabled ? d.limit.lower : 1.0);
        slider->setUpperLinLimit(d.limit.enabled ? d.limit.upper : -1.0);
        if (d.motor.enabled) {
          slider->setPoweredLinMotor(true);
          slider->setTargetLinMotorVelocity(d.motor.targetVelocity);
          slider->setMaxLinMotorForce(d.motor.maxForce);
        }
        c = std::move(slider);
        break;
      }
      case JointType::Fixed: {
        const btTransform frame(btQuaternion::getIdentity(), toBullet(d.anchor));
        c = std::make_unique<btFixedConstraint>(jointBody(d.bodyA), jointBody(d.bodyB),
                                                frameIn(d.bodyA, frame), frameIn(d.bodyB, frame));
        break;
      }
    }
    for (const int k : {d.bodyA, d.bodyB}) {
      if (k != 0) bodies_.at(k - 1)->setActivationState(DISABLE_DEACTIVATION);
    }
    world_.addConstraint(c.get(), /*disableCollisionsBetweenLinkedBodies=*/true);
    constraints_.push_back(std::move(c));
  }

  /// The constraints the scene's joints become and their settings; empty without joints.
  std::string jointSettings() const {
    if (scene_.joints.empty()) return "";
    int count[4] = {0, 0, 0, 0};  // spherical, revolute, prismatic, fixed
    bool hingeLimit = false, hingeMotor = false, sliderLimit = false, sliderMotor = false;
    for (const JointDescription& d : scene_.joints) {
      switch (d.type) {
        case JointType::Spherical:
          ++count[0];
          break;
        case JointType::Revolute:
          ++count[1];
          hingeLimit |= d.limit.enabled;
          hingeMotor |= d.motor.enabled;
          break;
        case JointType::Prismatic:
          ++count[2];
          sliderLimit |= d.limit.enabled;
          sliderMotor |= d.motor.enabled;
          break;
        case JointType::Fixed:
          ++count[3];
          break;
      }
    }
    std::vector<std::string> parts;
    if (count[0] > 0) parts.push_back(fmt::format("{} btPoint2PointConstraint", count[0]));
    if (count[1] > 0) {
      std::string hinge = fmt::format("{} btHingeConstraint (frames' z on the axis", count[1]);
      if (hingeLimit) {
        hinge += fmt::format(
            "; limits as stops at the world's ERP times a bias factor {:g}, relaxation (bounce) "
            "{:g}, softness {:g}",
            kHingeLimitBias, kHingeLimitRelaxation, kHingeLimitSoftness);
      }
      if (hingeMotor) hinge += "; velocity motors bounded by max torque x dt per step";
      parts.push_back(hinge + ")");
    }
    if (count[2] > 0) {
      std::string slider = fmt::format(
          "{} btSliderConstraint (frames' x on the axis, rotation about it locked", count[2]);
      if (sliderLimit) {
        btSliderConstraint defaults(btTypedConstraint::getFixedBody(), btTransform::getIdentity(),
                                    true);
        // The slider's limit row bounces by |1 - damping| (its restitution is not read).
        slider +=
            fmt::format("; limits at Bullet's defaults: softness {:g}, bounce |1 - damping| = {:g}",
                        defaults.getSoftnessLimLin(), std::abs(1.0 - defaults.getDampingLimLin()));
      }
      if (sliderMotor) slider += "; velocity motors bounded by max force";
      parts.push_back(slider + ")");
    }
    if (count[3] > 0) parts.push_back(fmt::format("{} btFixedConstraint", count[3]));
    std::string out = "; joints: ";
    for (size_t i = 0; i < parts.size(); ++i) out += (i > 0 ? ", " : "") + parts[i];
    return out +
           " added when their later body enters; jointed pairs do not "
           "collide; jointed bodies never sleep";
  }

  void addStatics() {
    std::map<int, std::vector<const SimStatic*>> groups;
    for (const SimStatic& s : scene_.statics) groups[s.group].push_back(&s);
    for (const auto& [group, pieces] : groups) {
      btCollisionShape* shape = nullptr;
      Pose pose;
      if (pieces.size() == 1) {
        shape = keep(staticShape(pieces[0]->shape));
        pose = pieces[0]->pose;
      } else {
        // A funnel: one compound of its panels.
        auto compound = std::make_unique<btCompoundShape>();
        for (const SimStatic* piece : pieces) {
          compound->addChildShape(toBullet(piece->pose), keep(staticShape(piece->shape)));
        }
        shape = keep(std::move(compound));
      }
      btRigidBody::btRigidBodyConstructionInfo info(0.0, nullptr, shape);
      info.m_startWorldTransform = toBullet(pose);
      info.m_friction = scene_.staticMaterial.friction;
      info.m_restitution = scene_.staticMaterial.restitution;
      statics_.push_back(std::make_unique<btRigidBody>(info));
      world_.addRigidBody(statics_.back().get());
    }
  }

  // Shapes and principal axes of every body, built before the run (bodies of one asset share
  // a shape): what a drop costs in the timed loop is Bullet's own work.
  void prepareBodies() {
    std::map<const ConvexHull*, int> byHull;  // first body of each asset
    for (size_t i = 0; i < scene_.bodies.size(); ++i) {
      const SimBody& b = scene_.bodies[i];
      const ConvexHull* hull =
          b.shape.type() == ShapeType::ConvexHull ? b.shape.hullPtr().get() : nullptr;
      if (hull) {
        if (auto it = byHull.find(hull); it != byHull.end()) {
          const SimBody& first = scene_.bodies[it->second];
          if (first.inertia == b.inertia && first.shapeInBody.p == b.shapeInBody.p &&
              first.shapeInBody.q.coeffs() == b.shapeInBody.q.coeffs()) {
            prepared_.push_back(prepared_[it->second]);
            continue;
          }
        }
        byHull.emplace(hull, static_cast<int>(i));
      }
      Prepared p;
      p.axes = principalAxes(b.inertia);
      const bool primitive = b.shape.type() == ShapeType::Sphere ||
                             b.shape.type() == ShapeType::Box ||
                             b.shape.type() == ShapeType::Capsule;
      const bool diagonal = b.inertia.isDiagonal(1e-12);
      if (primitive && diagonal && b.shapeInBody.p.norm() == 0.0 &&
          b.shapeInBody.q.coeffs() == Eigen::Quaterniond::Identity().coeffs()) {
        // A sphere, box or capsule centred on its centre of mass along its principal axes:
        // Bullet's own shape, exact (a sphere's and a capsule's margin is their radius, a box's
        // lies inside it).
        p.axes.rotation = Eigen::Quaterniond::Identity();
        p.axes.moments = b.inertia.diagonal();
        p.shape = keep(staticShape(b.shape));
        prepared_.push_back(p);
        continue;
      }
      const Eigen::Quaterniond toPrincipal = p.axes.rotation.conjugate();
      if (b.isCompound()) {
        // One hull per piece, in the principal frame, as children of a compound at identity.
        auto compound = std::make_unique<btCompoundShape>();
        for (const SimPiece& piece : b.pieces) {
          std::vector<Eigen::Vector3d> points;
          for (const Eigen::Vector3d& v : piece.shape.hull().vertices()) {
            points.push_back(toPrincipal * piece.inBody.apply(v));
          }
          compound->addChildShape(btTransform::getIdentity(), keep(hullShape(points)));
        }
        p.shape = keep(std::move(compound));
        prepared_.push_back(p);
        continue;
      }
      std::vector<Eigen::Vector3d> points = bodyPoints(b);
      for (Eigen::Vector3d& x : points) x = toPrincipal * x;
      p.shape = keep(hullShape(points));
      prepared_.push_back(p);
    }
  }

  // The world must forget its bodies before they go (its destructor visits those it holds).
  void release() {
    for (auto& c : constraints_) world_.removeConstraint(c.get());
    constraints_.clear();
    for (auto& body : bodies_) world_.removeRigidBody(body.get());
    for (auto& body : statics_) world_.removeRigidBody(body.get());
    bodies_.clear();
    statics_.clear();
    gCalculateCombinedFrictionCallback = savedFriction_;
    gCalculateCombinedRestitutionCallback = savedRestitution_;
  }

  btCollisionShape* keep(std::unique_ptr<btCollisionShape> shape) {
    shapes_.push_back(std::move(shape));
    return shapes_.back().get();
  }

  const SimScene& scene_;
  btDefaultCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<Prepared> prepared_;
  std::vector<std::unique_ptr<btRigidBody>> statics_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  // After the bodies: destroyed first (release() also removes them from the world first).
  std::vector<std::unique_ptr<btTypedConstraint>> constraints_;
  CalculateCombinedCallback savedFriction_ = nullptr;
  CalculateCombinedCallback savedRestitution_ = nullptr;
};

}  // namespace

std::unique_ptr<SimPeer> makeBulletSim(const SimScene& scene) {
  return std::make_unique<BulletSim>(scene);
}

}  // namespace hb::sim
