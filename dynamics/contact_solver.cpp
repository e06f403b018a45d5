#include "dynamics/contact_solver.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace hb {
namespace {

// The sweeps work on plain arrays of three doubles: small fixed-size Eigen temporaries there
// were spilled and reloaded in pieces, which cost more than the arithmetic.
double dot(const double* x, const double* y) {
  return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}

// Relative velocity of B's material point against A's at the contact, v_B + w_B x r_B - v_A -
// w_A x r_A, for the given velocity arrays.
void relativeVelocity(const double* linearA, const double* angularA, const double* leverA,
                      const double* linearB, const double* angularB, const double* leverB,
                      double* out) {
  out[0] = linearB[0] + (angularB[1] * leverB[2] - angularB[2] * leverB[1]) - linearA[0] -
           (angularA[1] * leverA[2] - angularA[2] * leverA[1]);
  out[1] = linearB[1] + (angularB[2] * leverB[0] - angularB[0] * leverB[2]) - linearA[1] -
           (angularA[2] * leverA[0] - angularA[0] * leverA[2]);
  out[2] = linearB[2] + (angularB[0] * leverB[1] - angularB[1] * leverB[0]) - linearA[2] -
           (angularA[0] * leverA[1] - angularA[1] * leverA[0]);
}

}  // namespace

void ContactSolver::prepare(std::span<const RigidBody> bodies,
                            std::span<ContactConstraint> contacts, double dt,
                            const ContactSolverOptions& options) {
  contacts_ = contacts;
  options_ = options;
  solverBodies_.resize(bodies.size());
  moves_.resize(bodies.size());
  inverseInertia_.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    const RigidBody& b = bodies[i];
    moves_[i] = b.isActive() ? 1 : 0;
    solverBodies_[i].inverseMass = b.isActive() ? b.inverseMass : 0.0;
    inverseInertia_[i] = b.isActive() ? b.inverseInertiaWorld() : Eigen::Matrix3d::Zero();
  }
  rows_.clear();
  rows_.reserve(contacts.size());
  for (size_t i = 0; i < contacts.size(); ++i) {
    const ContactConstraint& c = contacts[i];
    const RigidBody& a = bodies[c.bodyA];
    const RigidBody& b = bodies[c.bodyB];
    Eigen::Matrix3d basis;
    basis << c.normal, c.tangent1, c.tangent2;
    const Eigen::Vector3d rA = c.point - a.position;
    const Eigen::Vector3d rB = c.point - b.position;
    // W = C^T K C with K = m^-1 Id - [r]x I^-1 [r]x summed over the bodies, i.e.
    // (m_A^-1 + m_B^-1) C^T C + J_A^T I_A^-1 J_A + J_B^T I_B^-1 J_B with J = [r x c_k].
    Eigen::Matrix3d jA, jB;
    for (int k = 0; k < 3; ++k) {
      jA.col(k) = rA.cross(basis.col(k));
      jB.col(k) = rB.cross(basis.col(k));
    }
    const Eigen::Matrix3d turnA = inverseInertia_[c.bodyA] * jA;
    const Eigen::Matrix3d turnB = inverseInertia_[c.bodyB] * jB;
    Eigen::Matrix3d delassus =
        (solverBodies_[c.bodyA].inverseMass + solverBodies_[c.bodyB].inverseMass) *
        (basis.transpose() * basis);
    delassus.noalias() += jA.transpose() * turnA;
    delassus.noalias() += jB.transpose() * turnB;
    Eigen::Matrix3d delassusInv;
    bool invertible = false;
    delassus.computeInverseWithCheck(delassusInv, invertible);
    // Neither body moves (or the block is singular): no impulse can act, the contact is inert.
    if (!invertible || !(delassus(0, 0) > 0.0)) continue;
    Row row;
    row.bodyA = c.bodyA;
    row.bodyB = c.bodyB;
    row.contact = static_cast<int>(i);
    for (int k = 0; k < 3; ++k) {
      row.leverA[k] = rA[k];
      row.leverB[k] = rB[k];
      for (int j = 0; j < 3; ++j) {
        row.direction[k][j] = basis(j, k);
        row.turnA[k][j] = turnA(j, k);
        row.turnB[k][j] = turnB(j, k);
        row.delassusInv[k][j] = delassusInv(k, j);
      }
      row.impulse[k] = c.impulse[k];
    }
    row.normalMass = 1.0 / delassus(0, 0);
    row.normalToTangent[0] = delassus(1, 0);
    row.normalToTangent[1] = delassus(2, 0);
    // Scalar step 1 / lambda_max(W_tt): its projected fixed point has lambda_t opposite to
    // the slip velocity (maximal dissipation); the 2x2 inverse would tilt it by W_tt's
    // anisotropy.
    const Eigen::Matrix2d wtt = delassus.block<2, 2>(1, 1);
    const double half = 0.5 * wtt.trace();
    const double largest = half + std::sqrt(std::max(0.0, half * half - wtt.determinant()));
    row.tangentStep = 1.0 / largest;
    row.friction = c.friction;
    // Target normal velocity: close a speculative gap at most; bounce above the threshold.
    const double approach = c.normal.dot(b.pointVelocity(c.point) - a.pointVelocity(c.point));
    if (c.depth < 0.0) {
      row.targetNormalVelocity = c.depth / dt;
    } else if (approach < -options.restitutionThreshold) {
      row.targetNormalVelocity = -c.restitution * approach;
    }
    row.positionTarget = std::min(options.baumgarte * std::max(c.depth - options.slop, 0.0) / dt,
                                  options.maxCorrectionVelocity);
    rows_.push_back(row);
  }
}

void ContactSolver::loadVelocities(std::span<const RigidBody> bodies) {
  for (size_t i = 0; i < bodies.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      solverBodies_[i].linear[k] = bodies[i].linearVelocity[k];
      solverBodies_[i].angular[k] = bodies[i].angularVelocity[k];
    }
  }
}

void ContactSolver::storeVelocities(std::span<RigidBody> bodies) const {
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (!moves_[i]) continue;
    for (int k = 0; k < 3; ++k) {
      bodies[i].linearVelocity[k] = solverBodies_[i].linear[k];
      bodies[i].angularVelocity[k] = solverBodies_[i].angular[k];
    }
  }
}

inline void ContactSolver::applyImpulse(const Row& row, const double* change) {
  SolverBody& a = solverBodies_[row.bodyA];
  SolverBody& b = solverBodies_[row.bodyB];
  for (int j = 0; j < 3; ++j) {
    const double p = row.direction[0][j] * change[0] + row.direction[1][j] * change[1] +
                     row.direction[2][j] * change[2];
    a.linear[j] -= a.inverseMass * p;
    b.linear[j] += b.inverseMass * p;
    a.angular[j] -=
        row.turnA[0][j] * change[0] + row.turnA[1][j] * change[1] + row.turnA[2][j] * change[2];
    b.angular[j] +=
        row.turnB[0][j] * change[0] + row.turnB[1][j] * change[1] + row.turnB[2][j] * change[2];
  }
}

void ContactSolver::warmStart(std::span<RigidBody> bodies) {
  loadVelocities(bodies);
  for (const Row& row : rows_) applyImpulse(row, row.impulse);
  storeVelocities(bodies);
}

ContactSolverStats ContactSolver::solveVelocities(std::span<RigidBody> bodies) {
  loadVelocities(bodies);
  ContactSolverStats stats;
  for (int iteration = 0; iteration < options_.velocityIterations; ++iteration) {
    double largestChange = 0.0;
    for (Row& row : rows_) {
      const SolverBody& a = solverBodies_[row.bodyA];
      const SolverBody& b = solverBodies_[row.bodyB];
      double relative[3];
      relativeVelocity(a.linear, a.angular, row.leverA, b.linear, b.angular, row.leverB, relative);
      // u: the relative velocity in the contact frame; residual: its distance to the target.
      const double u[3] = {dot(row.direction[0], relative), dot(row.direction[1], relative),
                           dot(row.direction[2], relative)};
      const double residual[3] = {row.targetNormalVelocity - u[0], -u[1], -u[2]};
      const double* old = row.impulse;
      // 1. Sticking guess: the full 3x3 block solve.
      double next[3];
      for (int k = 0; k < 3; ++k) next[k] = old[k] + dot(row.delassusInv[k], residual);
      const double mu = row.friction;
      // Inside the cone: lambda_n >= 0 and ||lambda_t||^2 <= (mu lambda_n)^2 (no square root).
      const double limit2 = mu * next[0] * (mu * next[0]);
      if (!(next[0] >= 0.0 && next[1] * next[1] + next[2] * next[2] <= limit2)) {
        // 2. Separating or sliding: the normal impulse first; the tangential velocity it
        // leaves, u_t + W_tn (lambda_n' - lambda_n), sets the projected tangential step.
        next[0] = std::max(0.0, old[0] + residual[0] * row.normalMass);
        const double normalChange = next[0] - old[0];
        double t1 = old[1] - row.tangentStep * (u[1] + row.normalToTangent[0] * normalChange);
        double t2 = old[2] - row.tangentStep * (u[2] + row.normalToTangent[1] * normalChange);
        const double limit = mu * next[0];
        const double tn = std::sqrt(t1 * t1 + t2 * t2);
        if (tn > limit) {
          const double scale = tn > 0.0 ? limit / tn : 0.0;
          t1 *= scale;
          t2 *= scale;
        }
        next[1] = t1;
        next[2] = t2;
      }
      const double change[3] = {next[0] - old[0], next[1] - old[1], next[2] - old[2]};
      applyImpulse(row, change);
      for (int k = 0; k < 3; ++k) row.impulse[k] = next[k];
      largestChange =
          std::max({largestChange, std::abs(change[0]), std::abs(change[1]), std::abs(change[2])});
    }
    stats.iterations = iteration + 1;
    stats.residual = largestChange;
    if (largestChange <= options_.tolerance) {
      stats.converged = true;
      break;
    }
  }
  if (rows_.empty()) stats.converged = true;
  for (const Row& row : rows_) {
    contacts_[row.contact].impulse = {row.impulse[0], row.impulse[1], row.impulse[2]};
  }
  storeVelocities(bodies);
  return stats;
}

void ContactSolver::solvePositions(std::span<const RigidBody> bodies, PseudoVelocities& pseudo) {
  pseudo.linear.assign(bodies.size(), Eigen::Vector3d::Zero());
  pseudo.angular.assign(bodies.size(), Eigen::Vector3d::Zero());
  // Only contacts that penetrate beyond the slop take part: the others never get an impulse.
  positionRows_.clear();
  for (size_t i = 0; i < rows_.size(); ++i) {
    rows_[i].positionImpulse = 0.0;
    if (rows_[i].positionTarget > 0.0) positionRows_.push_back(static_cast<int>(i));
  }
  for (int iteration = 0; iteration < options_.positionIterations; ++iteration) {
    for (const int i : positionRows_) {
      Row& row = rows_[i];
      double* linearA = pseudo.linear[row.bodyA].data();
      double* angularA = pseudo.angular[row.bodyA].data();
      double* linearB = pseudo.linear[row.bodyB].data();
      double* angularB = pseudo.angular[row.bodyB].data();
      double relative[3];
      relativeVelocity(linearA, angularA, row.leverA, linearB, angularB, row.leverB, relative);
      const double un = dot(row.direction[0], relative);
      const double old = row.positionImpulse;
      row.positionImpulse = std::max(0.0, old + (row.positionTarget - un) * row.normalMass);
      const double change = row.positionImpulse - old;
      const double massA = solverBodies_[row.bodyA].inverseMass;
      const double massB = solverBodies_[row.bodyB].inverseMass;
      for (int j = 0; j < 3; ++j) {
        linearA[j] -= massA * change * row.direction[0][j];
        linearB[j] += massB * change * row.direction[0][j];
        angularA[j] -= change * row.turnA[0][j];
        angularB[j] += change * row.turnB[0][j];
      }
    }
  }
}

}  // namespace hb
