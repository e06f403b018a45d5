// The pair cache's contact forces: stored at each contact's point on body A, found again at that
// point in the next step (or substep), re-expressed in the new contact frame as the impulse over
// its length, and gone with the contacts.

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "engine/pair_cache.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

ContactConstraint contactAt(const Vector3d& point, const Vector3d& normal,
                            const Vector3d& impulse) {
  ContactConstraint c;
  c.point = point;
  c.normal = normal.normalized();
  c.buildTangents();
  c.impulse = impulse;
  return c;
}

TEST(PairCache, ImpulsesComeBackAtTheSamePointOfBodyA) {
  const Pose start{Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Vector3d::UnitZ())), {1, 2, 3}};
  std::vector<ContactConstraint> contacts;
  for (int i = 0; i < 4; ++i) {
    contacts.push_back(
        contactAt(start.apply(Vector3d(i & 1 ? 0.05 : -0.05, i & 2 ? 0.05 : -0.05, -0.05)),
                  Vector3d(0.1, 0, 1), Vector3d(2.0 + i, 0.1 * i, -0.2)));
  }
  PairCacheEntry entry;
  const double dt = 1.0 / 120.0;
  PairCache::storeContacts(entry, contacts, start, dt);
  EXPECT_EQ(entry.contactCount, 4);
  // Next step: body A moved and turned, the contacts are the same points of it with a new
  // normal (so a new tangent basis); each gets its own world impulse back.
  const Pose next{Eigen::Quaterniond(Eigen::AngleAxisd(0.35, Vector3d(0.1, 0, 1).normalized())),
                  {1.01, 2.0, 2.99}};
  for (int i = 0; i < 4; ++i) {
    const ContactConstraint& old = contacts[i];
    const Vector3d world = old.normal * old.impulse.x() + old.tangent1 * old.impulse.y() +
                           old.tangent2 * old.impulse.z();
    ContactConstraint c = contactAt(next.apply(start.applyInverse(old.point)),
                                    Vector3d(0.12, -0.01, 1), Vector3d::Zero());
    PairCache::warmStart(entry, c, next, 0.01, dt);
    const Vector3d back =
        c.normal * c.impulse.x() + c.tangent1 * c.impulse.y() + c.tangent2 * c.impulse.z();
    EXPECT_LT((back - world).norm(), 1e-12) << i;
  }
  // A point 2 cm from every stored one starts from zero.
  ContactConstraint far =
      contactAt(next.apply(Vector3d(0.0, 0.0, -0.05)), Vector3d::UnitZ(), Vector3d::Zero());
  PairCache::warmStart(entry, far, next, 0.01, dt);
  EXPECT_EQ(far.impulse, Vector3d::Zero());
}

TEST(PairCache, AShorterSubstepStartsFromItsShareOfTheImpulse) {
  // A resting contact carries its weight's impulse over a step; a substep a quarter as long
  // carries a quarter of it, and the next full step the whole again.
  PairCacheEntry entry;
  const double dt = 1.0 / 120.0;
  const Vector3d weight(0, 0, 9.81 * dt);
  const ContactConstraint resting =
      contactAt(Vector3d::Zero(), Vector3d::UnitZ(), Vector3d(weight.z(), 0, 0));
  PairCache::storeContacts(entry, std::span(&resting, 1), Pose{}, dt);
  ContactConstraint quarter = contactAt(Vector3d::Zero(), Vector3d::UnitZ(), Vector3d::Zero());
  PairCache::warmStart(entry, quarter, Pose{}, 0.01, dt / 4);
  EXPECT_NEAR(quarter.impulse.x(), weight.z() / 4, 1e-15);
  PairCache::storeContacts(entry, std::span(&quarter, 1), Pose{}, dt / 4);
  ContactConstraint whole = contactAt(Vector3d::Zero(), Vector3d::UnitZ(), Vector3d::Zero());
  PairCache::warmStart(entry, whole, Pose{}, 0.01, dt);
  EXPECT_NEAR(whole.impulse.x(), weight.z(), 1e-15);
}

TEST(PairCache, APairThatLostItsContactsKeepsNoImpulses) {
  PairCacheEntry entry;
  const std::vector<ContactConstraint> one = {
      contactAt(Vector3d::Zero(), Vector3d::UnitZ(), Vector3d(5, 0, 0))};
  PairCache::storeContacts(entry, one, Pose{}, 1.0);
  EXPECT_EQ(entry.contactCount, 1);
  PairCache::storeContacts(entry, {}, Pose{}, 1.0);
  ContactConstraint again = contactAt(Vector3d::Zero(), Vector3d::UnitZ(), Vector3d::Zero());
  PairCache::warmStart(entry, again, Pose{}, 0.01, 1.0);
  EXPECT_EQ(again.impulse, Vector3d::Zero());
}

TEST(PairCache, WarmStartNeverPulls) {
  // A stored impulse against the new normal (the contact turned over) gives no normal pull.
  PairCacheEntry entry;
  const std::vector<ContactConstraint> one = {
      contactAt(Vector3d::Zero(), Vector3d::UnitZ(), Vector3d(3, 0, 0))};
  PairCache::storeContacts(entry, one, Pose{}, 1.0);
  ContactConstraint flipped = contactAt(Vector3d::Zero(), -Vector3d::UnitZ(), Vector3d::Zero());
  PairCache::warmStart(entry, flipped, Pose{}, 0.01, 1.0);
  EXPECT_EQ(flipped.impulse.x(), 0.0);
}

}  // namespace
}  // namespace hb
