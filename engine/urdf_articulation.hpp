#pragma once
// A robot described in URDF (a scene's "articulations", docs/joints.md) as the scene's own
// parts: each link a body (its collision geometries as the shape, or the pieces of a compound
// when there are several or a mesh holds several objects; its inertial as the mass properties),
// each joint a joint between them, given in the world at the robot's starting
// configuration (every joint at zero). A fixed base is the world: the root link's geometry a
// static, the joints to it joints to the world.

#include <filesystem>
#include <stdexcept>
#include <string>

#include "collision/pose.hpp"
#include "dynamics/joint.hpp"
#include "engine/json_read.hpp"
#include "engine/scene.hpp"

namespace hb {

struct ArticulationDescription {
  std::filesystem::path urdf;  ///< absolute
  Pose pose;                   ///< the root link's pose in the world
  bool fixedBase = true;
  std::string prefix;  ///< put before every joint's name
  /// The motor every revolute and prismatic joint gets: its gains and targets (a servo holding
  /// the starting configuration with the defaults), its force the joint's URDF effort. None
  /// when its stiffness and damping are zero.
  JointMotor drive;
  Material material;
};

/// A URDF file that cannot be read, or holds what a scene cannot take (a link with no
/// collision geometry, a planar joint, a mimic joint, a mesh given by package://).
/// The message names the file and the element.
class UrdfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Appends the articulation's links to scene.bodies (and its fixed base to scene.statics) and
/// its joints to scene.joints.
void addArticulation(const ArticulationDescription& articulation, MeshHullCache& meshes,
                     SceneDescription& scene);

}  // namespace hb
