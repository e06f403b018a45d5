#include "dynamics/rigid_body.hpp"

#include <Eigen/LU>

namespace hb {

RigidBody RigidBody::dynamic(const MassProperties& properties) {
  if (!(properties.mass > 0.0)) throw MassPropertiesError("a dynamic body needs a mass > 0");
  RigidBody body;
  body.isStatic = false;
  body.inverseMass = 1.0 / properties.mass;
  body.inertiaBody = properties.inertia;
  body.inverseInertiaBody = properties.inertia.inverse();
  if (!body.inverseInertiaBody.allFinite()) {
    throw MassPropertiesError("inertia tensor is singular");
  }
  return body;
}

RigidBody RigidBody::fixed() {
  return RigidBody{};
}

double RigidBody::kineticEnergy() const {
  if (isStatic || inverseMass <= 0.0) return 0.0;
  return 0.5 * linearVelocity.squaredNorm() / inverseMass +
         0.5 * angularVelocity.dot(angularMomentum());
}

}  // namespace hb
