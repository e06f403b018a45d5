// The pair cache's contact forces: stored at each contact's point on body A, found again at that
// point in the next step (or substep), re-expressed in the new contact frame as the impulse over
// its length, and gone with the contacts. Its entries, kept in pair order, against a std::map on
// thousands of random rounds.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <vector>

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

/// The reference: a map from (i, j) to what the test stores in an entry (its lastRound).
using Reference = std::map<std::pair<int, int>, long>;

void expectSame(const PairCache& cache, const Reference& reference) {
  ASSERT_EQ(cache.size(), reference.size());
  auto it = reference.begin();
  cache.forEachInOrder([&](int i, int j, const PairCacheEntry& entry) {
    EXPECT_EQ(std::make_pair(i, j), it->first);
    EXPECT_EQ(entry.lastRound, it->second);
    ++it;
  });
}

void serially(std::size_t n, const std::function<void(std::size_t)>& f) {
  for (std::size_t k = 0; k < n; ++k) f(k);
}

TEST(PairCache, RebuiltRoundsMatchAMapOnRandomPairs) {
  // 2000 rounds over 60 proxies: each sees a random set of pairs (sometimes the same set as the
  // round before), keeps some pairs it did not see, and is looked up in order and at random.
  std::mt19937 random(20261130);
  PairCache cache;
  Reference reference;
  std::set<std::pair<int, int>> previous;
  for (long round = 0; round < 2000; ++round) {
    std::set<std::pair<int, int>> seen;
    if (round % 7 == 3) {
      seen = previous;
    } else {
      const int count = std::uniform_int_distribution<int>(0, 120)(random);
      for (int k = 0; k < count; ++k) {
        int i = std::uniform_int_distribution<int>(0, 59)(random);
        int j = std::uniform_int_distribution<int>(0, 59)(random);
        if (i == j) continue;
        seen.emplace(std::min(i, j), std::max(i, j));
      }
    }
    // Pairs of proxies 50 and up "sleep": kept when not seen.
    const auto keep = [](int i, int j) { return i >= 50 && j >= 50; };
    std::vector<std::uint64_t> keys;
    std::vector<std::pair<int, int>> pairs(seen.begin(), seen.end());
    for (const auto& [i, j] : pairs) keys.push_back(PairCache::key(i, j));
    cache.rebuild(
        keys, keep,
        [&](PairCacheEntry& entry, std::size_t k, const PairCacheEntry& old) {
          // The old entry comes along: its round is the one the reference holds.
          const auto had = reference.find(pairs[k]);
          EXPECT_EQ(old.lastRound, had == reference.end() ? -1 : had->second);
          entry = old;
          entry.lastRound = round;
        },
        serially);
    for (auto it = reference.begin(); it != reference.end();) {
      const bool wasSeen = seen.count(it->first) > 0;
      if (!wasSeen && !keep(it->first.first, it->first.second)) {
        it = reference.erase(it);
      } else {
        ++it;
      }
    }
    for (const auto& pair : pairs) reference[pair] = round;
    expectSame(cache, reference);
    // Look-ups: in order with a cursor (found or not), and at random with find.
    PairCache::Cursor cursor(cache);
    for (int i = 0; i < 60; i += 1 + static_cast<int>(random() % 3)) {
      for (int j = i + 1; j < 60; j += 1 + static_cast<int>(random() % 4)) {
        const PairCacheEntry* found = cursor.find(i, j);
        const auto it = reference.find({i, j});
        ASSERT_EQ(found != nullptr, it != reference.end()) << i << " " << j;
        if (found) {
          EXPECT_EQ(found->lastRound, it->second);
          EXPECT_EQ(found, cache.find(i, j));
        }
      }
    }
    const PairCacheEntry* again = cursor.find(0, 1);  // out of order: searched from the start
    EXPECT_EQ(again, cache.find(0, 1));
    previous = seen;
  }
}

TEST(PairCache, EntriesMadeInAnyOrderStayInPairOrder) {
  PairCache cache;
  Reference reference;
  std::mt19937 random(7);
  for (int k = 0; k < 500; ++k) {
    const int i = static_cast<int>(random() % 40), j = 40 + static_cast<int>(random() % 40);
    cache.entry(i, j).lastRound = k;
    reference[{i, j}] = k;
  }
  expectSame(cache, reference);
  cache.eraseIf([](int i, int j) { return (i + j) % 3 == 0; });
  std::erase_if(reference,
                [](const auto& item) { return (item.first.first + item.first.second) % 3 == 0; });
  expectSame(cache, reference);
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.find(1, 41), nullptr);
}

}  // namespace
}  // namespace hb
