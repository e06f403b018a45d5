#pragma once
// A body's velocities as the solver's sweeps change them (dynamics/contact_solver.hpp,
// dynamics/joint_rows.hpp).

namespace hb {

/// Bodies that do not move have zero inverse mass and their rows zero angular responses, so
/// impulses leave them as they are, without a branch.
struct SolverBody {
  double linear[3] = {0, 0, 0};
  double angular[3] = {0, 0, 0};
  double inverseMass = 0.0;
};

}  // namespace hb
