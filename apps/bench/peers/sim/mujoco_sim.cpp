// MuJoCo peer of `heavyball bench sim`: an MJCF model written in memory (a virtual file) and
// compiled by mj_loadXML, stepped by mj_step.
//
// Model. Statics are geoms of the world body; each dynamic body is a body with a free joint,
// an explicit inertial (mass, principal moments, and their rotation from heavyball's body axes),
// and one geom placed in the body as heavyball places the shape (a compound: one per piece): a
// mesh of the hull's vertices (MuJoCo collides with their convex hull; bodies of one asset share
// the mesh), or a box or sphere. So MuJoCo's body frame is heavyball's.
//
// Drops. A MuJoCo model cannot grow: every body is in the model from the start, parked far from
// the scene with its collisions off, and held there (position and velocity reset before every
// step) until its drop, when it gets its initial state and its collisions.
//
// Settings. Elliptic friction cones (heavyball's exact Coulomb cone), the Newton solver (100
// iterations, tolerance 1e-8: MuJoCo's defaults), multi-point convex collisions (multiccd) so
// that a resting face gets several contacts, condim 3 (no torsional or rolling friction).
// Contacts are MuJoCo's soft constraints at their default solref and solimp; MuJoCo has no
// restitution, and it combines two geoms' frictions by their maximum. The integrator is chosen
// per peer: semi-implicit Euler (MuJoCo's default, row "mujoco") or implicit in velocity (row
// "mujoco-implicit"), which treats the velocity-dependent forces, here the bodies' Coriolis and
// centripetal (gyroscopic) forces, implicitly.
//
// Joints. MuJoCo's joints are generalized coordinates of a kinematic tree, so the scene's joints
// become one: a joint's body B is a child body of its body A (of the world body when A is the
// world), placed relative to A as they start, and the joint lives in B: a ball joint for a
// spherical one, a hinge for a revolute one, a slide for a prismatic one, none for a fixed one
// (B welded to A). A body that is A of joints and B of none is the root of its tree and keeps
// its free joint. Jointed bodies are in place from the start (the model's qpos0), never parked;
// what the tree cannot hold is refused: a body that is B of two joints, a cycle, the world as
// B, and a jointed body that enters after the first step or starts moving (the joints' state
// is generalized coordinates and velocities; the bench's jointed scenes start at rest). Limits
// are the joint's range; a velocity motor is a velocity actuator bounded by its force (gain kv
// = I / dt, I the inertia about the axis of the subtree the joint moves, at the start, or its
// mass for a slide: stiff, as a motor reaching its target within the step, and within the
// explicit integrator's stability bound of 2 I / dt); a servo a general actuator with affine
// bias (force kp (q* - q) + kd (v* - v), bounded); a spring the joint's stiffness, damping and
// springref; friction its frictionloss. The two bodies of a joint do not collide (an exclusion,
// also for a body jointed to the world, whose statics it then ignores, as in heavyball).

#include <mujoco/mujoco.h>
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>

#include "apps/bench/sim/principal_axes.hpp"
#include "apps/bench/sim/sim_peer.hpp"

namespace hb::sim {
namespace {

constexpr double kParkingDistance = 1000.0;  // m: parked bodies sit this far out, 10 m apart
// Room for contacts and constraint rows; MuJoCo drops the excess (reported as warnings).
constexpr int kContactsPerBody = 10;
constexpr int kContactsPerExtraPiece = 4;  // each further piece of a compound
// MuJoCo 2.2 allocates dense rows x rows matrices: 2000 contacts (6000 rows) take 0.3 GB.
constexpr int kMaxContacts = 2000;
constexpr int kRowsPerContact = 3;  // elliptic cone, condim 3

// MuJoCo reports errors through a global handler that must not return (it exits the process
// by default): the handler jumps back to the guarded call, which turns it into an exception.
// Only MuJoCo's C frames lie between the jump and its target.
thread_local std::jmp_buf* activeJump = nullptr;
thread_local char lastError[1024];
thread_local std::vector<std::string>* activeWarnings = nullptr;

void onMujocoError(const char* message) {
  std::snprintf(lastError, sizeof lastError, "%s", message);
  if (activeJump) std::longjmp(*activeJump, 1);
  // Not inside a guarded call: nothing to unwind to.
  std::fprintf(stderr, "MuJoCo error outside a guarded call: %s\n", message);
  std::abort();
}

void onMujocoWarning(const char* message) {
  if (activeWarnings) activeWarnings->emplace_back(message);
}

/// Calls fn(m, d); false (message in lastError) when MuJoCo raised an error.
bool guarded(void (*fn)(const mjModel*, mjData*), const mjModel* m, mjData* d) {
  std::jmp_buf jump;
  std::jmp_buf* const outer = activeJump;
  activeJump = &jump;
  if (setjmp(jump) != 0) {
    activeJump = outer;
    return false;
  }
  fn(m, d);
  activeJump = outer;
  return true;
}

mjData* guardedMakeData(const mjModel* m) {
  std::jmp_buf jump;
  std::jmp_buf* const outer = activeJump;
  activeJump = &jump;
  if (setjmp(jump) != 0) {
    activeJump = outer;
    return nullptr;
  }
  mjData* d = mj_makeData(m);
  activeJump = outer;
  return d;
}

std::string vec(const Eigen::Vector3d& v) {
  return fmt::format("{:.17g} {:.17g} {:.17g}", v.x(), v.y(), v.z());
}

std::string quat(const Eigen::Quaterniond& q) {
  return fmt::format("{:.17g} {:.17g} {:.17g} {:.17g}", q.w(), q.x(), q.y(), q.z());
}

/// A geom element for a shape placed at `pose` in its body.
std::string geom(const Shape& shape, const Pose& pose, double friction, const std::string& mesh) {
  std::string type, size;
  switch (shape.type()) {
    case ShapeType::Box:
      type = "box";
      size = " size=\"" + vec(shape.halfExtents()) + "\"";
      break;
    case ShapeType::Sphere:
      type = "sphere";
      size = fmt::format(" size=\"{:.17g}\"", shape.radius());
      break;
    case ShapeType::Capsule:  // along z, radius and half length, as heavyball's
      type = "capsule";
      size = fmt::format(" size=\"{:.17g} {:.17g}\"", shape.radius(), shape.halfLength());
      break;
    case ShapeType::ConvexHull:
      type = "mesh";
      size = " mesh=\"" + mesh + "\"";
      break;
    default:
      throw std::runtime_error("MuJoCo peer: " + std::string(toString(shape.type())) +
                               " shapes are not supported");
  }
  return fmt::format("<geom type=\"{}\"{} pos=\"{}\" quat=\"{}\" friction=\"{:.17g} 0 0\"/>", type,
                     size, vec(pose.p), quat(pose.q), friction);
}

class MujocoSim final : public SimPeer {
 public:
  MujocoSim(const SimScene& scene, MujocoIntegrator integrator)
      : scene_(scene), integrator_(integrator) {
    if (mj_version() != mjVERSION_HEADER) {
      throw std::runtime_error(
          fmt::format("MuJoCo library version {} does not match its headers' {}", mj_version(),
                      mjVERSION_HEADER));
    }
    savedError_ = mju_user_error;
    savedWarning_ = mju_user_warning;
    mju_user_error = &onMujocoError;
    mju_user_warning = &onMujocoWarning;
    activeWarnings = &warnings_;
    try {
      buildTree();
      compile(modelXml());
    } catch (...) {
      release();
      throw;
    }
  }

  ~MujocoSim() override { release(); }

  std::string_view name() const override {
    return integrator_ == MujocoIntegrator::Implicit ? "mujoco-implicit" : "mujoco";
  }

  std::string settings() const override { return baseSettings() + jointSettings_; }

  std::string baseSettings() const {
    const mjOption& o = model_->opt;
    const char* cones[] = {"pyramidal", "elliptic"};
    const char* solvers[] = {"PGS", "CG", "Newton"};
    const char* integrators[] = {"Euler", "RK4", "implicit"};
    const mjtNum* solref = model_->ngeom > 0 ? model_->geom_solref : nullptr;
    const mjtNum* solimp = model_->ngeom > 0 ? model_->geom_solimp : nullptr;
    return fmt::format(
        "MuJoCo {}, {} integrator: {} cone, {} solver ({} iterations, tolerance {:g}), multiccd "
        "{}, condim 3, solref {:g} {:g}, solimp {:g} {:g} {:g}, impratio {:g}; frictions "
        "combined by max, no restitution, no sleeping; room for {} contacts and {} rows",
        mj_versionString(), integrators[o.integrator], cones[o.cone], solvers[o.solver],
        o.iterations, o.tolerance, (o.enableflags & mjENBL_MULTICCD) ? "on" : "off",
        solref ? solref[0] : 0.0, solref ? solref[1] : 0.0, solimp ? solimp[0] : 0.0,
        solimp ? solimp[1] : 0.0, solimp ? solimp[2] : 0.0, o.impratio, model_->nconmax,
        model_->njmax);
  }

  void drop(int i) override {
    if (i != dropped_) throw std::logic_error("MuJoCo peer: bodies dropped out of order");
    const SimBody& b = scene_.bodies.at(i);
    if (jointed_[i]) {  // in place since the start
      ++dropped_;
      return;
    }
    const int joint = model_->body_jntadr[bodyId(i)];
    mjtNum* qpos = data_->qpos + model_->jnt_qposadr[joint];
    mjtNum* qvel = data_->qvel + model_->jnt_dofadr[joint];
    const Eigen::Quaterniond q = b.pose.q.normalized();
    for (int k = 0; k < 3; ++k) qpos[k] = b.pose.p[k];
    qpos[3] = q.w();
    qpos[4] = q.x();
    qpos[5] = q.y();
    qpos[6] = q.z();
    // A free joint's angular velocity is in the body frame.
    const Eigen::Vector3d localAngular = q.conjugate() * b.angularVelocity;
    for (int k = 0; k < 3; ++k) {
      qvel[k] = b.linearVelocity[k];
      qvel[3 + k] = localAngular[k];
    }
    setCollides(i, true);
    ++dropped_;
  }

  void step() override {
    holdParkedBodies();
    const double time = data_->time;
    if (!guarded(&mj_step, model_, data_)) {
      throw std::runtime_error(std::string("MuJoCo: ") + lastError);
    }
    // mj_step leaves the bodies' world poses and velocities at the step's start: nested bodies
    // are read from them, so bring them to its end.
    if (hasNested_ && !(guarded(&mj_kinematics, model_, data_) &&
                        guarded(&mj_comPos, model_, data_) && guarded(&mj_comVel, model_, data_))) {
      throw std::runtime_error(std::string("MuJoCo: ") + lastError);
    }
    // On a non-finite or huge acceleration MuJoCo resets the whole state and carries on.
    if (data_->warning[mjWARN_BADQACC].number > 0) {
      throw SimDiverged(
          fmt::format("MuJoCo found a bad acceleration at t = {:.3f} s and reset its state ({})",
                      time, warnings_.empty() ? "no message" : warnings_.back()));
    }
  }

  Pose pose(int i) const override {
    const int b = bodyId(i);
    if (!hasFreeJoint(b)) {  // nested in a tree: its world pose
      const mjtNum* p = data_->xpos + 3 * b;
      const mjtNum* q = data_->xquat + 4 * b;
      return {Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized(),
              Eigen::Vector3d(p[0], p[1], p[2])};
    }
    const mjtNum* qpos = data_->qpos + model_->jnt_qposadr[model_->body_jntadr[b]];
    return {Eigen::Quaterniond(qpos[3], qpos[4], qpos[5], qpos[6]).normalized(),
            Eigen::Vector3d(qpos[0], qpos[1], qpos[2])};
  }

  BodyVelocity velocity(int i) const override {
    if (!hasFreeJoint(bodyId(i))) {
      // Angular, then linear velocity of the body origin (the centre of mass), world axes.
      mjtNum v[6];
      mj_objectVelocity(model_, data_, mjOBJ_BODY, bodyId(i), v, 0);
      return {Eigen::Vector3d(v[3], v[4], v[5]), Eigen::Vector3d(v[0], v[1], v[2])};
    }
    const int joint = model_->body_jntadr[bodyId(i)];
    const mjtNum* qvel = data_->qvel + model_->jnt_dofadr[joint];
    // A free joint's linear velocity is the body origin's (the centre of mass here) in the world
    // frame, its angular velocity in the body frame.
    return {Eigen::Vector3d(qvel[0], qvel[1], qvel[2]),
            pose(i).q * Eigen::Vector3d(qvel[3], qvel[4], qvel[5])};
  }

  BodyMass massProperties(int i) const override {
    const int b = bodyId(i);
    const Pose frame = pose(i);
    const mjtNum* iq = model_->body_iquat + 4 * b;
    const mjtNum* ip = model_->body_ipos + 3 * b;
    const Eigen::Matrix3d axes =
        (frame.q * Eigen::Quaterniond(iq[0], iq[1], iq[2], iq[3])).toRotationMatrix();
    const Eigen::Vector3d moments(model_->body_inertia[3 * b], model_->body_inertia[3 * b + 1],
                                  model_->body_inertia[3 * b + 2]);
    return {model_->body_mass[b], frame.apply(Eigen::Vector3d(ip[0], ip[1], ip[2])),
            axes * moments.asDiagonal() * axes.transpose()};
  }

  std::vector<std::string> warnings() const override {
    std::vector<std::string> out = warnings_;
    const char* names[] = {"near-singular inertia",
                           "contact list full",
                           "constraint rows full",
                           "visual geoms full",
                           "bad qpos",
                           "bad qvel",
                           "bad qacc",
                           "bad ctrl"};
    for (int w = 0; w < 8; ++w) {
      if (data_->warning[w].number > 0) {
        out.push_back(fmt::format("{} ({} times)", names[w], data_->warning[w].number));
      }
    }
    return out;
  }

 private:
  int bodyId(int i) const { return bodyIds_[i]; }

  bool hasFreeJoint(int b) const {
    return model_->body_jntnum[b] == 1 && model_->jnt_type[model_->body_jntadr[b]] == mjJNT_FREE;
  }

  static std::string jointLabel(const JointDescription& j, int k) {
    return j.name.empty() ? fmt::format("joint {}", k) : fmt::format("joint {} ({})", k, j.name);
  }

  /// The scene's joints as a tree: each body's joint from its parent, checked for what MuJoCo
  /// can hold (throws std::runtime_error otherwise).
  void buildTree() {
    const int n = static_cast<int>(scene_.bodies.size());
    parentJoint_.assign(n, -1);
    jointed_.assign(n, false);
    children_.assign(n + 1, {});
    for (int k = 0; k < static_cast<int>(scene_.joints.size()); ++k) {
      const JointDescription& j = scene_.joints[k];
      const std::string what = "MuJoCo peer: " + jointLabel(j, k);
      if (j.bodyA < 0 || j.bodyA > n || j.bodyB < 0 || j.bodyB > n) {
        throw std::runtime_error(what + " names a body that is not in the scene");
      }
      if (j.bodyA == j.bodyB) throw std::runtime_error(what + " holds a body to itself");
      if (j.bodyB == 0) {
        throw std::runtime_error(
            what +
            " has the world as its second body: MuJoCo nests a joint's second body in its first "
            "(give the world first)");
      }
      if ((j.type == JointType::Fixed || j.type == JointType::Spherical) &&
          (j.limit.enabled || j.motor.enabled || j.spring.active() || j.friction > 0.0)) {
        throw std::runtime_error(what +
                                 ": only a revolute or prismatic joint takes a limit, motor, "
                                 "spring or friction");
      }
      const int b = j.bodyB - 1;
      if (parentJoint_[b] >= 0) {
        throw std::runtime_error(fmt::format(
            "{}: body {} is already the second body of {}; MuJoCo's joints form a tree, where a "
            "body has one parent",
            what, b, jointLabel(scene_.joints[parentJoint_[b]], parentJoint_[b])));
      }
      parentJoint_[b] = k;
      children_[j.bodyA].push_back(b);
      jointed_[b] = true;
      if (j.bodyA > 0) jointed_[j.bodyA - 1] = true;
    }
    for (int i = 0; i < n; ++i) {
      // Up the parents: a tree reaches the world or a root within n steps.
      int b = i;
      for (int steps = 0; parentJoint_[b] >= 0; ++steps) {
        if (steps > n) {
          throw std::runtime_error(fmt::format(
              "MuJoCo peer: the joints through body {} form a loop, which MuJoCo's tree of "
              "joints cannot hold",
              i));
        }
        const int a = scene_.joints[parentJoint_[b]].bodyA;
        if (a == 0) break;
        b = a - 1;
      }
      if (!jointed_[i]) continue;
      const SimBody& body = scene_.bodies[i];
      if (body.dropStep != 0) {
        throw std::runtime_error(fmt::format(
            "MuJoCo peer: body {} is held by a joint but enters at step {}: MuJoCo's joints are "
            "generalized coordinates of a model that cannot grow, so jointed bodies must be in "
            "place from the start",
            i, body.dropStep));
      }
      if (body.linearVelocity != Eigen::Vector3d::Zero() ||
          body.angularVelocity != Eigen::Vector3d::Zero()) {
        throw std::runtime_error(fmt::format(
            "MuJoCo peer: body {} is held by a joint but starts moving: MuJoCo's joints take "
            "generalized velocities, and the bench's jointed scenes start at rest",
            i));
      }
    }
  }

  /// Bodies i and its descendants in the tree.
  std::vector<int> subtree(int i) const {
    std::vector<int> out{i};
    for (std::size_t k = 0; k < out.size(); ++k) {
      for (int c : children_[out[k] + 1]) out.push_back(c);
    }
    return out;
  }

  /// What joint k moves at the start: the inertia of its subtree about the axis through the
  /// anchor (hinge, kg m^2), or its mass (slide, kg).
  double effectiveInertia(int k) const {
    const JointDescription& j = scene_.joints[k];
    double sum = 0.0;
    for (int i : subtree(j.bodyB - 1)) {
      const SimBody& b = scene_.bodies[i];
      if (j.type == JointType::Prismatic) {
        sum += b.mass;
        continue;
      }
      const Eigen::Vector3d a = j.axis.normalized();
      const Eigen::Matrix3d r = b.pose.q.normalized().toRotationMatrix();
      const Eigen::Vector3d offset = b.pose.p - j.anchor;
      const Eigen::Vector3d across = offset - offset.dot(a) * a;
      sum += a.dot(r * b.inertia * r.transpose() * a) + b.mass * across.squaredNorm();
    }
    return sum;
  }

  /// The joint element of joint k in its body B (none for a fixed joint).
  std::string jointXml(int k) const {
    const JointDescription& j = scene_.joints[k];
    if (j.type == JointType::Fixed) return "";
    const Pose& b = scene_.bodies[j.bodyB - 1].pose;
    const Pose frame{b.q.normalized(), b.p};
    std::string xml = fmt::format("<joint name=\"joint{}\" type=\"{}\" pos=\"{}\"", k,
                                  j.type == JointType::Spherical  ? "ball"
                                  : j.type == JointType::Revolute ? "hinge"
                                                                  : "slide",
                                  vec(frame.applyInverse(j.anchor)));
    if (j.type != JointType::Spherical) {
      xml += " axis=\"" + vec(frame.q.conjugate() * j.axis.normalized()) + "\"";
    }
    if (j.limit.enabled) {
      xml +=
          fmt::format(" limited=\"true\" range=\"{:.17g} {:.17g}\"", j.limit.lower, j.limit.upper);
    }
    if (j.spring.active()) {
      xml += fmt::format(" stiffness=\"{:.17g}\" damping=\"{:.17g}\" springref=\"{:.17g}\"",
                         j.spring.stiffness, j.spring.damping, j.spring.restPosition);
    }
    if (j.friction > 0.0) xml += fmt::format(" frictionloss=\"{:.17g}\"", j.friction);
    return xml + "/>\n";
  }

  /// A parked body's geoms collide with nothing; a dropped body's with everything.
  void setCollides(int i, bool collides) {
    const int first = model_->body_geomadr[bodyId(i)];
    for (int g = first; g < first + model_->body_geomnum[bodyId(i)]; ++g) {
      model_->geom_contype[g] = collides ? 1 : 0;
      model_->geom_conaffinity[g] = collides ? 1 : 0;
    }
  }

  Eigen::Vector3d parking(int i) const {
    return {kParkingDistance + 10.0 * i, kParkingDistance, kParkingDistance};
  }

  std::string modelXml() {
    const SceneDescription& s = scene_.base;
    const int n = static_cast<int>(scene_.bodies.size());
    std::string xml = "<mujoco model=\"heavyball_bench_sim\">\n";
    xml += "<compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n";
    xml += fmt::format(
        "<option timestep=\"{:.17g}\" gravity=\"{}\" integrator=\"{}\" cone=\"elliptic\" "
        "solver=\"Newton\" iterations=\"100\" tolerance=\"1e-8\">\n"
        "<flag multiccd=\"enable\"/>\n</option>\n",
        s.dt, vec(s.gravity), integrator_ == MujocoIntegrator::Implicit ? "implicit" : "Euler");
    int extraPieces = 0;
    for (const SimBody& b : scene_.bodies) {
      extraPieces += static_cast<int>(b.collisionPieces().size()) - 1;
    }
    const int contacts =
        std::min(kMaxContacts, 100 + kContactsPerBody * n + kContactsPerExtraPiece * extraPieces);
    // Joints' limits (a row per side) and friction (one row).
    int jointRows = 0;
    for (const JointDescription& j : scene_.joints) {
      jointRows += (j.limit.enabled ? 2 : 0) + (j.friction > 0.0 ? 1 : 0);
    }
    xml += fmt::format("<size nconmax=\"{}\" njmax=\"{}\"/>\n", contacts,
                       kRowsPerContact * contacts + jointRows);
    xml += "<default><geom condim=\"3\"/></default>\n";

    // One mesh per hull (a body's, or each piece's of a compound), in the hull's own frame:
    // bodies of one asset share them.
    std::map<const ConvexHull*, std::string> meshOfHull;
    std::string assets;
    const auto meshOf = [&](const Shape& shape) -> std::string {
      if (shape.type() != ShapeType::ConvexHull) return "";
      const auto [it, added] =
          meshOfHull.emplace(shape.hullPtr().get(), fmt::format("mesh{}", meshOfHull.size()));
      if (added) {
        assets += "<mesh name=\"" + it->second + "\" vertex=\"";
        for (const Eigen::Vector3d& v : shape.hull().vertices()) assets += vec(v) + " ";
        assets += "\"/>\n";
      }
      return it->second;
    };
    std::string bodies;
    const std::function<void(int)> writeBody = [&](int i) {
      const SimBody& b = scene_.bodies[i];
      const PrincipalAxes axes = principalAxes(b.inertia);
      const int k = parentJoint_[i];
      if (!jointed_[i]) {  // free, parked until its drop
        bodies +=
            fmt::format("<body name=\"body{}\" pos=\"{}\">\n<freejoint/>\n", i, vec(parking(i)));
      } else {
        // Placed relative to its parent (the world for a root) as both start.
        const Pose self{b.pose.q.normalized(), b.pose.p};
        Pose parent;
        if (k >= 0 && scene_.joints[k].bodyA > 0) {
          const Pose& a = scene_.bodies[scene_.joints[k].bodyA - 1].pose;
          parent = {a.q.normalized(), a.p};
        }
        const Pose rel = parent.inverse() * self;
        bodies += fmt::format("<body name=\"body{}\" pos=\"{}\" quat=\"{}\">\n", i, vec(rel.p),
                              quat(rel.q));
        bodies += k < 0 ? std::string("<freejoint/>\n") : jointXml(k);
      }
      bodies +=
          fmt::format("<inertial pos=\"0 0 0\" quat=\"{}\" mass=\"{:.17g}\" diaginertia=\"{}\"/>\n",
                      quat(axes.rotation), b.mass, vec(axes.moments));
      for (const SimPiece& piece : b.collisionPieces()) {
        bodies += geom(piece.shape, piece.inBody, b.material.friction, meshOf(piece.shape)) + "\n";
      }
      for (int c : children_[i + 1]) writeBody(c);
      bodies += "</body>\n";
    };
    for (int i = 0; i < n; ++i) {
      if (parentJoint_[i] < 0 || scene_.joints[parentJoint_[i]].bodyA == 0) writeBody(i);
    }
    if (!assets.empty()) xml += "<asset>\n" + assets + "</asset>\n";

    xml += "<worldbody>\n";
    for (const SimStatic& piece : scene_.statics) {
      xml += geom(piece.shape, piece.pose, scene_.staticMaterial.friction, "") + "\n";
    }
    xml += bodies;
    xml += "</worldbody>\n";
    xml += jointsXml();
    xml += "</mujoco>\n";
    return xml;
  }

  /// The joints' contact exclusions and actuators (nothing without joints).
  std::string jointsXml() {
    if (scene_.joints.empty()) return "";
    const auto bodyName = [](int index) {
      return index == 0 ? std::string("world") : fmt::format("body{}", index - 1);
    };
    std::string xml = "<contact>\n";
    for (const JointDescription& j : scene_.joints) {
      xml += "<exclude body1=\"" + bodyName(j.bodyA) + "\" body2=\"" + bodyName(j.bodyB) + "\"/>\n";
    }
    xml += "</contact>\n";
    std::string actuators;
    std::vector<std::string> chosen;
    for (int k = 0; k < static_cast<int>(scene_.joints.size()); ++k) {
      const JointMotor& m = scene_.joints[k].motor;
      if (!m.enabled || m.maxForce <= 0.0) continue;  // no force to give
      const std::string range =
          fmt::format("ctrllimited=\"false\" forcelimited=\"true\" forcerange=\"{:.17g} {:.17g}\"",
                      -m.maxForce, m.maxForce);
      if (m.servo()) {
        // force = ctrl - kp q - kd v, ctrl = kp q* + kd v*.
        actuators += fmt::format(
            "<general name=\"motor{}\" joint=\"joint{}\" gainprm=\"1\" biastype=\"affine\" "
            "biasprm=\"0 {:.17g} {:.17g}\" {}/>\n",
            k, k, -m.stiffness, -m.damping, range);
        controls_.emplace_back(k, m.stiffness * m.targetPosition + m.damping * m.targetVelocity);
        chosen.push_back(fmt::format("joint {} servo kp {:g} kd {:g}", k, m.stiffness, m.damping));
      } else {
        const double kv = effectiveInertia(k) / scene_.base.dt;
        actuators += fmt::format(
            "<velocity name=\"motor{}\" joint=\"joint{}\" kv=\"{:.17g}\" {}/>\n", k, k, kv, range);
        controls_.emplace_back(k, m.targetVelocity);
        chosen.push_back(fmt::format("joint {} kv {:.4g}", k, kv));
      }
    }
    jointSettings_ = fmt::format(
        "; {} joint(s) as a kinematic tree (ball, hinge, slide; fixed: welded), limits as joint "
        "ranges, springs as joint stiffness, friction as frictionloss; velocity motors as "
        "velocity actuators with kv = I/dt (I: the moved subtree's inertia about the axis at the "
        "start, or its mass), servos as affine actuators, both bounded by maxForce",
        scene_.joints.size());
    if (!chosen.empty()) {
      jointSettings_ += " (";
      for (std::size_t c = 0; c < chosen.size(); ++c) {
        jointSettings_ += (c ? ", " : "") + chosen[c];
      }
      jointSettings_ += ")";
    }
    if (!actuators.empty()) xml += "<actuator>\n" + actuators + "</actuator>\n";
    return xml;
  }

  void compile(const std::string& xml) {
    auto vfs = std::make_unique<mjVFS>();
    mj_defaultVFS(vfs.get());
    const char* file = "heavyball_bench_sim.xml";
    if (mj_makeEmptyFileVFS(vfs.get(), file, static_cast<int>(xml.size())) != 0) {
      throw std::runtime_error("MuJoCo: could not make the model's virtual file");
    }
    std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), file)], xml.data(), xml.size());
    char error[1024] = "";
    model_ = mj_loadXML(file, vfs.get(), error, sizeof error);
    mj_deleteVFS(vfs.get());
    if (!model_) throw std::runtime_error(std::string("MuJoCo rejected the model: ") + error);
    data_ = guardedMakeData(model_);
    if (!data_) throw std::runtime_error(std::string("MuJoCo: ") + lastError);
    // Bodies are numbered after the world body in the order written (depth first in a tree).
    bodyIds_.clear();
    for (int i = 0; i < static_cast<int>(scene_.bodies.size()); ++i) {
      bodyIds_.push_back(mj_name2id(model_, mjOBJ_BODY, fmt::format("body{}", i).c_str()));
      const int k = parentJoint_[i];
      const int joints = k >= 0 && scene_.joints[k].type == JointType::Fixed ? 0 : 1;
      if (bodyIds_.back() < 1 || model_->body_jntnum[bodyId(i)] != joints ||
          model_->body_geomnum[bodyId(i)] !=
              static_cast<int>(scene_.bodies[i].collisionPieces().size())) {
        throw std::logic_error("MuJoCo peer: unexpected model layout");
      }
      if (k >= 0) hasNested_ = true;
      if (!jointed_[i]) setCollides(i, false);  // parked
    }
    for (const auto& [k, value] : controls_) {
      const int actuator = mj_name2id(model_, mjOBJ_ACTUATOR, fmt::format("motor{}", k).c_str());
      if (actuator < 0) throw std::logic_error("MuJoCo peer: unexpected model layout");
      data_->ctrl[actuator] = value;
    }
    if (!guarded(&mj_forward, model_, data_)) {
      throw std::runtime_error(std::string("MuJoCo: ") + lastError);
    }
  }

  void holdParkedBodies() {
    for (int i = dropped_; i < static_cast<int>(scene_.bodies.size()); ++i) {
      if (jointed_[i]) continue;
      const int joint = model_->body_jntadr[bodyId(i)];
      const int qa = model_->jnt_qposadr[joint];
      const int va = model_->jnt_dofadr[joint];
      std::copy(model_->qpos0 + qa, model_->qpos0 + qa + 7, data_->qpos + qa);
      std::fill(data_->qvel + va, data_->qvel + va + 6, 0.0);
    }
  }

  void release() {
    if (data_) mj_deleteData(data_);
    if (model_) mj_deleteModel(model_);
    data_ = nullptr;
    model_ = nullptr;
    restoreHandlers();
  }

  void restoreHandlers() {
    mju_user_error = savedError_;
    mju_user_warning = savedWarning_;
    if (activeWarnings == &warnings_) activeWarnings = nullptr;
  }

  const SimScene& scene_;
  const MujocoIntegrator integrator_;
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  std::vector<int> bodyIds_;  // MuJoCo's body id of each scene body
  // The tree: each body's joint from its parent (-1: none), whether a joint holds it, and the
  // children of the world (0) and of each body (k: body k - 1).
  std::vector<int> parentJoint_;
  std::vector<bool> jointed_;
  std::vector<std::vector<int>> children_;
  bool hasNested_ = false;
  std::vector<std::pair<int, double>> controls_;  // (joint, ctrl) of each motor's actuator
  std::string jointSettings_;
  int dropped_ = 0;
  std::vector<std::string> warnings_;
  void (*savedError_)(const char*) = nullptr;
  void (*savedWarning_)(const char*) = nullptr;
};

}  // namespace

std::unique_ptr<SimPeer> makeMujocoSim(const SimScene& scene, MujocoIntegrator integrator) {
  return std::make_unique<MujocoSim>(scene, integrator);
}

}  // namespace hb::sim
