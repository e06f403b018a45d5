// The restitution stage of the contact solver (ContactSolver::applyRestitution): after the
// positions moved, the contacts that approached fast and were stopped leave at e times their
// speed at impact.

#include <algorithm>
#include <cmath>

#include "dynamics/contact_solver.hpp"

namespace hb {

double ContactSolver::bounceVelocity(const Row& row) const {
  // At the step's start (the stored velocity being half a step behind the true one), then at
  // the impact: the first root of gap + v0 t + a t^2 / 2 in the step, in a form without
  // cancellation; a pair that gravity keeps apart meets at the step's end.
  const double a = row.normalGravity;
  const double start = row.approach - 0.5 * a * dt_;
  const double gap = std::max(0.0, -contacts_[row.contact].depth);
  double time = 0.0;
  if (gap > 0.0) {
    const double discriminant = start * start - 2.0 * a * gap;
    time = discriminant >= 0.0 && start < 0.0 ? 2.0 * gap / (std::sqrt(discriminant) - start) : dt_;
    time = std::min(time, dt_);
  }
  const double impact = std::min(start + a * time, 0.0);
  return -row.restitution * impact - 0.5 * a * dt_;
}

void ContactSolver::listRestitutionRows() {
  // In sweep order, whether or not the rows are stored so (prepare).
  restitutionRows_.clear();
  for (const Island& island : islands_) {
    const std::span<const int> manifolds(islandManifolds_.data() + island.first, island.count);
    const bool bounces = std::ranges::any_of(manifolds, [&](int q) {
      const Manifold& m = manifolds_[q];
      return std::any_of(rows_.begin() + m.first, rows_.begin() + m.first + m.count,
                         [](const Row& row) { return row.bounces; });
    });
    if (!bounces) continue;
    for (const int q : manifolds) {
      const Manifold& m = manifolds_[q];
      for (int i = m.first; i < m.first + m.count; ++i) {
        Row& row = rows_[i];
        row.restitutionImpulse = 0.0;
        if (row.bounces || row.impulse[0] > 0.0) restitutionRows_.push_back(i);
      }
    }
  }
}

ContactSolverStats ContactSolver::applyRestitution(std::span<RigidBody> bodies) {
  ContactSolverStats stats;
  stats.converged = true;
  // The rows that bounce: they approached faster than the threshold and the solve had to stop
  // them (Box2D's rule: a normal impulse at some sweep). The rule is applied per manifold: once
  // the solve stopped one of its points, every point of it that reached the surface in the
  // step bounces too, impulse or not. Which points of a face landing flat take the stopping
  // impulse is up to rounding (one corner may take it all); point by point, one corner of a
  // flat cube bounced and the cube left spinning. With them, the rows that carry weight, so that
  // a bounce does not push through them (they only resist approach).
  // Without restitution (a pile of hulls, a wall of cubes) nothing bounces, and the rows,
  // tens of megabytes on a large wall, are not read.
  if (!anyRestitution_) return stats;
  bool anyBounce = false;
  for (const Manifold& m : manifolds_) {
    bool stopped = false;
    for (int i = 0; i < m.count; ++i) stopped |= rows_[m.first + i].largestNormalImpulse > 0.0;
    for (int i = m.first; i < m.first + m.count; ++i) {
      Row& row = rows_[i];
      // On the surface at the step's end: the solved velocity leaves it within the slop of it.
      // A face landing nearly flat lands at once (its corners' impacts, microseconds apart,
      // overlap in any real material).
      const bool reached = row.endGap <= row.slop;
      row.bounces = stopped && row.restitution > 0.0 &&
                    row.approach < -options_.restitutionThreshold &&
                    (row.largestNormalImpulse > 0.0 || reached);
      if (row.bounces) row.bounceVelocity = bounceVelocity(row);
      anyBounce |= row.bounces;
    }
  }
  // Most steps of a pile have no bounce: the rows taking part are listed only when one has,
  // and only in the islands that bounce (a bounce cannot reach another island).
  if (!anyBounce) return stats;
  listRestitutionRows();
  stats.converged = false;
  loadVelocities(bodies);
  for (int iteration = 0; iteration < options_.velocityIterations; ++iteration) {
    double largestChange = 0.0;
    for (const int i : restitutionRows_) {
      Row& row = rows_[i];
      SolverBody& a = solverBodies_[row.bodyA];
      SolverBody& b = solverBodies_[row.bodyB];
      const double un = velocity(row, 0, a, b);
      const double old = row.restitutionImpulse;
      double next;
      if (row.bounces) {
        // The contact's total normal impulse (solve plus bounce) stays non-negative.
        next = std::max(-row.impulse[0], old + (row.bounceVelocity - un) * row.response.normalMass);
      } else {
        next = std::max(0.0, old - un * row.response.normalMass);
      }
      row.restitutionImpulse = next;
      apply(row, 0, next - old, a, b);
      largestChange = std::max(largestChange, std::abs(next - old) / row.response.normalMass);
    }
    stats.iterations = iteration + 1;
    stats.residual = largestChange;
    if (largestChange <= options_.tolerance) {
      stats.converged = true;
      break;
    }
  }
  storeVelocities(bodies);
  return stats;
}

}  // namespace hb
