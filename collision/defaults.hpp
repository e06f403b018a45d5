#pragma once
// Named tolerances and caps of the collision module, with the GJK++ paper's defaults
// (Montaut et al., T-RO 2024, Sec. II and IV).

#include <cmath>

namespace hb::defaults {

/// The lengths heavyball accepts from its users in shapes, meshes and positions, metres: the
/// products of four of them that GJK forms (squared distances of squared lengths) stay far from
/// double precision's overflow and underflow.
inline constexpr double kMinLength = 1e-6;
inline constexpr double kMaxLength = 1e6;
/// The largest GJK tolerance (squared metres) a query may set: a collision threshold
/// eps_col = sqrt(tolerance) of 1 cm.
inline constexpr double kMaxGjkTolerance = 1e-4;

/// Duality-gap tolerance on the squared distance (eq. 17-18): ||x_k - x*||^2 <= eps.
inline constexpr double kGjkTolerance = 1e-8;
/// GJK iteration cap; every variant reports MaxIterations when it is reached.
inline constexpr int kGjkMaxIterations = 128;
/// Polyak / Nesterov momentum stops after at most this many iterations (GjkOptions).
inline constexpr int kGjkMomentumMaxIterations = 32;
/// Below this many vertices a hull support is a linear scan, above it hill-climbing.
inline constexpr int kHullScanThreshold = 32;
/// EPA caps: polytope vertices, faces and iterations.
inline constexpr int kEpaMaxVertices = 128;
inline constexpr int kEpaMaxFaces = 256;
inline constexpr int kEpaMaxIterations = 96;
/// EPA stops when the support along the closest face normal gains less than this (metres).
inline constexpr double kEpaTolerance = 1e-6;
/// A box's or hull's convex radius is clamped to this fraction of its inner radius (a box's
/// smallest half extent; for a hull, the distance from its centroid to its nearest face).
inline constexpr double kMaxConvexRadiusFraction = 0.25;
/// Convex radius of the world's boxes and hulls (SolverDescription::convexRadius), metres. Off by
/// default: the exact core of a scanned YCB hull has four times its vertices, and the funnel ran
/// slower with it for no less penetration (docs/physics.md). A scene can round its boxes and hulls
/// with solver.convex_radius.
inline constexpr double kSceneConvexRadius = 0.0;
/// Convex radius of a superquadric (metres): the small sphere An et al. add so that the support's
/// Hessian stays positive definite where the surface flattens (exponents above 1).
inline constexpr double kSuperquadricRadius = 1e-4;
/// Directions whose support points make the polyhedron standing in for a smooth body where a
/// mesh is needed (mass properties, rendering, picking).
inline constexpr int kSmoothTessellationDirections = 1922;
/// Largest convex radius a scene may set, metres.
inline constexpr double kMaxSceneConvexRadius = 0.02;
/// A rounded hull's core may reach this far (metres) past the hull's face planes moved in by the
/// radius: rounding in the core's vertices.
inline constexpr double kCoreTolerance = 1e-9;
/// Contact manifolds keep at most this many points.
inline constexpr int kMaxManifoldPoints = 4;

/// Boolean-collision threshold eps_col = sqrt(eps) (Alg. 2): below it shapes are in collision.
inline double collisionTolerance(double tolerance) {
  // The default tolerance's root is computed once: a square root per query is a measurable part
  // of a Boolean check that ends at its first support.
  static const double defaultRoot = std::sqrt(kGjkTolerance);
  return tolerance == kGjkTolerance ? defaultRoot : std::sqrt(tolerance);
}

}  // namespace hb::defaults
