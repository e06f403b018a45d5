#include "apps/bench/common/bench_problems.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "collision/collide.hpp"
#include "collision/warm_start.hpp"

namespace hb::bench {

namespace {

/// Signed distances are placed to within this (metres); the reference EPA stops at 1e-9.
constexpr double kPlacementTolerance = 1e-6;
constexpr int kMaxPlacementSteps = 20;
/// Below this rate of depth per slide the depth has (nearly) peaked: the target is out of reach.
constexpr double kMinPlacementSlope = 0.05;

CollisionOptions referenceOptions() {
  CollisionOptions o;
  o.gjk.variant = GjkVariant::Vanilla;
  o.gjk.mode = GjkMode::Distance;
  o.gjk.tolerance = 1e-14;  // squared metres: distances to ~1e-7 m and better
  o.gjk.maxIterations = 1000;
  o.epa.tolerance = 1e-9;
  o.computePenetration = true;
  return o;
}

Eigen::Vector3d obbGuess(const BenchShape& a, const Pose& poseA, const BenchShape& b,
                         const Pose& poseB) {
  return initialGuess(WarmStart::ObbCenters, a.localObb.transformed(poseA),
                      b.localObb.transformed(poseB), poseA, poseB, std::nullopt);
}

/// Reference signed distance and normal (A towards B), or nothing when the solvers failed.
std::optional<CollisionResult> reference(const BenchShape& a, const Pose& poseA,
                                         const BenchShape& b, const Pose& poseB) {
  const CollisionResult r =
      collide(a.shape, poseA, b.shape, poseB, obbGuess(a, poseA, b, poseB), referenceOptions());
  if (!r.ok() || !std::isfinite(r.distance) || !r.normal.allFinite()) return std::nullopt;
  if (r.epaStatus && *r.epaStatus == EpaStatus::Degenerate) return std::nullopt;
  return r;
}

}  // namespace

std::vector<ShapePair> chooseShapePairs(int numShapes, int count, std::mt19937_64& rng) {
  std::vector<ShapePair> all;
  for (int i = 0; i < numShapes; ++i) {
    for (int j = i + 1; j < numShapes; ++j) all.push_back({i, j});
  }
  if (count >= static_cast<int>(all.size())) return all;
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(count);
  return all;
}

Eigen::Quaterniond uniformRotation(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double u1 = u(rng), u2 = u(rng), u3 = u(rng);
  const double twoPi = 2.0 * std::numbers::pi;
  const double s1 = std::sqrt(1.0 - u1), s2 = std::sqrt(u1);
  Eigen::Quaterniond q(s2 * std::cos(twoPi * u3), s1 * std::sin(twoPi * u2),
                       s1 * std::cos(twoPi * u2), s2 * std::sin(twoPi * u3));
  return q.normalized();
}

Eigen::Vector3d uniformDirection(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  for (;;) {
    const Eigen::Vector3d v(n(rng), n(rng), n(rng));
    const double norm = v.norm();
    if (norm > 1e-6) return v / norm;
  }
}

std::optional<std::vector<Problem>> makePoseProblems(std::span<const BenchShape> shapes,
                                                     ShapePair pair,
                                                     std::span<const double> targets,
                                                     Placement placement, std::mt19937_64& rng) {
  const BenchShape& a = shapes[pair.a];
  const BenchShape& b = shapes[pair.b];
  const Pose poseA{uniformRotation(rng), Eigen::Vector3d::Zero()};
  // Far enough apart that the bounding spheres, hence the shapes, cannot touch.
  const double gap = a.boundingRadius + b.boundingRadius + 0.1;
  const Pose start{uniformRotation(rng), gap * uniformDirection(rng)};
  const std::optional<CollisionResult> apart = reference(a, poseA, b, start);
  if (!apart || apart->distance <= 0.0) return std::nullopt;
  const double d0 = apart->distance;
  const Eigen::Vector3d axis = apart->normal;  // A towards B

  // Signed distance with B slid by u along the axis; u = -d0 is the touching position.
  const auto distanceAt = [&](double u) -> std::optional<double> {
    const std::optional<CollisionResult> r =
        reference(a, poseA, b, Pose{start.q, start.p + u * axis});
    if (!r) return std::nullopt;
    return r->distance;
  };

  std::vector<Problem> problems;
  problems.reserve(targets.size());
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const double target = targets[k];
    // Separated, the distance changes by exactly the slide. Overlapping, the depth grows at most
    // as fast as the slide, then shrinks as B comes out on the other side: secant steps from the
    // touching position, given up when the depth stops growing.
    double u = target - d0;
    std::optional<double> d = distanceAt(u);
    double uPrev = -d0, dPrev = 0.0;
    bool placed = d && (target >= 0.0 || placement == Placement::Nominal ||
                        std::abs(*d - target) <= kPlacementTolerance);
    for (int step = 0; d && !placed && step < kMaxPlacementSteps; ++step) {
      const double slope = (*d - dPrev) / (u - uPrev);
      if (!(slope > kMinPlacementSlope)) break;
      uPrev = u;
      dPrev = *d;
      u += (target - *d) / slope;
      d = distanceAt(u);
      placed = d && std::abs(*d - target) <= kPlacementTolerance;
    }
    if (!placed) continue;
    Problem p;
    p.a = pair.a;
    p.b = pair.b;
    p.poseA = poseA;
    p.poseB = Pose{start.q, start.p + u * axis};
    p.x0 = obbGuess(a, poseA, b, p.poseB);
    p.bucket = static_cast<int>(k);
    p.target = target;
    p.achieved = *d;
    problems.push_back(p);
  }
  return problems;
}

}  // namespace hb::bench
