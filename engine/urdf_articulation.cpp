#include "engine/urdf_articulation.hpp"

#include <console_bridge/console.h>

#include <urdf_parser/urdf_parser.h>
#include <Eigen/Geometry>
#include <cmath>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "collision/convex_hull.hpp"

namespace hb {

namespace fs = std::filesystem;
using Eigen::Quaterniond;
using Eigen::Vector3d;

namespace {

/// The parser's own messages, kept for the error instead of printed.
class MessageKeeper : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) {
      messages += (messages.empty() ? "" : "; ") + text;
    }
  }
  std::string messages;
};

urdf::ModelInterfaceSharedPtr parseFile(const fs::path& file) {
  // The parser reports through a process-wide handler.
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  MessageKeeper keeper;
  console_bridge::useOutputHandler(&keeper);
  urdf::ModelInterfaceSharedPtr model;
  try {
    model = urdf::parseURDFFile(file.string());
  } catch (const std::exception& e) {
    keeper.messages += e.what();
  }
  console_bridge::restorePreviousOutputHandler();
  if (!model) {
    throw UrdfError(file.string() + ": not a readable URDF file" +
                    (keeper.messages.empty() ? "" : " (" + keeper.messages + ")"));
  }
  return model;
}

Pose poseIn(const urdf::Pose& p) {
  double x, y, z, w;
  p.rotation.getQuaternion(x, y, z, w);
  return {Quaterniond(w, x, y, z).normalized(), Vector3d(p.position.x, p.position.y, p.position.z)};
}

Vector3d vectorOf(const urdf::Vector3& v) {
  return {v.x, v.y, v.z};
}

/// What the parts of one robot share while they are added.
struct Builder {
  const ArticulationDescription& articulation;
  const urdf::ModelInterface& model;
  MeshHullCache& meshes;
  SceneDescription& scene;
  std::unordered_map<std::string, int> bodyOf;   // link name -> world body index (0: the world)
  std::unordered_map<std::string, Pose> poseOf;  // link name -> link frame in the world

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw UrdfError(articulation.urdf.string() + ": " + where + ": " + what);
  }

  /// A geometry's convex shapes in its own frame: one, or a mesh's parts.
  std::vector<Shape> shapesOf(const urdf::Geometry& g, const std::string& where) {
    switch (g.type) {
      case urdf::Geometry::BOX: {
        const auto& box = static_cast<const urdf::Box&>(g);
        return {Shape::box(0.5 * vectorOf(box.dim))};
      }
      case urdf::Geometry::SPHERE:
        return {Shape::sphere(static_cast<const urdf::Sphere&>(g).radius)};
      case urdf::Geometry::CYLINDER: {
        const auto& cylinder = static_cast<const urdf::Cylinder&>(g);
        return {Shape::cylinder(cylinder.radius, 0.5 * cylinder.length)};
      }
      case urdf::Geometry::MESH:
        return meshShapes(static_cast<const urdf::Mesh&>(g), where);
    }
    fail(where, "unknown geometry");
  }

  /// A mesh collides as the convex hull of its (scaled) vertices, or, when its file holds
  /// several objects (a convex decomposition), as the hull of each.
  std::vector<Shape> meshShapes(const urdf::Mesh& mesh, const std::string& where) {
    std::string name = mesh.filename;
    if (name.rfind("package://", 0) == 0) {
      fail(where,
           "a mesh given by package:// (" + name + "): give a path relative to the URDF file");
    }
    if (name.rfind("file://", 0) == 0) name = name.substr(7);
    const fs::path file = (articulation.urdf.parent_path() / name).lexically_normal();
    const Vector3d scale = vectorOf(mesh.scale);
    if (!(scale.minCoeff() > 0.0) || !scale.allFinite()) fail(where, "a mesh scale must be > 0");
    std::vector<Shape> shapes;
    for (const auto& hull : meshes.parts(file)) {
      if (scale == Vector3d::Ones()) {
        shapes.push_back(Shape::convexHull(hull));
        continue;
      }
      std::vector<Vector3d> points(hull->vertices().begin(), hull->vertices().end());
      for (Vector3d& point : points) point = point.cwiseProduct(scale);
      shapes.push_back(
          Shape::convexHull(std::make_shared<const ConvexHull>(ConvexHull::build(points))));
    }
    return shapes;
  }

  /// The link's collision pieces, each posed in the link's frame: every collision geometry
  /// (each part of a mesh of several objects).
  std::vector<ShapePiece> collisionOf(const urdf::Link& link) {
    const std::string where = "link '" + link.name + "'";
    std::vector<urdf::CollisionSharedPtr> collisions = link.collision_array;
    if (collisions.empty() && link.collision) collisions.push_back(link.collision);
    std::vector<ShapePiece> pieces;
    for (std::size_t k = 0; k < collisions.size(); ++k) {
      const std::string at =
          collisions.size() > 1 ? where + ", collision " + std::to_string(k) : where;
      if (!collisions[k] || !collisions[k]->geometry) fail(at, "no collision geometry");
      try {
        for (Shape& shape : shapesOf(*collisions[k]->geometry, at)) {
          pieces.push_back({std::move(shape), poseIn(collisions[k]->origin)});
        }
      } catch (const std::invalid_argument& e) {  // a degenerate size or mesh
        fail(at, e.what());
      }
    }
    if (pieces.empty()) fail(where, "no collision geometry");
    return pieces;
  }

  /// The inertial in the shape's frame (`inLink`: the shape's frame in the link's).
  std::optional<MassProperties> inertialOf(const urdf::Link& link, const Pose& inLink) const {
    if (!link.inertial) return std::nullopt;
    const urdf::Inertial& in = *link.inertial;
    Eigen::Matrix3d inertia;
    inertia << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    if (!(in.mass > 0.0) || !std::isfinite(in.mass) || !inertia.allFinite()) {
      fail("link '" + link.name + "'", "an inertial needs a finite mass > 0 and finite inertia");
    }
    const Pose inShape = inLink.inverse() * poseIn(in.origin);
    const Eigen::Matrix3d r = inShape.q.toRotationMatrix();
    MassProperties mass;
    mass.mass = in.mass;
    mass.centerOfMass = inShape.p;
    mass.inertia = r * inertia * r.transpose();
    return mass;
  }

  void addLink(const urdf::Link& link, const Pose& pose, bool isBase) {
    poseOf[link.name] = pose;
    if (isBase && articulation.fixedBase) {
      bodyOf[link.name] = 0;
      if (!link.collision) return;  // a base of no geometry: only the world
      for (const ShapePiece& piece : collisionOf(link)) {
        StaticDescription base;
        base.kind = StaticDescription::Kind::Shape;
        base.shape = piece.shape;
        base.pose = pose * piece.pose;
        base.material = articulation.material;
        scene.statics.push_back(base);
      }
      return;
    }
    std::vector<ShapePiece> pieces = collisionOf(link);
    BodyDescription body;
    body.material = articulation.material;
    if (pieces.size() == 1) {  // the shape's frame is the geometry's
      body.shape.shape = pieces[0].shape;
      body.pose = pose * pieces[0].pose;
      body.inertial = inertialOf(link, pieces[0].pose);
    } else {  // a compound in the link's frame
      body.shape.pieces = std::move(pieces);
      body.pose = pose;
      body.inertial = inertialOf(link, Pose::identity());
    }
    scene.bodies.push_back(body);
    bodyOf[link.name] = static_cast<int>(scene.bodies.size());  // the world is body 0
  }

  void addJoint(const urdf::Joint& j) {
    const std::string where = "joint '" + j.name + "'";
    if (j.mimic) fail(where, "mimic joints are not supported: drive each joint");
    JointDescription joint;
    joint.name = articulation.prefix + j.name;
    switch (j.type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS:
        joint.type = JointType::Revolute;
        break;
      case urdf::Joint::PRISMATIC:
        joint.type = JointType::Prismatic;
        break;
      case urdf::Joint::FIXED:
        joint.type = JointType::Fixed;
        break;
      case urdf::Joint::FLOATING:
        return;  // the child moves freely
      default:
        fail(where, "a planar or unknown joint type");
    }
    joint.bodyA = bodyOf.at(j.parent_link_name);
    joint.bodyB = bodyOf.at(j.child_link_name);
    if (joint.bodyA == joint.bodyB) fail(where, "joins the fixed base to itself");
    // The child link's frame is the joint's frame at zero.
    const Pose frame = poseOf.at(j.child_link_name);
    joint.anchor = frame.p;
    const Vector3d axis = vectorOf(j.axis);
    if (joint.type != JointType::Fixed) {
      if (!(axis.norm() > 1e-9) || !axis.allFinite()) fail(where, "a zero or non-finite axis");
      joint.axis = (frame.q * axis).normalized();
    }
    const bool free = hasFreeAxis(joint.type);
    if (free && j.type != urdf::Joint::CONTINUOUS && j.limits &&
        j.limits->lower < j.limits->upper) {
      joint.limit = {true, j.limits->lower, j.limits->upper};
    }
    if (free && j.dynamics) {
      const double damping = j.dynamics->damping, friction = j.dynamics->friction;
      if (!(damping >= 0.0) || !(friction >= 0.0) || !std::isfinite(damping + friction)) {
        fail(where, "dynamics damping and friction must be finite and >= 0");
      }
      joint.spring.damping = damping;
      joint.friction = friction;
    }
    const JointMotor& drive = articulation.drive;
    if (free && drive.servo() && j.limits && j.limits->effort > 0.0) {
      joint.motor = drive;
      joint.motor.enabled = true;
      joint.motor.maxForce = j.limits->effort;
    }
    scene.joints.push_back(joint);
  }

  /// The links below `link` and their joints, parents before children.
  void addChildren(const urdf::Link& link, const Pose& pose) {
    for (const auto& j : link.child_joints) {
      const urdf::LinkConstSharedPtr child = model.getLink(j->child_link_name);
      if (!child) fail("joint '" + j->name + "'", "no child link");
      const Pose childPose = pose * poseIn(j->parent_to_joint_origin_transform);
      addLink(*child, childPose, false);
      addJoint(*j);
      addChildren(*child, childPose);
    }
  }
};

}  // namespace

void addArticulation(const ArticulationDescription& articulation, MeshHullCache& meshes,
                     SceneDescription& scene) {
  const urdf::ModelInterfaceSharedPtr model = parseFile(articulation.urdf);
  const urdf::LinkConstSharedPtr root = model->getRoot();
  if (!root) throw UrdfError(articulation.urdf.string() + ": no root link");
  Builder builder{articulation, *model, meshes, scene, {}, {}};
  builder.addLink(*root, articulation.pose, true);
  builder.addChildren(*root, articulation.pose);
}

}  // namespace hb
