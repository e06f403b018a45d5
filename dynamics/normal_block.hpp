#pragma once
// The normal impulses of one contact manifold (up to four points between the same two bodies)
// solved together, as one block of the contact solver's Gauss–Seidel sweeps.
//
// Point by point, Gauss–Seidel hands the first point of a face the whole impulse that stops the
// face, which turns the body, which the next point corrects, and so on: until the sweeps
// converge, a resting face is pushed unevenly and a stack of boxes leans and sways. Solving the
// block's complementarity problem
//   find d:  lambda + d >= 0,  w = u + W d >= u*,  (lambda + d)_i (w - u*)_i = 0
// exactly each time (W the block's normal Delassus matrix, u the normal velocities, u* their
// targets, lambda the accumulated impulses) removes that. When every point keeps pushing, the
// answer is d = W^+ (u* - u), with W^+ the pseudo-inverse: four points of a face leave W of rank
// three, and W^+ gives the smallest, symmetric distribution. When some points let go, block
// principal pivoting finds which: each guess of the pushing set is solved exactly (Cramer's rule
// on up to three points, W^+ on four) and the guess corrected by the points that break
// complementarity. Where that does not settle (collinear points, cycling), projected
// Gauss–Seidel on the block's own k x k problem, which touches no body, takes over.

#include <Eigen/Core>

namespace hb {

class NormalBlock {
 public:
  static constexpr int kMaxPoints = 4;

  /// At most kMaxPoints square, without allocating.
  using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxPoints, kMaxPoints>;

  /// Takes the block's normal Delassus matrix (k x k, symmetric positive semidefinite with a
  /// positive diagonal, 1 <= k <= kMaxPoints).
  void build(const Matrix& delassus);

  int size() const { return size_; }

  /// The impulse changes d (k values) for normal velocities u, targets u* and accumulated
  /// impulses lambda. Returns the projected Gauss–Seidel iterations used (0: pivoting found the
  /// exact answer); `maxIterations` caps them.
  int solve(const double* velocity, const double* target, const double* impulse, double* change,
            int maxIterations = 4) const;

 private:
  void computePseudoInverse() const;
  /// Projected Gauss–Seidel on the block from the accumulated impulses, where pivoting found no
  /// answer (solve's fallback).
  int solveByGaussSeidel(const double* velocity, const double* target, const double* impulse,
                         double* change, int maxIterations) const;

  int size_ = 0;
  double delassus_[kMaxPoints][kMaxPoints] = {};
  // W^+ of four points, computed when first needed.
  mutable double pseudoInverse_[kMaxPoints][kMaxPoints] = {};
  mutable bool pseudoInverseReady_ = false;
};

}  // namespace hb
