#pragma once
// The parsers of a scene file's parts that live outside engine/scene.cpp (the joints, the
// articulations and the joint targets: engine/scene_joints.cpp), and what they share with it
// and with the Python bindings.
// Errors are JsonError naming the JSON path `where`.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/json_read.hpp"
#include "engine/scene.hpp"

namespace hb::scene_parsers {

using nlohmann::json;

Material parseMaterial(const json& value, const std::string& where);
/// A joint's "motor" ({"max_force" required, "velocity", "position", "stiffness", "damping"})
/// and "spring" ({"stiffness", "damping", "rest"}), as scene files and Python's add_joint give
/// them.
JointMotor parseJointMotor(const json& value, const std::string& where);
JointSpring parseJointSpring(const json& value, const std::string& where);
/// A motor target: a number into `scalar`, or three (a spherical joint's, along its frame A's
/// axes) into `vector`.
void parseMotorTarget(const json& value, const std::string& where, double& scalar, double* vector);
/// One entry of "joints"; bodies index the scene's `sceneBodies` bodies (or "world").
JointDescription parseJoint(const json& value, const std::string& where, std::size_t sceneBodies);
/// One entry of "articulations": its URDF's links and joints appended to the scene.
void parseArticulation(const json& value, const std::string& where,
                       const std::filesystem::path& baseDir, MeshHullCache& meshes,
                       SceneDescription& scene);
/// "joint_targets": checked against the scene's joints (by name, each with a motor).
std::vector<JointTargetSchedule> parseJointTargets(const json& value, const std::string& where,
                                                   const SceneDescription& scene);
/// Joint names given twice.
void requireUniqueJointNames(const SceneDescription& scene, const std::string& where);

}  // namespace hb::scene_parsers
