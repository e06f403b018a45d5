#pragma once
// What one World::step hands from stage to stage. Each field is written by one stage (named in
// its comment) and read by the later ones; the World keeps one context so that the buffers
// allocate only while the scene grows.

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "collision/broad_phase.hpp"
#include "collision/collide.hpp"
#include "collision/defaults.hpp"
#include "collision/obb.hpp"
#include "collision/pose.hpp"
#include "collision/time_of_impact.hpp"
#include "dynamics/contact_constraint.hpp"
#include "dynamics/contact_solver.hpp"
#include "dynamics/integrator.hpp"
#include "dynamics/union_find.hpp"
#include "engine/pair_cache.hpp"

namespace hb {

/// Narrow-phase answer for one candidate pair, kept for observers (debug draw, recorder), with
/// the contacts it gave.
struct NarrowPhaseRecord {
  int proxyA = -1, proxyB = -1;
  Pose poseA, poseB;   ///< world poses of the two pieces, as queried (the substep's start)
  int substep = 0;     ///< of the step (substepCount)
  SupportHints hints;  ///< the support hints handed to collide()
  /// False when the pair's kept manifold stood in for the query (it touches and barely moved
  /// since the manifold was built: standInResult, collision/persistent_manifold.hpp); `result`
  /// is then the manifold's answer, and no GJK ran.
  bool queried = true;
  CollisionResult result;
  Eigen::Vector3d initialGuess = Eigen::Vector3d::Zero();
  /// Centres of the two pieces' world boxes as queried, which the OBB warm start reads.
  Eigen::Vector3d obbCenterA = Eigen::Vector3d::Zero(), obbCenterB = Eigen::Vector3d::Zero();
  /// The pair's solution from the previous narrow phase (the previous substep or step), when it
  /// saw the pair.
  std::optional<PreviousSolution> previous;
  bool hadPrevious() const { return previous.has_value(); }
  /// The simplex the query started from: the pair's last (solver.warm_simplex), when the previous
  /// narrow phase saw the pair; empty otherwise.
  WarmSimplex warmSimplex;
  /// Gaps below this (m) give speculative contacts: the scene's margin plus how far the two
  /// bodies can move this substep.
  double margin = 0.0;
  /// The contacts it gave: World::contacts()[firstContact, firstContact + contactCount).
  int firstContact = 0;
  int contactCount = 0;
  /// What the pair cache remembered of the pair before this substep (engine-internal; valid
  /// during the substep; null for a pair it has not seen). Read only: the pair cache stage
  /// (updatePairCache) is the one that writes it.
  const PairCacheEntry* cache = nullptr;
};

/// Where a pair's manifold came from (pairManifold).
enum class ManifoldSource { None, Built, Reposed, Impact };

/// One pair's contact constraints, as a worker builds them (pairContacts), and the
/// manifold the pair keeps for the next substep.
struct PairContacts {
  std::array<ContactConstraint, defaults::kMaxManifoldPoints> contacts;
  int count = 0;
  ManifoldSource source = ManifoldSource::None;
  /// Built: the manifold to keep (none for shapes that roll); Impact: the kept one is dropped;
  /// Reposed and None: it stays.
  std::optional<PersistentManifold> keptManifold;
};

/// The broad phase's entries, one row each: a piece (proxy >= 0), or a compound body as one box
/// (proxy = -1 - body). The first three columns are the broad phase's input.
struct BroadPhaseEntries {
  std::vector<Obb> boxes;
  std::vector<int> owners;  ///< body
  std::vector<std::uint8_t> isStatic;
  std::vector<int> proxy;

  void clear() {
    boxes.clear();
    owners.clear();
    isStatic.clear();
    proxy.clear();
  }
  void add(const Obb& box, int owner, bool staticEntry, int entryProxy) {
    boxes.push_back(box);
    owners.push_back(owner);
    isStatic.push_back(staticEntry ? 1 : 0);
    proxy.push_back(entryProxy);
  }
};

/// What one World::step hands from stage to stage (engine/step/stages.hpp), by the stage that
/// writes it.
struct StepContext {
  // find pairs
  std::vector<Obb> sweptObbs;  ///< grown by half the margin and the body's sweep
  std::vector<double> sweep;   ///< per body: how far any of its points can move (m)
  BroadPhaseEntries entries;
  std::vector<int> piecesA, piecesB;  ///< a compound pair's pieces that meet the other side
  std::vector<ProxyPair> pairs;       ///< overlapping proxy pairs, sorted
  // collide (and wake)
  std::vector<char> collided;  ///< per pair: went through the narrow phase
  std::vector<NarrowPhaseRecord> narrowPhase;
  /// The records of the step's earlier substeps, in order (for the recorder).
  std::vector<NarrowPhaseRecord> earlierNarrowPhase;
  // plan substeps
  std::vector<int> bodySubsteps;   ///< per body: its island's substeps (0: not awake at the plan)
  std::vector<int> passSubsteps;   ///< the step's passes (World::step), one per count, most first
  UnionFind substepIslands;        ///< the awake bodies its contacts join
  std::vector<double> islandTurn;  ///< per body, then per island on its root: rad over the step
  /// per body: held still, as if asleep, while the islands of another pass take their substeps
  /// (World::step; empty outside such a pass)
  std::vector<char> held;
  bool isHeld(int body) const { return !held.empty() && held[body]; }
  /// The first narrow phase's records of the passes still to run, and the records and contacts
  /// of the passes run (each island's last substep's), gathered for observers.
  std::vector<NarrowPhaseRecord> firstRecords, passRecords;
  std::vector<ProxyPair> firstPairs;  ///< the first broad phase's pairs, which the sweeps read
  std::vector<ContactConstraint> passContacts;
  // build contacts
  std::vector<PairContacts> pairContacts;  ///< per narrow-phase record, as its worker built them
  /// Per narrow-phase record, what gathering its contacts needs, side by side (a PairContacts is
  /// three quarters of a kilobyte: reading each one's count in turn cost a cache miss a pair).
  struct PairSummary {
    int count = 0;         ///< its contacts
    int first = 0;         ///< where they go in `contacts`
    double deepest = 0.0;  ///< its deepest contact's depth (m), or -infinity without any
    ManifoldSource source = ManifoldSource::None;
    bool compound = false;  ///< a body of several pieces: its contacts may need reducing
  };
  std::vector<PairSummary> pairSummaries;
  // update pair cache: the narrow-phase records in the order of their pairs, and their keys
  std::vector<std::uint32_t> cacheOrder;
  std::vector<std::uint64_t> cacheKeys;
  std::vector<ContactConstraint> contacts;
  std::vector<std::uint8_t> keepContact;  ///< per contact, after its region's reduction
  int reusedManifolds = 0;
  // solve
  std::vector<char> inContact;  ///< per body: has a contact this substep (its turn is limited)
  /// per body: the angular velocity the substep started with, before its external torques (the
  /// joints' anchors' arcs, JointRows)
  std::vector<Eigen::Vector3d> startSpin;
  RotationSteps rotations;  ///< per body, from integrate velocities to integrate
  PseudoVelocities pseudo;
  // integrate, with continuous collision only
  std::vector<Pose> startPoses;        ///< per body, before the step's integration
  std::vector<RigidMotion> motions;    ///< per body, its path over the step
  std::vector<char> fast;              ///< per body: swept (moved far this step)
  std::vector<double> impactTime;      ///< per fast body, s into the step (dt: none)
  std::vector<double> pairImpactTime;  ///< per pair, s into the step (dt: none)
  std::vector<char> pairSweepStalled;  ///< per pair: its sweep stalled (ToiResult::relaxed)
  // sleep
  std::vector<std::pair<int, int>> touching;  ///< body pairs in contact
  std::vector<int> islands;                   ///< per body, among the awake ones
  std::vector<char> wasAwake;                 ///< per body, before the sleep update
};

}  // namespace hb
