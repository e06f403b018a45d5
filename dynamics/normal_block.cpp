#include "dynamics/normal_block.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hb {
namespace {

/// Solves the |S| x |S| system of W's rows and columns in `set` (|S| <= 3) by Cramer's rule.
/// False when it is (nearly) singular: collinear points.
bool solveSubset(const double (*w)[NormalBlock::kMaxPoints], const int* set, int n,
                 const double* rhs, double* out) {
  if (n == 1) {
    out[0] = rhs[0] / w[set[0]][set[0]];
    return true;
  }
  if (n == 2) {
    const double a = w[set[0]][set[0]], b = w[set[0]][set[1]], d = w[set[1]][set[1]];
    const double det = a * d - b * b;
    if (!(det > 1e-12 * a * d)) return false;
    out[0] = (d * rhs[0] - b * rhs[1]) / det;
    out[1] = (a * rhs[1] - b * rhs[0]) / det;
    return true;
  }
  const double a = w[set[0]][set[0]], b = w[set[0]][set[1]], c = w[set[0]][set[2]];
  const double d = w[set[1]][set[1]], e = w[set[1]][set[2]], f = w[set[2]][set[2]];
  // Cofactors of the symmetric matrix [a b c; b d e; c e f].
  const double A = d * f - e * e, B = c * e - b * f, C = b * e - c * d;
  const double D = a * f - c * c, E = b * c - a * e, F = a * d - b * b;
  const double det = a * A + b * B + c * C;
  if (!(det > 1e-12 * a * d * f)) return false;
  out[0] = (A * rhs[0] + B * rhs[1] + C * rhs[2]) / det;
  out[1] = (B * rhs[0] + D * rhs[1] + E * rhs[2]) / det;
  out[2] = (C * rhs[0] + E * rhs[1] + F * rhs[2]) / det;
  return true;
}

}  // namespace

void NormalBlock::build(const Matrix& delassus) {
  const int k = static_cast<int>(delassus.rows());
  if (k < 1 || k > kMaxPoints || delassus.cols() != k) {
    throw std::invalid_argument("NormalBlock: 1 to 4 points");
  }
  size_ = k;
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) delassus_[i][j] = delassus(i, j);
  }
  // Four points: the pseudo-inverse is computed when first needed (most manifolds of a pile are
  // speculative and never push). Fewer: the plain inverse, when regular.
  pseudoInverseReady_ = false;
}

void NormalBlock::computePseudoInverse() const {
  const int k = size_;
  // From the eigen-decomposition, dropping the directions the block cannot act on (eigenvalues
  // below 1e-10 of the largest: coplanar points give one exact zero).
  Matrix w(k, k);
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) w(i, j) = delassus_[i][j];
  }
  const Eigen::SelfAdjointEigenSolver<Matrix> eigen(w);
  const auto& values = eigen.eigenvalues();
  const double cutoff = 1e-10 * values.cwiseAbs().maxCoeff();
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxPoints, 1> inverse(k);
  for (int i = 0; i < k; ++i) inverse[i] = values[i] > cutoff ? 1.0 / values[i] : 0.0;
  const Matrix pseudo =
      eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose();
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) pseudoInverse_[i][j] = pseudo(i, j);
  }
  pseudoInverseReady_ = true;
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
  if (idle) {
    std::fill(change, change + k, 0.0);
    return 0;
  }
  // The active set S of points that push; the others let go (impulse to zero). First guess:
  // all; then the points whose impulse the last answer kept positive, plus the released ones
  // that would still approach (block principal pivoting, Judice and Pires).
  bool active[kMaxPoints];
  std::fill(active, active + k, true);
  const auto tolerance = [&](int i) {
    return 1e-9 * (std::abs(target[i]) + std::abs(velocity[i])) + 1e-12;
  };
  for (int pivot = 0; pivot < 2 * kMaxPoints; ++pivot) {
    int set[kMaxPoints], n = 0;
    for (int i = 0; i < k; ++i) {
      if (active[i]) set[n++] = i;
    }
    // Released points drop their impulse; the active ones meet their targets with that.
    for (int i = 0; i < k; ++i) change[i] = active[i] ? 0.0 : -impulse[i];
    if (n > 0) {
      double rhs[kMaxPoints], solution[kMaxPoints];
      for (int s = 0; s < n; ++s) {
        rhs[s] = residual[set[s]];
        for (int i = 0; i < k; ++i) {
          if (!active[i]) rhs[s] -= delassus_[set[s]][i] * change[i];
        }
      }
      if (n == 4) {
        // Four coplanar points: W has rank three; W^+ gives the smallest, symmetric answer.
        if (!pseudoInverseReady_) computePseudoInverse();
        for (int s = 0; s < 4; ++s) {
          solution[s] = 0.0;
          for (int t = 0; t < 4; ++t) solution[s] += pseudoInverse_[s][t] * rhs[t];
        }
      } else if (!solveSubset(delassus_, set, n, rhs, solution)) {
        break;  // collinear points: leave it to Gauss–Seidel
      }
      for (int s = 0; s < n; ++s) change[set[s]] = solution[s];
    }
    // Complementarity: pushing points keep a non-negative impulse and meet their target
    // exactly; released ones do not approach beyond theirs.
    bool done = true;
    bool next[kMaxPoints];
    for (int i = 0; i < k; ++i) {
      double w = -residual[i];
      for (int j = 0; j < k; ++j) w += delassus_[i][j] * change[j];
      if (active[i]) {
        next[i] = impulse[i] + change[i] > 0.0;
        done &= next[i] && std::abs(w) <= tolerance(i);
      } else {
        next[i] = w < -tolerance(i);
        done &= !next[i];
      }
    }
    if (done) return 0;
    if (std::equal(next, next + k, active)) break;  // no progress: Gauss–Seidel decides
    std::copy(next, next + k, active);
  }
  return solveByGaussSeidel(velocity, target, impulse, change, maxIterations);
}

int NormalBlock::solveByGaussSeidel(const double* velocity, const double* target,
                                    const double* impulse, double* change,
                                    int maxIterations) const {
  const int k = size_;
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
      const double next = std::max(0.0, x[i] + (target[i] - w[i]) / delassus_[i][i]);
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
