#pragma once
// What the joint bindings (apps/python/joint_bindings.cpp, joint_states.cpp) share: joint type
// names as in scene files, and the checked look-up of a joint by index.

#include <string>

#include "dynamics/joint.hpp"

namespace hb {
class World;
}

namespace hb::python {

/// The world's joint `joint`; IndexError naming `where` for no such joint
/// (apps/python/joint_bindings.cpp).
const Joint& jointOf(const World& world, long long joint, const std::string& where);
/// The same, and ValueError naming `where` for one without a free axis.
const Joint& axisJoint(const World& world, long long joint, const std::string& where);

}  // namespace hb::python
