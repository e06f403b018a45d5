#pragma once
// The settings of the contact solver (dynamics/contact_solver.hpp); the scene's solver settings
// (engine/scene.hpp) take their defaults from here.

namespace hb {

struct ContactSolverOptions {
  /// Gauss–Seidel passes over a manifold's own points per visit of the sweeps (touching no
  /// body), at most; 1 is point by point.
  int manifoldIterations = 1;
  /// Passes of the shock pass, at most: over a body's supports when it rests on several
  /// (visiting each manifold's points once per pass), over the points of its one manifold
  /// otherwise. They spread the push of each face in a stack evenly over its corners, so that
  /// stacks stand however far the sweeps got.
  int shockIterations = 8;
  int velocityIterations = 30;  ///< sweeps per island, at most (more for deep islands, below)
  int positionIterations = 10;
  /// Sweeps stop when no impulse changes by more than this, measured as the velocity change it
  /// makes at its own contact along its own direction (m/s): |delta lambda_k| W_kk.
  double tolerance = 1e-7;
  /// After the sweeps, one pass over the manifolds between bodies of different support levels,
  /// from the ground up, in which each moves only its upper body (shock propagation, Guendelman
  /// et al. 2003): a heavy body on a light one is stopped at once, where Gauss–Seidel would
  /// need on the order of their mass ratio in sweeps, the light one being pushed through what
  /// holds it meanwhile. A body on several supports takes them together, in up to
  /// shockIterations passes over their manifolds. Where the sweeps converged it changes nothing.
  bool shockPropagation = true;
  /// An island of contacts gets at least this many velocity sweeps per level of its deepest
  /// support chain (a body on the ground is level 1, one on it level 2, ...), so that a tall
  /// stack gets the sweeps its weight needs to reach the ground.
  double iterationsPerSupportLevel = 2.5;
  double restitutionThreshold = 0.5;   ///< m/s of approach below which no bounce is applied
  double baumgarte = 0.2;              ///< fraction of the penetration removed per step
  double slop = 0.0005;                ///< m of penetration left uncorrected (keeps contacts alive)
  double maxCorrectionVelocity = 2.0;  ///< m/s cap on the pseudo-velocity target
  /// Substeps of the soft step (solveSoftStep); 0 keeps the schedule above.
  int softSubsteps = 0;
  /// Stiffness and damping of a soft contact row (the soft step's penetrating contacts), as the
  /// natural frequency (Hz) and damping ratio of the spring it acts as; twice the frequency
  /// against something that does not move; both at most a quarter of the substep rate. The
  /// defaults are Box2D v3's. A contact under the weight of k bodies yields about
  /// k g / (2 pi f)^2 (0.28 k mm at 30 Hz): small bodies and tall walls need stiffer ones
  /// (docs/physics.md, "The soft step").
  double contactHertz = 30.0;
  double contactDampingRatio = 10.0;
  /// The soft step's joints: their push's damping ratio (their frequency is twice the
  /// contacts').
  double jointDampingRatio = 2.0;
  /// Manifolds of a colour the sweeps visit at once (the soft step's, and the rigid
  /// schedule's velocity sweeps of one pass per visit), in SIMD lanes
  /// (dynamics/contact_sweep_lanes.cpp): 0 as many as the CPU runs (8 with AVX-512F, 4 with
  /// AVX, else 2), 1 one by one, 2, 4 or 8 (at most as many as the CPU runs). The same bits
  /// with every choice.
  int sweepLanes = 0;
};

}  // namespace hb
