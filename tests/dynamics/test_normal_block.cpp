// The normal block's complementarity solve against brute force: every active set of random
// contact blocks (rigid pairs with 1 to 4 points, coplanar faces among them) enumerated, the
// one meeting complementarity found, and its velocities compared (unique even where the
// impulses are not). A face's symmetric distribution from W^+.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "dynamics/normal_block.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;

/// The normal Delassus block of k points of a face (or scattered points) between a body and the
/// ground: W = J M^-1 J^T with J_i = [n, r_i x n].
Eigen::MatrixXd delassusOf(const std::vector<Vector3d>& points, const Vector3d& normal,
                           double inverseMass, const Eigen::Matrix3d& inverseInertia) {
  const int k = static_cast<int>(points.size());
  Eigen::MatrixXd j(k, 6);
  for (int i = 0; i < k; ++i) {
    j.row(i).head<3>() = normal.transpose();
    j.row(i).tail<3>() = points[i].cross(normal).transpose();
  }
  Eigen::Matrix<double, 6, 6> m = Eigen::Matrix<double, 6, 6>::Zero();
  m.topLeftCorner<3, 3>() = inverseMass * Eigen::Matrix3d::Identity();
  m.bottomRightCorner<3, 3>() = inverseInertia;
  return j * m * j.transpose();
}

/// Brute force: the velocities w = u + W d of the active set that satisfies complementarity
/// (solved by least squares on the set), or nothing.
std::optional<Eigen::VectorXd> bruteForce(const Eigen::MatrixXd& w, const Eigen::VectorXd& u,
                                          const Eigen::VectorXd& target,
                                          const Eigen::VectorXd& impulse) {
  const int k = static_cast<int>(u.size());
  for (int mask = 0; mask < (1 << k); ++mask) {
    Eigen::VectorXd d = -impulse;  // released: to zero
    std::vector<int> set;
    for (int i = 0; i < k; ++i) {
      if (mask & (1 << i)) set.push_back(i);
    }
    if (!set.empty()) {
      const int n = static_cast<int>(set.size());
      Eigen::MatrixXd a(n, n);
      Eigen::VectorXd rhs(n);
      for (int s = 0; s < n; ++s) {
        rhs[s] = target[set[s]] - u[set[s]];
        for (int i = 0; i < k; ++i) {
          if (!(mask & (1 << i))) rhs[s] -= w(set[s], i) * d[i];
        }
        for (int t = 0; t < n; ++t) a(s, t) = w(set[s], set[t]);
      }
      const Eigen::VectorXd x = a.completeOrthogonalDecomposition().solve(rhs);
      for (int s = 0; s < n; ++s) d[set[s]] = x[s];
    }
    const Eigen::VectorXd vel = u + w * d;
    bool ok = true;
    for (int i = 0; i < k; ++i) {
      const double tol = 1e-7 * (1.0 + std::abs(target[i]) + std::abs(u[i]));
      if (mask & (1 << i)) {
        ok &= impulse[i] + d[i] >= -1e-9 && std::abs(vel[i] - target[i]) <= tol;
      } else {
        ok &= vel[i] >= target[i] - tol;
      }
    }
    if (ok) return vel;
  }
  return std::nullopt;
}

TEST(NormalBlock, MatchesBruteForceComplementarity) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int solved = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int k = 1 + trial % 4;
    const bool face = trial % 3 != 0;  // coplanar points (W singular for four)
    std::vector<Vector3d> points;
    for (int i = 0; i < k; ++i) {
      points.emplace_back(0.1 * u(rng), 0.1 * u(rng), face ? -0.05 : 0.1 * u(rng));
    }
    // Drawn from the test's own generator (Eigen's Random() reads the process's std::rand()).
    const Eigen::Matrix3d root =
        Eigen::Matrix3d::NullaryExpr([&] { return u(rng); }) + 2.0 * Eigen::Matrix3d::Identity();
    const Eigen::Matrix3d inertiaInverse = 50.0 * (root * root.transpose());
    const Eigen::MatrixXd w = delassusOf(points, Vector3d::UnitZ(), 2.0, inertiaInverse);
    // Velocities and targets reachable by the body's motion (affine across a face), impulses
    // some zero, some positive.
    const Eigen::VectorXd motion = Eigen::VectorXd::NullaryExpr(6, [&] { return u(rng); });
    Eigen::VectorXd velocity(k), target(k), impulse(k);
    for (int i = 0; i < k; ++i) {
      velocity[i] = motion.head<3>().z() + points[i].cross(Vector3d::UnitZ()).dot(motion.tail<3>());
      target[i] = trial % 2 ? 0.0 : -0.3 * std::abs(u(rng));
      impulse[i] = u(rng) > 0.0 ? std::abs(u(rng)) : 0.0;
    }
    NormalBlock block;
    block.build(NormalBlock::Matrix(w));
    double change[4];
    block.solve(velocity.data(), target.data(), impulse.data(), change, 1000);
    const auto expected = bruteForce(w, velocity, target, impulse);
    ASSERT_TRUE(expected) << trial;
    Eigen::VectorXd d(k);
    for (int i = 0; i < k; ++i) d[i] = change[i];
    const Eigen::VectorXd got = velocity + w * d;
    for (int i = 0; i < k; ++i) {
      EXPECT_GE(impulse[i] + d[i], -1e-12) << trial;
      EXPECT_NEAR(got[i], (*expected)[i], 1e-6 * (1.0 + std::abs((*expected)[i]))) << trial;
    }
    ++solved;
  }
  EXPECT_EQ(solved, 4000);
}

// A cube face landing flat: the four corners share the impulse equally.
TEST(NormalBlock, FaceGetsTheSymmetricDistribution) {
  std::vector<Vector3d> corners;
  for (int i = 0; i < 4; ++i)
    corners.emplace_back(i & 1 ? 0.05 : -0.05, i & 2 ? 0.05 : -0.05, -0.05);
  const Eigen::MatrixXd w =
      delassusOf(corners, Vector3d::UnitZ(), 1.0, 600.0 * Eigen::Matrix3d::Identity());
  NormalBlock block;
  block.build(NormalBlock::Matrix(w));
  const double velocity[4] = {-2.0, -2.0, -2.0, -2.0}, target[4] = {0, 0, 0, 0},
               impulse[4] = {0, 0, 0, 0};
  double change[4];
  EXPECT_EQ(block.solve(velocity, target, impulse, change), 0);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(change[i], 0.5, 1e-12);
}

}  // namespace
}  // namespace hb
