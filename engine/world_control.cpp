// Driving an experiment: setting a body's state, mass and material, forces held or for one step,
// gravity, and the contact impulses a body took. Every check comes before any change, so that a
// refused call leaves the world as it was.

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "collision/defaults.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

std::string onBody(const char* what, int body) {
  return std::string(what) + " on body " + std::to_string(body);
}

void requireFinite(const Eigen::Vector3d& v, const std::string& where, const char* argument) {
  if (!v.allFinite()) throw std::invalid_argument(where + ": " + argument + " must be finite");
}

void requirePointInRange(const Eigen::Vector3d& p, const std::string& where, const char* argument) {
  if (!(p.allFinite() && p.cwiseAbs().maxCoeff() <= defaults::kMaxLength)) {
    std::ostringstream what;
    what << where << ": " << argument << " must be finite and within " << defaults::kMaxLength
         << " m of the origin";
    throw std::invalid_argument(what.str());
  }
}

}  // namespace

void World::checkBodyIndex(int body, const char* what) const {
  if (body < 0 || body >= static_cast<int>(bodies_.state.size())) {
    throw std::out_of_range(std::string(what) + ": no body " + std::to_string(body) +
                            " (the world has " + std::to_string(bodies_.state.size()) + ")");
  }
}

RigidBody& World::dynamicBody(int body, const char* what) {
  checkBodyIndex(body, what);
  if (bodies_.state[body].isStatic) {
    throw std::invalid_argument(onBody(what, body) +
                                ": a static body (the ground, the funnel and the static shapes "
                                "are body 0) has no dynamic state");
  }
  return bodies_.state[body];
}

void World::applyImpulse(int body, const Eigen::Vector3d& worldPoint,
                         const Eigen::Vector3d& impulse) {
  RigidBody& r = dynamicBody(body, "applyImpulse");
  const std::string where = onBody("applyImpulse", body);
  requirePointInRange(worldPoint, where, "point");
  requireFinite(impulse, where, "impulse");
  const Eigen::Vector3d linear = r.linearVelocity + r.inverseMass * impulse;
  const Eigen::Vector3d angular =
      r.angularVelocity + r.inverseInertiaWorld() * (worldPoint - r.position).cross(impulse);
  if (!(linear.allFinite() && linear.norm() <= kMaxBodySpeed && angular.allFinite() &&
        angular.norm() <= kMaxBodyAngularSpeed)) {
    std::ostringstream what;
    what << where << ": the impulse would set the body moving faster than " << kMaxBodySpeed
         << " m/s or " << kMaxBodyAngularSpeed << " rad/s";
    throw std::invalid_argument(what.str());
  }
  const double before = r.kineticEnergy();
  r.linearVelocity = linear;
  r.angularVelocity = angular;
  const double added = r.kineticEnergy() - before;
  energyIn_ += added;
  energyScale_ += std::max(0.0, added);
  wakeIsland(body);
  r.restingTime = 0.0;
}

void World::setBodyState(int body, const BodyStateUpdate& update) {
  RigidBody& r = dynamicBody(body, "setBodyState");
  const std::string where = onBody("setBodyState", body);
  if (update.position) requirePointInRange(*update.position, where, "position");
  if (update.orientation) {
    const Eigen::Quaterniond& q = *update.orientation;
    if (!(q.coeffs().allFinite() && std::abs(q.norm() - 1.0) <= 1e-6)) {
      std::ostringstream what;
      what << where << ": orientation must be a finite unit quaternion (norm within 1e-6 of 1; "
           << "its norm is " << q.norm() << ")";
      throw std::invalid_argument(what.str());
    }
  }
  const Eigen::Vector3d linear = update.linearVelocity.value_or(r.linearVelocity);
  const Eigen::Vector3d angular = update.angularVelocity.value_or(r.angularVelocity);
  if (!(linear.allFinite() && linear.norm() <= kMaxBodySpeed)) {
    std::ostringstream what;
    what << where << ": linear_velocity must be finite and at most " << kMaxBodySpeed << " m/s";
    throw std::invalid_argument(what.str());
  }
  if (!(angular.allFinite() && angular.norm() <= kMaxBodyAngularSpeed)) {
    std::ostringstream what;
    what << where << ": angular_velocity must be finite and at most " << kMaxBodyAngularSpeed
         << " rad/s";
    throw std::invalid_argument(what.str());
  }
  const double before = bodyEnergy(r);
  if (update.position) r.position = *update.position;
  if (update.orientation) r.orientation = update.orientation->normalized();
  r.linearVelocity = linear;
  r.angularVelocity = angular;
  const double added = bodyEnergy(r) - before;
  energyIn_ += added;
  energyScale_ += std::max(0.0, added);
  wakeIsland(body);
  r.restingTime = 0.0;
  if (update.position || update.orientation) {
    forgetPairs(body);
    updateWorldObbs();
  }
}

void World::removeBody(int body) {
  RigidBody& r = dynamicBody(body, "removeBody");
  wakeIsland(body);
  energyIn_ -= bodyEnergy(r);
  const std::vector<int> pieces = bodies_.info[body].proxies;
  const int first = pieces.front();
  const int count = static_cast<int>(pieces.size());  // a body's pieces are consecutive
  pieces_.erase(first, count);
  bodies_.erase(body);
  forgetJoints(body);
  for (Proxy& p : pieces_.proxy) {
    if (p.body > body) --p.body;
  }
  for (WorldBody& b : bodies_.info) {
    for (int& p : b.proxies) {
      if (p >= first + count) p -= count;
    }
  }
  // The pair cache is keyed by piece: drop the body's pairs, move the later pieces' down.
  PairCache kept;
  pairCache_.forEachInOrder([&](int i, int j, const PairCacheEntry& e) {
    const auto gone = [&](int p) { return p >= first && p < first + count; };
    if (gone(i) || gone(j)) return;
    const auto moved = [&](int p) { return p >= first + count ? p - count : p; };
    kept.entry(moved(i), moved(j)) = e;
  });
  pairCache_ = std::move(kept);
  context_.contacts.clear();
  context_.narrowPhase.clear();
  context_.earlierNarrowPhase.clear();
  broadPhase_.reset();
  updateWorldObbs();
}

void World::forgetPairs(int body) {
  const std::vector<int>& pieces = bodies_.info[body].proxies;
  const auto mine = [&](int proxy) {
    return std::find(pieces.begin(), pieces.end(), proxy) != pieces.end();
  };
  pairCache_.eraseIf([&](int i, int j) { return mine(i) || mine(j); });
}

void World::applyForce(int body, const Eigen::Vector3d& force,
                       const std::optional<Eigen::Vector3d>& worldPoint) {
  RigidBody& r = dynamicBody(body, "applyForce");
  const std::string where = onBody("applyForce", body);
  requireFinite(force, where, "force");
  if (worldPoint) requirePointInRange(*worldPoint, where, "point");
  bodies_.forces[body].nextForce += force;
  if (worldPoint) bodies_.forces[body].nextTorque += (*worldPoint - r.position).cross(force);
}

void World::applyTorque(int body, const Eigen::Vector3d& torque) {
  dynamicBody(body, "applyTorque");
  requireFinite(torque, onBody("applyTorque", body), "torque");
  bodies_.forces[body].nextTorque += torque;
}

void World::setExternalForce(int body, const Eigen::Vector3d& force,
                             const Eigen::Vector3d& torque) {
  dynamicBody(body, "setExternalForce");
  const std::string where = onBody("setExternalForce", body);
  requireFinite(force, where, "force");
  requireFinite(torque, where, "torque");
  bodies_.forces[body].heldForce = force;
  bodies_.forces[body].heldTorque = torque;
}

const ExternalForces& World::externalForces(int body) const {
  checkBodyIndex(body, "externalForces");
  return bodies_.forces[body];
}

void World::wakeForced() {
  for (size_t i = 0; i < bodies_.state.size(); ++i) {
    if (bodies_.state[i].isStatic || !bodies_.forces[i].any()) continue;
    if (bodies_.state[i].sleeping) wakeIsland(static_cast<int>(i));
    bodies_.state[i].restingTime = 0.0;
  }
}

void World::setGravity(const Eigen::Vector3d& gravity) {
  requireFinite(gravity, "setGravity", "gravity");
  // Potential energy is measured along -gravity: keep the gain it reports.
  const double gain = energyGain();
  scene_.gravity = gravity;
  energyIn_ = mechanicalEnergy() - gain;
}

void World::setMaterial(int body, const Material& material) {
  checkBodyIndex(body, "setMaterial");
  const std::string where = onBody("setMaterial", body);
  if (!(std::isfinite(material.friction) && material.friction >= 0.0)) {
    throw std::invalid_argument(where + ": friction must be finite and at least 0");
  }
  if (!(material.restitution >= 0.0 && material.restitution <= 1.0)) {
    throw std::invalid_argument(where + ": restitution must be within [0, 1]");
  }
  bodies_.info[body].material = material;
}

void World::setMass(int body, double mass) {
  RigidBody& r = dynamicBody(body, "setMass");
  if (!(std::isfinite(mass) && mass > 0.0)) {
    throw std::invalid_argument(onBody("setMass", body) + ": mass must be finite and positive");
  }
  const double before = bodyEnergy(r);
  const double scale = mass * r.inverseMass;  // new mass over old
  r.inverseMass = 1.0 / mass;
  r.inertiaBody *= scale;
  r.inverseInertiaBody /= scale;
  const double added = bodyEnergy(r) - before;
  energyIn_ += added;
  energyScale_ += std::abs(added);
  wakeIsland(body);
}

std::vector<World::RestingContact> World::restingContacts() const {
  std::vector<RestingContact> out;
  pairCache_.forEachInOrder([&](int i, int j, const PairCacheEntry& e) {
    const int a = pieces_.proxy[i].body, b = pieces_.proxy[j].body;
    if (bodies_.state[a].isActive() || bodies_.state[b].isActive()) return;
    const Pose poseA = bodyPose(a);
    for (int k = 0; k < e.contactCount; ++k) {
      out.push_back({a, b, poseA.apply(e.contacts[k].pointOnA), e.contacts[k].force});
    }
  });
  return out;
}

Eigen::Vector3d World::bodyContactImpulse(int body) const {
  checkBodyIndex(body, "bodyContactImpulse");
  Eigen::Vector3d total = Eigen::Vector3d::Zero();
  for (const ContactConstraint& c : context_.contacts) {
    if (c.bodyA != body && c.bodyB != body) continue;
    // The normal points from A to B: the impulse pushes B along it and A against it.
    const Eigen::Vector3d p =
        c.impulse.x() * c.normal + c.impulse.y() * c.tangent1 + c.impulse.z() * c.tangent2;
    if (c.bodyB == body) total += p;
    if (c.bodyA == body) total -= p;
  }
  return total;
}

}  // namespace hb
