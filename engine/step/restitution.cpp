// The restitution stage of World::step: the bounces of the (sub)step's contacts, in a stage of
// their own after the sweeps (ContactSolver::applyRestitution).

#include "engine/world.hpp"

namespace hb {

void World::restitution() {
  solver_.applyRestitution(bodies_.state);
}

}  // namespace hb
