// How many substeps a step takes (substepCount, after the first narrow phase).

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/step/stages.hpp"

namespace hb {
namespace {

/// rad: the most a body with a contact turns in one substep (substepCount).
constexpr double kSubstepTurn = std::numbers::pi / 16;

}  // namespace

int substepCount(const SolverDescription& settings, double dt, const BodyTable& bodies,
                 const PieceTable& pieces, const StepContext& c) {
  // Contacts are linear in their (sub)step: the gap a speculative contact measures closes at
  // the bodies' relative speed along its normal, which bounds the true approach of two convex
  // bodies that only translate, but not of one that turns. A step is split so that no body with
  // a contact turns more than kSubstepTurn in a substep, into at most max_substeps; steps
  // without one stay whole. Beyond that, so that the turn limit of bodies with contacts
  // (solver.max_contact_turn) binds only past kMaxSubsteps substeps, as many as it needs; but
  // max_substeps 1 keeps every step whole.
  const int most = settings.maxSubsteps;
  if (most <= 1) return 1;
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
  return std::max({1, forLimit, forContacts});
}

}  // namespace hb
