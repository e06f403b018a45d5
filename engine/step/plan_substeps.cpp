// How many substeps a step takes (substepCount, after the first narrow phase): enough for the
// bodies with contacts and for the bodies the joints hold.

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/step/stages.hpp"

namespace hb {
namespace {

/// rad: the most a body with a contact turns in one substep (substepCount).
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

}  // namespace

int substepCount(const SolverDescription& settings, double dt, const BodyTable& bodies,
                 const PieceTable& pieces, std::span<const Joint> joints, const StepContext& c) {
  // Contacts are linear in their (sub)step: the gap a speculative contact measures closes at
  // the bodies' relative speed along its normal, which bounds the true approach of two convex
  // bodies that only translate, but not of one that turns. A step is split so that no body with
  // a contact turns more than kSubstepTurn in a substep, into at most max_substeps; steps
  // without one stay whole. Beyond that, so that the turn limit of bodies with contacts
  // (solver.max_contact_turn) binds only past kMaxSubsteps substeps, as many as it needs; but
  // max_substeps 1 keeps every step whole as far as the contacts go. A step in which a joint
  // holds an awake body takes substeps of at most 1 / solver.joint_rate.
  const int most = settings.maxSubsteps;
  const int forJoints = jointSubsteps(settings, dt, bodies, joints);
  if (most <= 1) return forJoints;
  double turn = 0.0;
  for (const NarrowPhaseRecord& record : c.narrowPhase) {
    if (!(record.result.distance < record.margin)) continue;  // no contact
    for (const int proxy : {record.proxyA, record.proxyB}) {
      const RigidBody& r = bodies.state[pieces.proxy[proxy].body];
      if (r.isActive()) turn = std::max(turn, r.angularVelocity.norm() * dt);
    }
  }
  const double limit = settings.maxContactTurn;
  if (!(turn < kMaxSubsteps * limit)) return kMaxSubsteps;  // also a spin too large to count
  const int forLimit = static_cast<int>(std::ceil(turn / limit));
  const int forContacts =
      turn < most * kSubstepTurn ? static_cast<int>(std::ceil(turn / kSubstepTurn)) : most;
  return std::max({1, forLimit, forContacts, forJoints});
}

}  // namespace hb
