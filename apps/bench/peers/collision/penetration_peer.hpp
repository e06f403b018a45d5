#pragma once
// Other libraries' penetration depth (GJK-EPA) for `heavyball bench smooth`, on heavyball's own
// shapes and support functions: each built only when its library is found.

#include <Eigen/Core>
#include <memory>
#include <string_view>

#include "collision/pose.hpp"
#include "collision/shape.hpp"

namespace hb::bench::peers {

struct PeerPenetration {
  bool collide = false;
  double depth = 0.0;
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();  ///< unit, from A towards B
};

class PenetrationPeer {
 public:
  virtual ~PenetrationPeer() = default;
  virtual std::string_view name() const = 0;
  /// Whether the library can represent the shape (FCL: hulls and ellipsoids only).
  virtual bool handles(const Shape& shape) const = 0;
  virtual PeerPenetration solve(const Shape& a, const Pose& poseA, const Shape& b,
                                const Pose& poseB) = 0;
};

/// libccd (HB_HAVE_CCD): ccdGJKPenetration, its GJK then EPA, to the same EPA tolerance as
/// heavyball's.
std::unique_ptr<PenetrationPeer> makeCcdPenetration();
/// FCL (HB_HAVE_FCL): GJKSolver_libccd::shapeIntersect with a contact, on fcl::Convex copies of
/// the hulls.
std::unique_ptr<PenetrationPeer> makeFclPenetration();

}  // namespace hb::bench::peers
