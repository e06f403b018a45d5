#include "dynamics/normal_block.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hb {

void NormalBlock::build(const Matrix& delassus) {
  const int k = static_cast<int>(delassus.rows());
  if (k < 1 || k > kMaxPoints || delassus.cols() != k) {
    throw std::invalid_argument("NormalBlock: 1 to 4 points");
  }
  size_ = k;
  for (int i = 0; i < k; ++i) inverseDiagonal_[i] = 1.0 / delassus(i, i);
  if (k == 1) {
    delassus_[0][0] = delassus(0, 0);
    pseudoInverse_[0][0] = delassus(0, 0) > 0.0 ? 1.0 / delassus(0, 0) : 0.0;
    return;
  }
  // Pseudo-inverse from the eigen-decomposition, dropping the directions the block cannot act
  // on (eigenvalues below 1e-10 of the largest: coplanar points give one exact zero).
  const Eigen::SelfAdjointEigenSolver<Matrix> eigen(delassus);
  const auto& values = eigen.eigenvalues();
  const double cutoff = 1e-10 * values.cwiseAbs().maxCoeff();
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxPoints, 1> inverse(k);
  for (int i = 0; i < k; ++i) inverse[i] = values[i] > cutoff ? 1.0 / values[i] : 0.0;
  const Matrix pseudo =
      eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose();
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) {
      delassus_[i][j] = delassus(i, j);
      pseudoInverse_[i][j] = pseudo(i, j);
    }
  }
}

int NormalBlock::solve(const double* velocity, const double* target, const double* impulse,
                       double* change, int maxIterations) const {
  const int k = size_;
  double residual[kMaxPoints];
  bool idle = true;  // no point pushes or needs to: nothing to do (speculative points apart)
  for (int i = 0; i < k; ++i) {
    residual[i] = target[i] - velocity[i];
    idle &= impulse[i] == 0.0 && residual[i] <= 0.0;
  }
  if (idle || k == 1) {
    for (int i = 0; i < k; ++i) {
      change[i] = idle ? 0.0 : std::max(-impulse[i], residual[i] * inverseDiagonal_[i]);
    }
    return 0;
  }
  // Every point keeps pushing: the smallest change that meets every target.
  bool feasible = true;
  for (int i = 0; i < k; ++i) {
    double d = 0.0;
    for (int j = 0; j < k; ++j) d += pseudoInverse_[i][j] * residual[j];
    change[i] = d;
    feasible &= impulse[i] + d >= 0.0;
  }
  if (feasible) {
    // Coplanar points: W^+ meets the targets only if they are reachable (a rigid face's
    // velocities are affine in position, and so are the targets of a flat contact); check.
    bool met = true;
    for (int i = 0; i < k; ++i) {
      double miss = -residual[i];
      for (int j = 0; j < k; ++j) miss += delassus_[i][j] * change[j];
      const double scale = 1e-9 * (std::abs(target[i]) + std::abs(velocity[i])) + 1e-12;
      met &= std::abs(miss) <= scale;
    }
    if (met) return 0;
  }
  // Some point lets go: projected Gauss–Seidel on the block, from the accumulated impulses.
  double x[kMaxPoints], w[kMaxPoints];
  for (int i = 0; i < k; ++i) {
    x[i] = impulse[i];
    w[i] = velocity[i];
  }
  double scale = 0.0;
  for (int i = 0; i < k; ++i) scale = std::max(scale, std::abs(impulse[i]));
  int iterations = 0;
  while (iterations < maxIterations) {
    ++iterations;
    double largest = 0.0;
    for (int i = 0; i < k; ++i) {
      const double next = std::max(0.0, x[i] + (target[i] - w[i]) * inverseDiagonal_[i]);
      const double d = next - x[i];
      if (d == 0.0) continue;
      for (int j = 0; j < k; ++j) w[j] += delassus_[j][i] * d;
      x[i] = next;
      largest = std::max(largest, std::abs(d));
    }
    scale = std::max(scale, *std::max_element(x, x + k));
    if (largest <= 1e-9 * scale) break;
  }
  for (int i = 0; i < k; ++i) change[i] = x[i] - impulse[i];
  return iterations;
}

}  // namespace hb
