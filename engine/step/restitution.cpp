// The restitution stage of World::step: the bounces of the (sub)step's contacts, in a stage of
// their own after the sweeps (ContactSolver::applyRestitution).

#include "engine/step/stages.hpp"

namespace hb {

void restitution(BodyTable& bodies, ContactSolver& solver) {
  solver.applyRestitution(bodies.state);
}

}  // namespace hb
