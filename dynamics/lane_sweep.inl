// A sweep's visit of a bundle in W lanes, for contact_sweep_lanes.cpp, which includes it
// once per lane count, each time in a namespace of its own that defines W and sqrtOf(Lanes),
// for four lanes under the AVX target and for eight under AVX-512F. Nothing here may call an
// inline function or a template defined elsewhere for its arithmetic: the linker could pick
// this file's AVX copy of it for every caller.
//
// Each lane does what ContactSolver::solveManifold and solvePointByPoint do for its manifold,
// operation for operation; their branches (an idle manifold, a point skipped, sticking or
// sliding, the friction disk) become masks that select between both outcomes.

using Lanes = LaneTypes<W>::Lanes;
using Mask = LaneTypes<W>::Mask;

[[gnu::always_inline]] inline Lanes splat(double x) {
  return Lanes{} + x;
}

/// x . y of 3-vectors of lanes, summed in the scalar dot's order.
[[gnu::always_inline]] inline Lanes dot3(const Lanes* x, const Lanes* y) {
  return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}

/// std::max(m, x) lane by lane: x where m < x.
[[gnu::always_inline]] inline Lanes maxOf(Lanes m, Lanes x) {
  return m < x ? x : m;
}

[[gnu::always_inline]] inline Lanes absOf(Lanes x) {
  constexpr long long kNoSign = 0x7fffffffffffffffLL;
  return reinterpret_cast<Lanes>(reinterpret_cast<Mask>(x) & kNoSign);
}

[[gnu::always_inline]] inline bool anyOf(Mask m) {
  for (int l = 0; l < W; ++l) {
    if (m[l] != 0) return true;
  }
  return false;
}

[[gnu::always_inline]] inline Mask maskOf(const bool* flags) {
  Mask m;
  for (int l = 0; l < W; ++l) m[l] = flags[l] ? -1 : 0;
  return m;
}

/// A bundle's bodies on one side, gathered into lanes for the visit.
struct LaneBodies {
  Lanes linear[3], angular[3], inverseMass;
  Lanes movedLinear[3], movedAngular[3], carriedLinear[3], carriedAngular[3];
};

template <bool kRigid>
[[gnu::always_inline]] inline void gather(const int* body, const SolverBody* bodies,
                                          const SoftBody* softBodies, LaneBodies& lanes) {
  for (int l = 0; l < W; ++l) {
    const SolverBody& solver = bodies[body[l]];
    lanes.inverseMass[l] = solver.inverseMass;
    for (int j = 0; j < 3; ++j) {
      lanes.linear[j][l] = solver.linear[j];
      lanes.angular[j][l] = solver.angular[j];
    }
    if constexpr (kRigid) continue;
    const SoftBody& soft = softBodies[body[l]];
    for (int j = 0; j < 3; ++j) {
      lanes.movedLinear[j][l] = soft.movedLinear[j];
      lanes.movedAngular[j][l] = soft.movedAngular[j];
      lanes.carriedLinear[j][l] = soft.carriedLinear[j];
      lanes.carriedAngular[j][l] = soft.carriedAngular[j];
    }
  }
}

template <bool kRigid>
[[gnu::always_inline]] inline void scatter(const LaneBundle& bundle, const int* body,
                                           const bool* moves, const LaneBodies& lanes,
                                           SolverBody* bodies, SoftBody* softBodies) {
  for (int l = 0; l < W; ++l) {
    if (bundle.count[l] == 0 || !moves[l]) continue;
    SolverBody& solver = bodies[body[l]];
    for (int j = 0; j < 3; ++j) {
      solver.linear[j] = lanes.linear[j][l];
      solver.angular[j] = lanes.angular[j][l];
    }
    if constexpr (kRigid) continue;
    SoftBody& soft = softBodies[body[l]];
    for (int j = 0; j < 3; ++j) {
      soft.carriedLinear[j] = lanes.carriedLinear[j][l];
      soft.carriedAngular[j] = lanes.carriedAngular[j][l];
    }
  }
}

/// A point's relative velocity along its direction k (ContactSolver::velocity).
[[gnu::always_inline]] inline Lanes velocityOf(const LanePoint<W>& point, int k,
                                               const LaneBodies& a, const LaneBodies& b) {
  return dot3(point.direction[k], b.linear) - dot3(point.direction[k], a.linear) +
         dot3(point.armB[k], b.angular) - dot3(point.armA[k], a.angular);
}

/// The points' targets and compliances: in the soft step from their gaps (ContactSolver::
/// setSoftTarget), in a rigid sweep the rows' own targets, rigid. Returns the lanes whose
/// manifold is idle or empty (ContactSolver::solveManifold).
template <bool kRigid>
[[gnu::always_inline]] inline Mask targetsOf(const LaneBundle& bundle, const LanePoint<W>* points,
                                             Mask counts, Mask bothMove, const LaneBodies& a,
                                             const LaneBodies& b, const LaneSweepSettings& settings,
                                             Lanes* target, Lanes* compliance) {
  const Lanes biasRate = bothMove ? splat(settings.movingBiasRate) : splat(settings.fixedBiasRate);
  const Lanes a2 = bothMove ? splat(settings.movingA2) : splat(settings.fixedA2);
  const Lanes zero = splat(0.0);
  Mask idle = counts >= 0;  // every lane
  for (int p = 0; p < bundle.points; ++p) {
    const LanePoint<W>& point = points[p];
    if constexpr (kRigid) {
      target[p] = point.target;
      compliance[p] = zero;
    } else {
      const Lanes gap = point.separation + dot3(point.direction[0], b.movedLinear) -
                        dot3(point.direction[0], a.movedLinear) +
                        dot3(point.armB[0], b.movedAngular) - dot3(point.armA[0], a.movedAngular);
      Lanes pushTarget = zero, pushCompliance = zero;
      if (settings.push) {
        Lanes depth = -gap - point.slop;
        depth = depth < 0.0 ? zero : depth;
        const Lanes pushed = biasRate * depth;
        const Lanes most = splat(settings.maxCorrectionVelocity);
        pushTarget = most < pushed ? most : pushed;
        pushCompliance = 1.0 / (point.normalMass * a2);
      }
      const Mask speculative = gap > 0.0;
      target[p] = speculative ? -gap / settings.substep : pushTarget;
      compliance[p] = speculative ? zero : pushCompliance;
    }
    const Mask pointIdle = (point.impulse[0] == 0.0) & (point.impulse[1] == 0.0) &
                           (point.impulse[2] == 0.0) & (velocityOf(point, 0, a, b) >= target[p]);
    idle &= pointIdle | (counts <= p);
  }
  return idle;
}

/// A point's next impulses (ContactSolver::pointUpdate on the response softenResponse gives
/// where c > 0): the sticking guess, and the separating or sliding one; a lane takes the first
/// where it lies inside the cone. Returns the response's 1 / W_nn.
[[gnu::always_inline]] inline Lanes nextImpulses(const LanePoint<W>& point, Lanes target, Lanes c,
                                                 const Lanes* u, Lanes* next) {
  const Mask soft = c > 0.0;
  const Lanes scale = c / (1.0 + c * point.delassusInverse[0][0]);
  Lanes inverse[3][3];
  for (int k = 0; k < 3; ++k) {
    for (int l = 0; l < 3; ++l) {
      const Lanes rigid = point.delassusInverse[k][l];
      inverse[k][l] =
          soft ? rigid - scale * point.delassusInverse[k][0] * point.delassusInverse[0][l] : rigid;
    }
  }
  const Lanes normalMass = soft ? 1.0 / (1.0 / point.normalMass + c) : point.normalMass;
  const Lanes* lambda = point.impulse;
  const Lanes residual[3] = {target - u[0] - c * lambda[0], -u[1], -u[2]};
  for (int k = 0; k < 3; ++k) next[k] = lambda[k] + dot3(inverse[k], residual);
  const Lanes mu = point.friction;
  const Mask sticks =
      (next[0] >= 0.0) & (next[1] * next[1] + next[2] * next[2] <= mu * next[0] * (mu * next[0]));
  const Lanes zero = splat(0.0);
  Lanes normal = lambda[0] + residual[0] * normalMass;
  normal = 0.0 < normal ? normal : zero;
  const Lanes normalChange = normal - lambda[0];
  Lanes t1 = lambda[1] - point.tangentStep * (u[1] + point.normalToTangent[0] * normalChange);
  Lanes t2 = lambda[2] - point.tangentStep * (u[2] + point.normalToTangent[1] * normalChange);
  const Lanes limit = mu * normal;
  const Lanes tn = sqrtOf(t1 * t1 + t2 * t2);
  const Lanes shrink = tn > 0.0 ? limit / tn : zero;
  const Mask outside = tn > limit;
  t1 = outside ? t1 * shrink : t1;
  t2 = outside ? t2 * shrink : t2;
  next[0] = sticks ? next[0] : normal;
  next[1] = sticks ? next[1] : t1;
  next[2] = sticks ? next[2] : t2;
  return normalMass;
}

/// ContactSolver::applyChange of the impulse change d, on the lanes' bodies that move.
template <bool kRigid>
[[gnu::always_inline]] inline void applyChange(const LanePoint<W>& point, const Lanes* d,
                                               Mask changesA, Mask changesB, LaneBodies& a,
                                               LaneBodies& b) {
  for (int j = 0; j < 3; ++j) {
    const Lanes linear =
        d[0] * point.direction[0][j] + d[1] * point.direction[1][j] + d[2] * point.direction[2][j];
    const Lanes turnA =
        d[0] * point.turnA[0][j] + d[1] * point.turnA[1][j] + d[2] * point.turnA[2][j];
    const Lanes turnB =
        d[0] * point.turnB[0][j] + d[1] * point.turnB[1][j] + d[2] * point.turnB[2][j];
    const Lanes linearA = a.inverseMass * linear, linearB = b.inverseMass * linear;
    a.linear[j] = changesA ? a.linear[j] - linearA : a.linear[j];
    a.angular[j] = changesA ? a.angular[j] - turnA : a.angular[j];
    b.linear[j] = changesB ? b.linear[j] + linearB : b.linear[j];
    b.angular[j] = changesB ? b.angular[j] + turnB : b.angular[j];
    if constexpr (kRigid) continue;
    a.carriedLinear[j] = changesA ? a.carriedLinear[j] - linearA : a.carriedLinear[j];
    a.carriedAngular[j] = changesA ? a.carriedAngular[j] - turnA : a.carriedAngular[j];
    b.carriedLinear[j] = changesB ? b.carriedLinear[j] + linearB : b.carriedLinear[j];
    b.carriedAngular[j] = changesB ? b.carriedAngular[j] + turnB : b.carriedAngular[j];
  }
}

/// A visit of the bundle: in the soft step, or (kRigid) in a sweep of the rigid schedule, whose
/// rows keep their targets and carry nothing to a next substep.
template <bool kRigid>
double sweep(const LaneBundle& bundle, LanePoint<W>* points, SolverBody* bodies,
             SoftBody* softBodies, const LaneSweepSettings& settings) {
  LaneBodies a, b;
  gather<kRigid>(bundle.bodyA, bodies, softBodies, a);
  gather<kRigid>(bundle.bodyB, bodies, softBodies, b);
  const Mask movesA = maskOf(bundle.movesA), movesB = maskOf(bundle.movesB);
  Mask counts;
  for (int l = 0; l < W; ++l) counts[l] = bundle.count[l];
  constexpr int kMostPoints = 4;
  Lanes target[kMostPoints], compliance[kMostPoints];
  const Mask idle = targetsOf<kRigid>(bundle, points, counts, movesA & movesB, a, b, settings,
                                      target, compliance);
  if (!anyOf(~idle)) return 0.0;
  // The points in turn, as solvePointByPoint.
  Lanes largest = splat(0.0);
  for (int p = 0; p < bundle.points; ++p) {
    LanePoint<W>& point = points[p];
    const Lanes u[3] = {velocityOf(point, 0, a, b), velocityOf(point, 1, a, b),
                        velocityOf(point, 2, a, b)};
    const Lanes* lambda = point.impulse;
    Mask active =
        (counts > p) & ~idle &
        ~((lambda[0] == 0.0) & (lambda[1] == 0.0) & (lambda[2] == 0.0) & (u[0] >= target[p]));
    if (!anyOf(active)) continue;
    Lanes next[3];
    const Lanes normalMass = nextImpulses(point, target[p], compliance[p], u, next);
    const Lanes d[3] = {next[0] - lambda[0], next[1] - lambda[1], next[2] - lambda[2]};
    active &= (d[0] != 0.0) | (d[1] != 0.0) | (d[2] != 0.0);
    if (!anyOf(active)) continue;
    Lanes raised = maxOf(largest, absOf(d[0]) / normalMass);
    raised = maxOf(raised, absOf(d[1]) / point.tangentStep);
    raised = maxOf(raised, absOf(d[2]) / point.tangentStep);
    largest = active ? raised : largest;
    for (int k = 0; k < 3; ++k) point.impulse[k] = active ? next[k] : point.impulse[k];
    point.largestNormalImpulse =
        active ? maxOf(point.largestNormalImpulse, next[0]) : point.largestNormalImpulse;
    applyChange<kRigid>(point, d, active & movesA, active & movesB, a, b);
  }
  scatter<kRigid>(bundle, bundle.bodyA, bundle.movesA, a, bodies, softBodies);
  scatter<kRigid>(bundle, bundle.bodyB, bundle.movesB, b, bodies, softBodies);
  double most = 0.0;
  for (int l = 0; l < W; ++l) most = most < largest[l] ? largest[l] : most;
  return most;
}
