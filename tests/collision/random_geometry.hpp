#pragma once
// Seeded random rotations, poses and point clouds shared by the collision tests.

#include <Eigen/Geometry>
#include <cmath>
#include <random>
#include <vector>

#include "collision/pose.hpp"

namespace hb::test {

inline Eigen::Quaterniond randomRotation(std::mt19937& rng) {
  // Uniform on SO(3): a normalised 4-D Gaussian.
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  q.normalize();
  return q;
}

inline Eigen::Vector3d randomUnitVector(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Vector3d v(n(rng), n(rng), n(rng));
  return v.normalized();
}

inline Eigen::Vector3d randomVector(std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  return {u(rng), u(rng), u(rng)};
}

/// Log-uniform in [lo, hi]: every scale in the range as likely.
inline double logUniform(std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(std::log(lo), std::log(hi));
  return std::exp(u(rng));
}

inline Pose randomPose(std::mt19937& rng, double extent = 1.0) {
  return {randomRotation(rng), randomVector(rng, -extent, extent)};
}

inline std::vector<Eigen::Vector3d> randomCloud(std::mt19937& rng, int n, double scale) {
  std::vector<Eigen::Vector3d> points;
  for (int i = 0; i < n; ++i) points.push_back(randomVector(rng, -scale, scale));
  return points;
}

}  // namespace hb::test
