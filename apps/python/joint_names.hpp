#pragma once
// What the joint bindings (apps/python/joint_bindings.cpp, joint_states.cpp) share: joint type
// names as in scene files, and the checked look-up of a joint by index.

#include <string>

#include "dynamics/joint.hpp"

namespace hb {
class World;
}

namespace hb::python {

/// The world's joint `joint` if it has a free axis; IndexError for no such joint, ValueError
/// for one without a free axis, both naming `where` (apps/python/joint_bindings.cpp).
const Joint& axisJoint(const World& world, long long joint, const std::string& where);

}  // namespace hb::python
