#include "apps/bench/sim/principal_axes.hpp"

#include <Eigen/Eigenvalues>
#include <stdexcept>

namespace hb::sim {

PrincipalAxes principalAxes(const Eigen::Matrix3d& inertia) {
  if (!inertia.allFinite()) throw std::invalid_argument("inertia tensor is not finite");
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(inertia);
  if (solver.info() != Eigen::Success || !(solver.eigenvalues().minCoeff() > 0.0)) {
    throw std::invalid_argument("inertia tensor is not positive definite");
  }
  Eigen::Matrix3d axes = solver.eigenvectors();
  // Eigenvectors come with arbitrary signs: flip one to make the frame right-handed.
  if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2);
  PrincipalAxes out;
  out.moments = solver.eigenvalues();
  out.rotation = Eigen::Quaterniond(axes).normalized();
  return out;
}

}  // namespace hb::sim
