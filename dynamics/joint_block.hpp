#pragma once
// The held rows of several joints that share bodies (an island's joints: a chain, a gripper)
// solved as one system per visit, K dlambda = target - u over all of them, where Gauss–Seidel
// joint by joint needs on the order of the chain's length squared sweeps to carry a load along
// it, and many more when a heavy body hangs from light ones (a 1 kg ball under four 10 g
// links came apart in 30 sweeps a step). Contacts, motors and limits stay Gauss–Seidel rows
// around it.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <span>
#include <vector>

#include "dynamics/joint_rows.hpp"
#include "dynamics/solver_body.hpp"

namespace hb {

class JointBlock {
 public:
  /// The held rows of joints[members[k]] as one system; false when it is not positive definite
  /// (redundant joints: a closed loop, two joints holding the same freedom), in which case the
  /// joints are visited one by one.
  bool build(std::span<const JointRows> joints, std::span<const int> members);
  /// One visit: every held row to its target at once (velocity pass, fraction 0), or to
  /// `fraction` of its error per step (position pass); returns the largest change as a velocity.
  double solve(std::span<JointRows> joints, std::span<SolverBody> bodies, double fraction);
  std::span<const int> members() const { return members_; }
  /// Whether the last build() succeeded.
  bool valid() const { return valid_; }

 private:
  bool valid_ = false;
  std::vector<int> members_;
  std::vector<int> firstRow_;  // per member: its first row in the system
  Eigen::LDLT<Eigen::MatrixXd> factor_;
  Eigen::VectorXd diagonal_;  // K's, to measure a change as the velocity it makes
  Eigen::VectorXd scale_;     // diag(K)^-1/2: the factor is of S K S
  Eigen::VectorXd residual_, change_;
};

}  // namespace hb
