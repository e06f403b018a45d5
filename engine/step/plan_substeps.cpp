// How many substeps a step takes (planSubsteps, after the first narrow phase): each island of
// touching bodies as many as its fastest turn asks for, and the whole world enough for the
// bodies the joints hold.

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "engine/step/stages.hpp"

namespace hb {
namespace {

/// rad: the most a body with a contact turns in one substep (planSubsteps).
constexpr double kSubstepTurn = std::numbers::pi / 16;
/// rad: the most a body a joint holds turns in one substep, where solver.joint_rate would let
/// it turn further.
constexpr double kJointSubstepTurn = 0.1;

/// While a joint holds an awake body: substeps of 1 / solver.jointRate, or more, up to
/// kMaxSubsteps, so that none of its bodies turns more than kJointSubstepTurn in a substep (a
/// heavy body swung on light links whips them round at 50 rad/s). Else 1. The turn decides
/// only past the rate's reach, in the rare whip: a count that follows ordinary motion pumps
/// energy in.
int jointSubsteps(const SolverDescription& settings, double dt, const BodyTable& bodies,
                  std::span<const Joint> joints) {
  constexpr int most = kMaxSubsteps;
  bool awake = false;
  double turn = 0.0;
  for (const Joint& j : joints) {
    for (const int body : {j.bodyA, j.bodyB}) {
      const RigidBody& r = bodies.state[body];
      if (!r.isActive()) continue;
      awake = true;
      turn = std::max(turn, r.angularVelocity.norm() * dt);
    }
  }
  if (!awake) return 1;
  const double forRate = std::ceil(settings.jointRate * dt - 1e-9);
  const int forTurn = turn < most * kJointSubstepTurn
                          ? static_cast<int>(std::ceil(turn / kJointSubstepTurn))
                          : most;  // also a non-finite spin
  return std::max({1, forTurn, static_cast<int>(std::min<double>(forRate, most))});
}

/// The substeps a body's turn asks for (rad over the step), when it has a contact: enough that
/// it turns at most kSubstepTurn in one, up to solver.max_substeps, and past that as many as the
/// turn limit of bodies with contacts (solver.max_contact_turn) needs to bind only past
/// kMaxSubsteps.
int substepsForTurn(const SolverDescription& settings, double turn) {
  const int most = settings.maxSubsteps;
  const double limit = settings.maxContactTurn;
  if (!(turn < kMaxSubsteps * limit)) return kMaxSubsteps;  // also a spin too large to count
  const int forLimit = static_cast<int>(std::ceil(turn / limit));
  const int forContacts =
      turn < most * kSubstepTurn ? static_cast<int>(std::ceil(turn / kSubstepTurn)) : most;
  return std::max({1, forLimit, forContacts});
}

}  // namespace

int planSubsteps(const SolverDescription& settings, double dt, const BodyTable& bodies,
                 const PieceTable& pieces, std::span<const Joint> joints, StepContext& c) {
  // Contacts are linear in their (sub)step: the gap a speculative contact measures closes at
  // the bodies' relative speed along its normal, which bounds the true approach of two convex
  // bodies that only translate, but not of one that turns. A step is split so that no body with
  // a contact turns more than kSubstepTurn in a substep (substepsForTurn); steps without one
  // stay whole, and max_substeps 1 keeps every step whole as far as the contacts go. A step in
  // which a joint holds an awake body takes substeps of at most 1 / solver.joint_rate, the
  // whole world alike.
  //
  // The first narrow phase saw every pair that can touch in the step (its boxes and margins
  // grown by how far the bodies can move in it), so the awake bodies its contacts join are
  // islands that stay apart until the step ends, and each takes as many substeps as its own
  // fastest turn asks for: a scissors spinning off the funnel's rim does not split the step of
  // the pile inside it. World::step runs one pass per count (c.passSubsteps).
  const int forJoints = jointSubsteps(settings, dt, bodies, joints);
  const int count = static_cast<int>(bodies.state.size());
  c.bodySubsteps.assign(count, 0);
  c.passSubsteps.clear();
  const auto awake = [&](int body) { return bodies.state[body].isActive(); };
  const bool jointsAwake = std::any_of(joints.begin(), joints.end(), [&](const Joint& j) {
    return awake(j.bodyA) || awake(j.bodyB);
  });
  c.substepIslands.reset(count);
  std::vector<double>& turn = c.islandTurn;
  turn.assign(count, 0.0);
  if (settings.maxSubsteps > 1) {
    for (const NarrowPhaseRecord& record : c.narrowPhase) {
      if (!(record.result.distance < record.margin)) continue;  // no contact
      const int a = pieces.proxy[record.proxyA].body, b = pieces.proxy[record.proxyB].body;
      for (const int body : {a, b}) {
        if (awake(body)) turn[body] = bodies.state[body].angularVelocity.norm() * dt;
      }
      if (awake(a) && awake(b)) c.substepIslands.join(a, b);
    }
  }
  // Each island's fastest turn, on its root (the smallest index: roots come before members).
  for (int i = 0; i < count; ++i) {
    const int root = c.substepIslands.root(i);
    if (root != i) turn[root] = std::max(turn[root], turn[i]);
  }
  int most = 1;
  for (int i = 0; i < count; ++i) {
    if (!awake(i)) continue;
    c.bodySubsteps[i] = substepsForTurn(settings, turn[c.substepIslands.root(i)]);
    most = std::max(most, c.bodySubsteps[i]);
  }
  if (jointsAwake) {
    // One count for the whole world: the joints' rows and drives run over all of it.
    most = std::max(most, forJoints);
    for (int i = 0; i < count; ++i) c.bodySubsteps[i] = awake(i) ? most : 0;
  }
  for (int i = 0; i < count; ++i) {
    const int n = c.bodySubsteps[i];
    if (n > 0 && std::find(c.passSubsteps.begin(), c.passSubsteps.end(), n) == c.passSubsteps.end())
      c.passSubsteps.push_back(n);
  }
  std::sort(c.passSubsteps.begin(), c.passSubsteps.end(), std::greater<>());
  if (c.passSubsteps.empty()) c.passSubsteps.push_back(most);
  return most;
}

}  // namespace hb
