#include "collision/minkowski_difference.hpp"

namespace hb {

MinkowskiDifference::MinkowskiDifference(const Shape& a, const Pose& poseA, const Shape& b,
                                         const Pose& poseB)
    : a_(a), b_(b), poseA_(poseA) {
  // B expressed in A's frame: x_A = R_AB x_B + t_AB.
  const Pose bInA = poseA.inverse() * poseB;
  rotationBtoA_ = bInA.q.toRotationMatrix();
  rotationAtoB_ = rotationBtoA_.transpose();
  translationBinA_ = bInA.p;
  supportA_ = coreSupportFunction(a.type());
  supportB_ = coreSupportFunction(b.type());
}

}  // namespace hb
