#pragma once
// A scene as every engine of `heavyball bench sim` builds it: the static pieces, and the dynamic
// bodies in the order they enter with the step at which each enters, their collision shape,
// mass properties about the centre of mass and initial state, exactly as heavyball's World
// builds them from the scene file (listed bodies at step 0, then the spawner's drops).

#include <Eigen/Core>
#include <string>
#include <vector>

#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "engine/scene.hpp"

namespace hb::sim {

/// One convex static piece, in world coordinates.
struct SimStatic {
  Shape shape;
  Pose pose;
  /// Index of the scene's static it belongs to (a funnel is one static of many panels).
  int group = 0;
};

/// One convex piece of a body, placed in the body frame.
struct SimPiece {
  Shape shape;
  Pose inBody;
};

/// One dynamic body. The body frame is heavyball's: origin at the centre of mass, axes of the
/// shape's own frame (so the inertia tensor is in general not diagonal).
struct SimBody {
  std::string name;  ///< asset name or shape type
  Shape shape;       ///< collision shape in its own frame (a compound's: its hull, not collided)
  Pose shapeInBody;  ///< shape frame -> body frame
  /// What collides: `shape` alone, or a compound's pieces ("collision": "parts").
  std::vector<SimPiece> pieces;
  bool isCompound() const { return pieces.size() > 1; }
  /// The pieces, or `shape` alone for a body built by hand without them (physics scenarios).
  std::vector<SimPiece> collisionPieces() const {
    return pieces.empty() ? std::vector<SimPiece>{{shape, shapeInBody}} : pieces;
  }
  double mass = 0.0;                                      ///< kg
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Identity();  ///< kg m^2, about the centre of mass
  Pose pose;  ///< initial pose of the body frame in the world
  Eigen::Vector3d linearVelocity = Eigen::Vector3d::Zero();   ///< m/s, world
  Eigen::Vector3d angularVelocity = Eigen::Vector3d::Zero();  ///< rad/s, world
  Material material;
  long dropStep = 0;  ///< the body enters at the start of this step (0: before the first)
  /// How heavyball's World adds this body (World::addBody).
  BodyDescription description;
};

struct SimScene {
  /// The scene without its bodies and spawner: gravity, dt, statics, bounds, solver settings.
  SceneDescription base;
  std::vector<SimStatic> statics;
  Material staticMaterial;      ///< heavyball keeps one material for all statics
  std::vector<SimBody> bodies;  ///< in order of entry (dropStep never decreases)
  /// The scene's joints as its file gives them: bodyA and bodyB are 0 for the world and k for
  /// bodies[k - 1]; anchor and axis are in the world at the bodies' initial poses, where the
  /// joint's position (a revolute joint's angle about `axis`, right-handed, of B relative to A;
  /// a prismatic joint's offset along it) is zero. Every engine adds a joint when the later of
  /// its bodies enters, or refuses it (std::runtime_error) with what it cannot build.
  std::vector<JointDescription> joints;
};

/// The scene's statics and bodies as heavyball's World builds them, with the spawner's drops
/// (the same random draws) and the step at which each one happens. Throws like World does for
/// bad assets.
SimScene buildSimScene(const SceneDescription& scene);

}  // namespace hb::sim
