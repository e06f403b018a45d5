#include "dynamics/joint_block.hpp"

#include <algorithm>
#include <cmath>

namespace hb {

bool JointBlock::build(std::span<const JointRows> joints, std::span<const int> members) {
  valid_ = false;
  members_.assign(members.begin(), members.end());
  firstRow_.resize(members_.size());
  int rows = 0;
  for (std::size_t m = 0; m < members_.size(); ++m) {
    firstRow_[m] = rows;
    rows += joints[members_[m]].held();
  }
  Eigen::MatrixXd k = Eigen::MatrixXd::Zero(rows, rows);
  for (std::size_t p = 0; p < members_.size(); ++p) {
    const JointRows& jp = joints[members_[p]];
    for (std::size_t q = p; q < members_.size(); ++q) {
      const JointRows& jq = joints[members_[q]];
      for (int i = 0; i < jp.held(); ++i) {
        for (int j = 0; j < jq.held(); ++j) {
          const double kij = jp.heldCoupling(i, jq, j);
          k(firstRow_[p] + i, firstRow_[q] + j) = kij;
          k(firstRow_[q] + j, firstRow_[p] + i) = kij;
        }
      }
    }
  }
  diagonal_ = k.diagonal();
  if (!(diagonal_.minCoeff() > 0.0)) return false;
  // Factored with unit diagonal (S K S, S = diag(K)^-1/2), so that a pivot is measured against
  // its own row's scale: a light, thin link's rows are a million times another's and hold as
  // well. A pivot near zero is a freedom held twice.
  scale_ = diagonal_.cwiseSqrt().cwiseInverse();
  factor_.compute(scale_.asDiagonal() * k * scale_.asDiagonal());
  if (factor_.info() != Eigen::Success || !factor_.isPositive()) return false;
  valid_ = factor_.vectorD().minCoeff() > 1e-10;
  return valid_;
}

double JointBlock::solve(std::span<JointRows> joints, std::span<SolverBody> bodies,
                         double fraction) {
  const int rows = static_cast<int>(diagonal_.size());
  residual_.resize(rows);
  for (std::size_t m = 0; m < members_.size(); ++m) {
    const JointRows& joint = joints[members_[m]];
    for (int i = 0; i < joint.held(); ++i) {
      residual_[firstRow_[m] + i] =
          joint.heldResidual(i, bodies[joint.bodyA()], bodies[joint.bodyB()], fraction);
    }
  }
  change_ = scale_.cwiseProduct(factor_.solve(-scale_.cwiseProduct(residual_)));
  double largest = 0.0;
  for (std::size_t m = 0; m < members_.size(); ++m) {
    JointRows& joint = joints[members_[m]];
    for (int i = 0; i < joint.held(); ++i) {
      const double change = change_[firstRow_[m] + i];
      joint.applyHeld(i, change, bodies[joint.bodyA()], bodies[joint.bodyB()], fraction == 0.0);
      largest = std::max(largest, std::abs(change) * diagonal_[firstRow_[m] + i]);
    }
  }
  return largest;
}

}  // namespace hb
