#include "dynamics/contact_solver.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace hb {
namespace {

Eigen::Matrix3d cross(const Eigen::Vector3d& r) {
  Eigen::Matrix3d m;
  m << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return m;
}

// Applies the world impulse p at lever arms rA / rB: -p on A, +p on B.
void applyImpulse(RigidBody& a, RigidBody& b, bool moveA, bool moveB, const Eigen::Matrix3d& invIA,
                  const Eigen::Matrix3d& invIB, const Eigen::Vector3d& rA,
                  const Eigen::Vector3d& rB, const Eigen::Vector3d& p) {
  if (moveA) {
    a.linearVelocity -= a.inverseMass * p;
    a.angularVelocity -= invIA * rA.cross(p);
  }
  if (moveB) {
    b.linearVelocity += b.inverseMass * p;
    b.angularVelocity += invIB * rB.cross(p);
  }
}

}  // namespace

void ContactSolver::prepare(std::span<const RigidBody> bodies,
                            std::span<ContactConstraint> contacts, double dt,
                            const ContactSolverOptions& options) {
  contacts_ = contacts;
  dt_ = dt;
  options_ = options;
  inverseInertia_.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    inverseInertia_[i] =
        bodies[i].isActive() ? bodies[i].inverseInertiaWorld() : Eigen::Matrix3d::Zero();
  }
  rows_.assign(contacts.size(), Row{});
  for (size_t i = 0; i < contacts.size(); ++i) {
    ContactConstraint& c = contacts[i];
    Row& row = rows_[i];
    const RigidBody& a = bodies[c.bodyA];
    const RigidBody& b = bodies[c.bodyB];
    row.moveA = a.isActive();
    row.moveB = b.isActive();
    row.rA = c.point - a.position;
    row.rB = c.point - b.position;
    row.basis.col(0) = c.normal;
    row.basis.col(1) = c.tangent1;
    row.basis.col(2) = c.tangent2;
    Eigen::Matrix3d k = Eigen::Matrix3d::Zero();
    if (row.moveA) {
      const Eigen::Matrix3d rx = cross(row.rA);
      k += a.inverseMass * Eigen::Matrix3d::Identity() - rx * inverseInertia_[c.bodyA] * rx;
    }
    if (row.moveB) {
      const Eigen::Matrix3d rx = cross(row.rB);
      k += b.inverseMass * Eigen::Matrix3d::Identity() - rx * inverseInertia_[c.bodyB] * rx;
    }
    row.delassus = row.basis.transpose() * k * row.basis;
    bool invertible = false;
    row.delassus.computeInverseWithCheck(row.delassusInv, invertible);
    if (!invertible || !(row.delassus(0, 0) > 0.0)) {
      // Neither body moves: the contact is inert.
      row.moveA = row.moveB = false;
      row.delassusInv.setZero();
      row.tangentStep = 0.0;
    } else {
      // Scalar step 1 / lambda_max(W_tt): its projected fixed point has lambda_t opposite to
      // the slip velocity (maximal dissipation); the 2x2 inverse would tilt it by W_tt's
      // anisotropy.
      const Eigen::Matrix2d wtt = row.delassus.block<2, 2>(1, 1);
      const double half = 0.5 * wtt.trace();
      const double largest = half + std::sqrt(std::max(0.0, half * half - wtt.determinant()));
      row.tangentStep = 1.0 / largest;
    }
    // Target normal velocity: close a speculative gap at most; bounce above the threshold.
    const double approach = c.normal.dot(b.pointVelocity(c.point) - a.pointVelocity(c.point));
    if (c.depth < 0.0) {
      row.targetNormalVelocity = c.depth / dt;
    } else if (approach < -options.restitutionThreshold) {
      row.targetNormalVelocity = -c.restitution * approach;
    }
    row.positionTarget = std::min(options.baumgarte * std::max(c.depth - options.slop, 0.0) / dt,
                                  options.maxCorrectionVelocity);
  }
}

void ContactSolver::warmStart(std::span<RigidBody> bodies) const {
  for (size_t i = 0; i < rows_.size(); ++i) {
    const Row& row = rows_[i];
    const ContactConstraint& c = contacts_[i];
    if (!row.moveA && !row.moveB) continue;
    applyImpulse(bodies[c.bodyA], bodies[c.bodyB], row.moveA, row.moveB, inverseInertia_[c.bodyA],
                 inverseInertia_[c.bodyB], row.rA, row.rB, row.basis * c.impulse);
  }
}

ContactSolverStats ContactSolver::solveVelocities(std::span<RigidBody> bodies) {
  ContactSolverStats stats;
  for (int iteration = 0; iteration < options_.velocityIterations; ++iteration) {
    double largestChange = 0.0;
    for (size_t i = 0; i < rows_.size(); ++i) {
      const Row& row = rows_[i];
      ContactConstraint& c = contacts_[i];
      if (!row.moveA && !row.moveB) continue;
      RigidBody& a = bodies[c.bodyA];
      RigidBody& b = bodies[c.bodyB];
      const Eigen::Matrix3d& invIA = inverseInertia_[c.bodyA];
      const Eigen::Matrix3d& invIB = inverseInertia_[c.bodyB];
      auto contactVelocity = [&] {
        return Eigen::Vector3d(row.basis.transpose() *
                               (b.linearVelocity + b.angularVelocity.cross(row.rB) -
                                a.linearVelocity - a.angularVelocity.cross(row.rA)));
      };
      const Eigen::Vector3d u = contactVelocity();
      const Eigen::Vector3d old = c.impulse;
      // 1. Sticking guess: the full 3x3 block solve.
      Eigen::Vector3d next =
          old + row.delassusInv * (Eigen::Vector3d(row.targetNormalVelocity, 0, 0) - u);
      const double mu = c.friction;
      if (next.x() >= 0.0 && next.tail<2>().norm() <= mu * next.x()) {
        applyImpulse(a, b, row.moveA, row.moveB, invIA, invIB, row.rA, row.rB,
                     row.basis * (next - old));
      } else {
        // 2. Separating or sliding: normal first, then the tangential block on the disk.
        next.x() = std::max(0.0, old.x() + (row.targetNormalVelocity - u.x()) / row.delassus(0, 0));
        applyImpulse(a, b, row.moveA, row.moveB, invIA, invIB, row.rA, row.rB,
                     row.basis.col(0) * (next.x() - old.x()));
        const Eigen::Vector3d u2 = contactVelocity();
        Eigen::Vector2d t = old.tail<2>() - row.tangentStep * u2.tail<2>();
        const double limit = mu * next.x();
        const double tn = t.norm();
        if (tn > limit) t *= (tn > 0.0 ? limit / tn : 0.0);
        next.tail<2>() = t;
        applyImpulse(a, b, row.moveA, row.moveB, invIA, invIB, row.rA, row.rB,
                     row.basis.rightCols<2>() * (t - old.tail<2>()));
      }
      c.impulse = next;
      largestChange = std::max(largestChange, (next - old).cwiseAbs().maxCoeff());
    }
    stats.iterations = iteration + 1;
    stats.residual = largestChange;
    if (largestChange <= options_.tolerance) {
      stats.converged = true;
      break;
    }
  }
  if (rows_.empty()) stats.converged = true;
  return stats;
}

void ContactSolver::solvePositions(std::span<const RigidBody> bodies, PseudoVelocities& pseudo) {
  pseudo.linear.assign(bodies.size(), Eigen::Vector3d::Zero());
  pseudo.angular.assign(bodies.size(), Eigen::Vector3d::Zero());
  for (int iteration = 0; iteration < options_.positionIterations; ++iteration) {
    for (size_t i = 0; i < rows_.size(); ++i) {
      Row& row = rows_[i];
      const ContactConstraint& c = contacts_[i];
      if ((!row.moveA && !row.moveB) || (row.positionTarget <= 0.0 && row.positionImpulse <= 0.0))
        continue;
      const Eigen::Vector3d& n = row.basis.col(0);
      const double un = n.dot(pseudo.linear[c.bodyB] + pseudo.angular[c.bodyB].cross(row.rB) -
                              pseudo.linear[c.bodyA] - pseudo.angular[c.bodyA].cross(row.rA));
      const double old = row.positionImpulse;
      row.positionImpulse = std::max(0.0, old + (row.positionTarget - un) / row.delassus(0, 0));
      const Eigen::Vector3d p = (row.positionImpulse - old) * n;
      if (row.moveA) {
        pseudo.linear[c.bodyA] -= bodies[c.bodyA].inverseMass * p;
        pseudo.angular[c.bodyA] -= inverseInertia_[c.bodyA] * row.rA.cross(p);
      }
      if (row.moveB) {
        pseudo.linear[c.bodyB] += bodies[c.bodyB].inverseMass * p;
        pseudo.angular[c.bodyB] += inverseInertia_[c.bodyB] * row.rB.cross(p);
      }
    }
  }
}

}  // namespace hb
