#include "dynamics/contact_solver.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

namespace hb {

void ContactSolver::prepare(std::span<const RigidBody> bodies,
                            std::span<ContactConstraint> contacts, double dt,
                            const ContactSolverOptions& options, const Eigen::Vector3d& gravity,
                            std::span<Joint> joints, std::span<const Eigen::Vector3d> startSpin) {
  checkLanes(options.sweepLanes);
  contacts_ = contacts;
  joints_ = joints;
  options_ = options;
  dt_ = dt;
  gravity_ = gravity;
  solverBodies_.resize(bodies.size());
  moves_.resize(bodies.size());
  inverseInertia_.resize(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    const RigidBody& b = bodies[i];
    moves_[i] = b.isActive() ? 1 : 0;
    solverBodies_[i].inverseMass = b.isActive() ? b.inverseMass : 0.0;
    inverseInertia_[i] = b.isActive() ? b.inverseInertiaWorld() : Eigen::Matrix3d::Zero();
  }
  // Each contact's row on the workers; a contact no impulse can act on (neither body moves, or
  // its block is singular) is inert and gets none.
  rows_.resize(contacts.size());
  rowKept_.resize(contacts.size());
  parallelFor_(contacts.size(), [&](std::size_t i) {
    rows_[i] = Row{};
    rowKept_[i] = !rowOf(bodies, static_cast<int>(i), rows_[i]) ? kNoRow
                  : rows_[i].restitution > 0.0                  ? kBouncyRow
                                                                : kRow;
  });
  std::size_t kept = 0;
  anyRestitution_ = false;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    if (rowKept_[i] == kNoRow) continue;
    anyRestitution_ |= rowKept_[i] == kBouncyRow;
    if (kept != i) rows_[kept] = rows_[i];
    ++kept;
  }
  rows_.resize(kept);
  // The joints that can act, with their rows at these poses (for one substep in the soft step).
  const double jointStep = options.softSubsteps > 0 ? dt / options.softSubsteps : dt;
  jointRows_.clear();
  jointOf_.clear();
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const Joint& joint = joints[j];
    const int a = joint.bodyA, b = joint.bodyB;
    JointRows rows;
    const auto spin = [&](int body) {
      return startSpin.empty() ? bodies[body].angularVelocity : startSpin[body];
    };
    if (rows.prepare(joint, bodies[a], bodies[b], solverBodies_[a].inverseMass, inverseInertia_[a],
                     solverBodies_[b].inverseMass, inverseInertia_[b], jointStep, gravity_,
                     {spin(a), spin(b)})) {
      jointRows_.push_back(rows);
      jointOf_.push_back(static_cast<int>(j));
    }
  }
  buildManifolds();
  buildIslands();
  colourIslands();
  planManifoldPass();
  // Sweeps in lanes read the lanes, laid out in sweep order when they are built (buildLanes):
  // the rows may stay in pair order.
  const bool inLanes = options.sweepLanes != 1 && options.manifoldIterations == 1;
  if (!inLanes) layOutInSweepOrder();
  blocks_.resize(manifolds_.size());
  if (options.softSubsteps > 0) prepareSoftness(dt / options.softSubsteps);
}

bool ContactSolver::rowOf(std::span<const RigidBody> bodies, int index, Row& row) const {
  const ContactConstraint& c = contacts_[index];
  const RigidBody& a = bodies[c.bodyA];
  const RigidBody& b = bodies[c.bodyB];
  Eigen::Matrix3d basis;
  basis << c.normal, c.tangent1, c.tangent2;
  const Eigen::Vector3d rA = c.point - a.position;
  const Eigen::Vector3d rB = c.point + c.offsetOnB - b.position;
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
  if (!responseOf(delassus, row.response)) return false;
  row.bodyA = c.bodyA;
  row.bodyB = c.bodyB;
  row.contact = index;
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < 3; ++j) {
      row.direction[k][j] = basis(j, k);
      row.armA[k][j] = jA(j, k);
      row.armB[k][j] = jB(j, k);
      row.turnA[k][j] = turnA(j, k);
      row.turnB[k][j] = turnB(j, k);
    }
    row.impulse[k] = c.impulse[k];
  }
  row.friction = c.friction;
  // Target normal velocity: close a speculative gap at most, stop at contact. The bounce is
  // a stage of its own (applyRestitution), from the approach speed measured here.
  row.targetNormalVelocity = c.depth < 0.0 ? c.depth / dt_ : 0.0;
  row.approach = c.normal.dot(b.pointVelocity(c.point + c.offsetOnB) - a.pointVelocity(c.point));
  row.normalGravity = c.normal.dot((moves_[c.bodyB] ? gravity_ : Eigen::Vector3d::Zero()) -
                                   (moves_[c.bodyA] ? gravity_ : Eigen::Vector3d::Zero()));
  if (options_.softSubsteps > 0) {
    // The soft step's velocities do not include the step's gravity yet (solveSoftStep).
    row.approach += row.normalGravity * dt_;
  }
  row.separation = -c.depth;
  row.restitution = c.restitution;
  const double slop = std::min(options_.slop, c.maxSlop);
  row.slop = slop;
  row.positionTarget = std::min(options_.baumgarte * std::max(c.depth - slop, 0.0) / dt_,
                                options_.maxCorrectionVelocity);
  return true;
}

bool ContactSolver::responseOf(const Eigen::Matrix3d& delassus, PointResponse& response) {
  if (!(delassus(0, 0) > 0.0)) return false;
  // Singular relative to its own scale (Eigen's default threshold is absolute, 1e-12, which
  // the block of a body of 1e4 kg and more falls below).
  const double scale = delassus.diagonal().maxCoeff();
  Eigen::Matrix3d inverse;
  bool invertible = false;
  delassus.computeInverseWithCheck(inverse, invertible, 1e-12 * scale * scale * scale);
  if (!invertible) return false;
  response.normalMass = 1.0 / delassus(0, 0);
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < 3; ++j) response.delassusInverse[k][j] = inverse(k, j);
  }
  response.normalToTangent[0] = delassus(1, 0);
  response.normalToTangent[1] = delassus(2, 0);
  const Eigen::Matrix2d wtt = delassus.block<2, 2>(1, 1);
  // Scalar step 1 / lambda_max(W_tt): its projected fixed point has lambda_t opposite to
  // the slip velocity (maximal dissipation); the 2x2 inverse would tilt it by W_tt's
  // anisotropy.
  const double half = 0.5 * wtt.trace();
  const double largest = half + std::sqrt(std::max(0.0, half * half - wtt.determinant()));
  response.tangentStep = 1.0 / largest;
  return true;
}

void ContactSolver::buildManifolds() {
  // Consecutive rows of one body pair with one normal form a manifold (at most four points).
  manifolds_.clear();
  for (size_t i = 0; i < rows_.size(); ++i) {
    const Row& r = rows_[i];
    const Row* previous = i > 0 ? &rows_[i - 1] : nullptr;
    const bool same = previous && previous->bodyA == r.bodyA && previous->bodyB == r.bodyB &&
                      std::equal(r.direction[0], r.direction[0] + 3, previous->direction[0]) &&
                      manifolds_.back().count < NormalBlock::kMaxPoints;
    if (same) {
      ++manifolds_.back().count;
    } else {
      manifolds_.emplace_back();
      manifolds_.back().first = static_cast<int>(i);
      manifolds_.back().count = 1;
    }
  }
}

ContactSolver::ManifoldBlocks& ContactSolver::prepareBlocks(int k) {
  Manifold& m = manifolds_[k];
  ManifoldBlocks& blocks = blocks_[k];
  if (m.blocksReady) return blocks;
  // The manifold's Delassus matrix, W_(3i+c)(3j+d) = (m_A^-1 + m_B^-1) c_i . d_j
  // + (r_Ai x c_i) . I_A^-1 (r_Aj x d_j) + the same for B; its normal entries are the block of
  // the position pass. It is made exactly symmetric (its two triangles differ by rounding) and
  // zero past the manifold's points, so that the sweeps read a point's columns as rows of a
  // fixed length, in vector instructions.
  fillDelassus(m, true, true, blocks.delassus);
  NormalBlock::Matrix block(m.count, m.count);
  for (int i = 0; i < m.count; ++i) {
    for (int j = 0; j < m.count; ++j) block(i, j) = blocks.delassus[3 * i][3 * j];
  }
  blocks.block.build(block);
  m.blocksReady = true;
  return blocks;
}

void ContactSolver::fillDelassus(const Manifold& m, bool withA, bool withB,
                                 double (*delassus)[kManifoldRows]) const {
  std::fill(&delassus[0][0], &delassus[0][0] + kManifoldRows * kManifoldRows, 0.0);
  const Row& first = rows_[m.first];
  const double mass = (withA ? solverBodies_[first.bodyA].inverseMass : 0.0) +
                      (withB ? solverBodies_[first.bodyB].inverseMass : 0.0);
  const double a = withA ? 0.5 : 0.0, b = withB ? 0.5 : 0.0;
  for (int i = 0; i < m.count; ++i) {
    const Row& ri = rows_[m.first + i];
    for (int j = 0; j <= i; ++j) {
      const Row& rj = rows_[m.first + j];
      for (int c = 0; c < 3; ++c) {
        for (int d = 0; d < 3; ++d) {
          const double w = mass * dot(ri.direction[c], rj.direction[d]) +
                           a * (dot(ri.armA[c], rj.turnA[d]) + dot(rj.armA[d], ri.turnA[c])) +
                           b * (dot(ri.armB[c], rj.turnB[d]) + dot(rj.armB[d], ri.turnB[c]));
          delassus[3 * i + c][3 * j + d] = delassus[3 * j + d][3 * i + c] = w;
        }
      }
    }
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

void ContactSolver::warmStart(std::span<RigidBody> bodies) {
  loadVelocities(bodies);
  runManifoldPass([&](int q) {
    const Manifold& m = manifolds_[q];
    SolverBody& a = solverBodies_[rows_[m.first].bodyA];
    SolverBody& b = solverBodies_[rows_[m.first].bodyB];
    const bool movesA = moves_[rows_[m.first].bodyA], movesB = moves_[rows_[m.first].bodyB];
    for (int i = m.first; i < m.first + m.count; ++i) {
      Row& row = rows_[i];
      for (int k = 0; k < 3; ++k) applyToMoving(row, k, row.impulse[k], a, b, movesA, movesB);
      row.largestNormalImpulse = row.impulse[0];
    }
  });
  for (const JointRows& joint : jointRows_) {
    joint.warmStart(solverBodies_[joint.bodyA()], solverBodies_[joint.bodyB()]);
  }
  storeVelocities(bodies);
}

double ContactSolver::solveManifold(int k, int passes) {
  const Manifold& m = manifolds_[k];
  if (softSweep_ != SoftSweep::None) {
    for (int i = 0; i < m.count; ++i) setSoftTarget(m.first + i);
  }
  // A manifold that carries nothing and does not approach faster than its targets stays so: its
  // passes would skip every point (a speculative manifold; many of a pile's visits).
  const SolverBody& a = solverBodies_[rows_[m.first].bodyA];
  const SolverBody& b = solverBodies_[rows_[m.first].bodyB];
  bool idle = true;
  for (int i = 0; i < m.count && idle; ++i) {
    const Row& row = rows_[m.first + i];
    idle = row.impulse[0] == 0.0 && row.impulse[1] == 0.0 && row.impulse[2] == 0.0 &&
           velocity(row, 0, a, b) >= row.targetNormalVelocity;
  }
  if (idle) return 0.0;
  const PointResponse* responses[NormalBlock::kMaxPoints];
  PointResponse soft[NormalBlock::kMaxPoints];
  for (int i = 0; i < m.count; ++i) {
    const Row& row = rows_[m.first + i];
    responses[i] = &row.response;
    if (row.compliance > 0.0) {
      softenResponse(row.response, row.compliance, soft[i]);
      responses[i] = &soft[i];
    }
  }
  // Bodies that do not move are left alone (their zero response would leave them as they are,
  // but a colour's visits may run at once, and every visit of the ground would write it).
  const Row& first = rows_[m.first];
  if (passes == 1) {
    return solvePointByPoint(m, responses, moves_[first.bodyA], moves_[first.bodyB]);
  }
  const ManifoldBlocks& blocks = prepareBlocks(k);
  return solvePasses(m, blocks.delassus, responses, passes, moves_[first.bodyA],
                     moves_[first.bodyB]);
}

void ContactSolver::applyChange(const Row& row, const double* linear, const double* turnA,
                                const double* turnB, bool movesA, bool movesB) {
  SolverBody& a = solverBodies_[row.bodyA];
  SolverBody& b = solverBodies_[row.bodyB];
  for (int j = 0; j < 3; ++j) {
    if (movesA) {
      a.linear[j] -= a.inverseMass * linear[j];
      a.angular[j] -= turnA[j];
    }
    if (movesB) {
      b.linear[j] += b.inverseMass * linear[j];
      b.angular[j] += turnB[j];
    }
  }
  if (softSweep_ == SoftSweep::None) return;
  // The next substep's warm start applies the impulses as they are now.
  SoftBody& softA = softBodies_[row.bodyA];
  SoftBody& softB = softBodies_[row.bodyB];
  for (int j = 0; j < 3; ++j) {
    if (movesA) {
      softA.carriedLinear[j] -= a.inverseMass * linear[j];
      softA.carriedAngular[j] -= turnA[j];
    }
    if (movesB) {
      softB.carriedLinear[j] += b.inverseMass * linear[j];
      softB.carriedAngular[j] += turnB[j];
    }
  }
}

double ContactSolver::solvePasses(const Manifold& m, const double (*delassus)[kManifoldRows],
                                  const PointResponse* const* responses, int passes, bool movesA,
                                  bool movesB) {
  SolverBody& a = solverBodies_[rows_[m.first].bodyA];
  SolverBody& b = solverBodies_[rows_[m.first].bodyB];
  // The points' velocities in their contact frames, then Gauss–Seidel on the manifold's own
  // problem: each update changes the others' velocities through the manifold's Delassus
  // matrix, without touching the bodies, until it settles; the bodies then take the total.
  double u[kManifoldRows] = {}, start[kManifoldRows], x[kManifoldRows];
  for (int i = 0; i < m.count; ++i) {
    const Row& row = rows_[m.first + i];
    for (int c = 0; c < 3; ++c) {
      u[3 * i + c] = velocity(row, c, a, b);
      start[3 * i + c] = x[3 * i + c] = row.impulse[c];
    }
  }
  double largest = 0.0;
  for (int inner = 0; inner < passes; ++inner) {
    double changed = 0.0;
    for (int i = 0; i < m.count; ++i) {
      const Row& row = rows_[m.first + i];
      const PointResponse& response = *responses[i];
      double* lambda = x + 3 * i;
      const double* ui = u + 3 * i;
      // A point that carries nothing and does not approach faster than its target stays so
      // (the normal step clamps to zero, the friction disk has radius zero): skip the work.
      if (lambda[0] == 0.0 && lambda[1] == 0.0 && lambda[2] == 0.0 &&
          ui[0] >= row.targetNormalVelocity) {
        continue;
      }
      double next[3];
      pointUpdate(row, response, lambda, ui, next);
      const double d[3] = {next[0] - lambda[0], next[1] - lambda[1], next[2] - lambda[2]};
      if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) continue;
      for (int k = 0; k < 3; ++k) lambda[k] = next[k];
      // The velocities follow: the point's three columns of W, read as rows (W is symmetric).
      const double* w0 = delassus[3 * i];
      const double* w1 = delassus[3 * i + 1];
      const double* w2 = delassus[3 * i + 2];
      // The change measured as the velocity it makes at the point along its own direction, so
      // that one tolerance fits bodies of any mass.
      changed = std::max({changed, std::abs(d[0]) * w0[3 * i], std::abs(d[1]) * w1[3 * i + 1],
                          std::abs(d[2]) * w2[3 * i + 2]});
      for (int r = 0; r < kManifoldRows; ++r) u[r] += w0[r] * d[0] + w1[r] * d[1] + w2[r] * d[2];
    }
    if (inner == 0) largest = changed;
    if (changed <= options_.tolerance) break;
  }
  // The bodies take the manifold's total change at once.
  double linear[3] = {0, 0, 0}, turnA[3] = {0, 0, 0}, turnB[3] = {0, 0, 0};
  for (int i = 0; i < m.count; ++i) {
    Row& row = rows_[m.first + i];
    for (int c = 0; c < 3; ++c) {
      const double d = x[3 * i + c] - start[3 * i + c];
      row.impulse[c] = x[3 * i + c];
      if (d == 0.0) continue;
      for (int j = 0; j < 3; ++j) {
        linear[j] += d * row.direction[c][j];
        turnA[j] += d * row.turnA[c][j];
        turnB[j] += d * row.turnB[c][j];
      }
    }
    row.largestNormalImpulse = std::max(row.largestNormalImpulse, row.impulse[0]);
  }
  applyChange(rows_[m.first], linear, turnA, turnB, movesA, movesB);
  return largest;
}

ContactSolverStats ContactSolver::solveIsland(int index, const std::function<void()>& alongside) {
  // The cap grows with the island's depth (weight reaches the bottom of a stack one level per
  // sweep).
  const Island& island = islands_[index];
  const int cap =
      std::max(options_.velocityIterations,
               static_cast<int>(std::ceil(options_.iterationsPerSupportLevel * island.depth)));
  if (island.groups > 0) return sweepColoured(index, cap, options_.tolerance, alongside);
  ContactSolverStats stats;
  for (int iteration = 0; iteration < cap && !stats.converged; ++iteration) {
    const double largestChange = sweepIsland(index);
    stats.converged = largestChange <= options_.tolerance;
    stats.iterations = iteration + 1;
    stats.residual = largestChange;
  }
  return stats;
}

ContactSolverStats ContactSolver::solveVelocities(std::span<RigidBody> bodies) {
  loadVelocities(bodies);
  // The coloured islands' rows in lanes, with the impulses the warm start applied.
  buildLanes();
  ContactSolverStats stats;
  stats.converged = true;
  // Islands are independent: each sweeps until it converges or reaches its cap. Small ones run
  // whole, side by side, a coloured one colour by colour on the team; their results combine in
  // order. With a team, each worker first takes small islands while any is left, then joins the
  // first coloured island's sweeps (a late worker finds them done as far as they got): a long
  // small island, a falling object's, no longer holds the others.
  islandResults_.resize(islands_.size());
  const auto solveSmall = [&](std::size_t s) {
    islandResults_[smallIslands_[s]] = solveIsland(smallIslands_[s]);
  };
  std::atomic<int> nextSmall{0};
  const std::function<void()> claimSmall = [&] {
    for (int s; (s = nextSmall.fetch_add(1, std::memory_order_relaxed)) <
                static_cast<int>(smallIslands_.size());) {
      solveSmall(s);
    }
  };
  const auto coloured = std::find_if(islands_.begin(), islands_.end(),
                                     [](const Island& island) { return island.groups > 0; });
  const bool alongside = workers_ > 1 && coloured != islands_.end();
  if (!alongside) parallelFor_(smallIslands_.size(), solveSmall);
  for (auto island = coloured; island != islands_.end(); ++island) {
    if (island->groups == 0) continue;
    const int index = static_cast<int>(island - islands_.begin());
    islandResults_[index] =
        solveIsland(index, alongside && island == coloured ? claimSmall : std::function<void()>());
  }
  unloadLanes(0, static_cast<int>(bundles_.size()));
  for (const ContactSolverStats& island : islandResults_) {
    stats.iterations = std::max(stats.iterations, island.iterations);
    stats.residual = std::max(stats.residual, island.residual);
    stats.converged &= island.converged;
    stats.solvesAlone += island.solvesAlone;
  }
  if (options_.shockPropagation) {
    propagateShock();
    // The shock pass moves bodies by their contacts alone; the joints take them back onto
    // their joints (a 50 kg pendulum ploughing into a pile opened its hinge by centimetres).
    for (const Island& island : islands_) {
      if (island.joints > 0) solveIslandJoints(island, 0.0);
    }
  }
  for (std::size_t j = 0; j < jointRows_.size(); ++j) jointRows_[j].store(joints_[jointOf_[j]]);
  for (Row& row : rows_) {
    contacts_[row.contact].impulse = {row.impulse[0], row.impulse[1], row.impulse[2]};
    if (row.carriesSweptFriction) {
      // Inside the cone of the normal impulse the shock pass left.
      double t1 = row.sweptFriction[0], t2 = row.sweptFriction[1];
      const double size = std::sqrt(t1 * t1 + t2 * t2), limit = row.friction * row.impulse[0];
      if (size > limit) {
        t1 *= limit / size;
        t2 *= limit / size;
      }
      contacts_[row.contact].impulse.tail<2>() = Eigen::Vector2d(t1, t2);
    }
    row.endGap = -contacts_[row.contact].depth +
                 dt_ * velocity(row, 0, solverBodies_[row.bodyA], solverBodies_[row.bodyB]);
  }
  storeVelocities(bodies);
  return stats;
}

}  // namespace hb
