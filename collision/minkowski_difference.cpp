#include "collision/minkowski_difference.hpp"

namespace hb {

MinkowskiDifference::MinkowskiDifference(const Shape& a, const Pose& poseA, const Shape& b,
                                         const Pose& poseB)
    : a_(a), b_(b), poseA_(poseA) {
  // B expressed in A's frame: x_A = R_AB x_B + t_AB, with R_AB = q_A^-1 q_B and
  // t_AB = q_A^-1 (p_B - p_A) (one rotation of a vector instead of composing two poses).
  const Eigen::Quaterniond inverseA = poseA.q.conjugate();
  rotationBtoA_ = (inverseA * poseB.q).toRotationMatrix();
  translationBinA_ = rotate(inverseA, poseB.p - poseA.p);
  supportA_ = coreSupportFunction(a.type());
  supportB_ = coreSupportFunction(b.type());
}

}  // namespace hb
