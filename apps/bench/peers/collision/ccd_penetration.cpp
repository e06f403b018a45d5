// libccd's GJK-EPA penetration on heavyball's support functions (the peer of RTR in `heavyball
// bench smooth`, as in An et al.'s evaluation).

#include <ccd/ccd.h>

#include "apps/bench/peers/collision/ccd_body.hpp"
#include "apps/bench/peers/collision/penetration_peer.hpp"
#include "collision/defaults.hpp"

namespace hb::bench::peers {

namespace {

class CcdPenetration final : public PenetrationPeer {
 public:
  CcdPenetration() {
    CCD_INIT(&ccd_);
    ccd_.support1 = &supportWorld;
    ccd_.support2 = &supportWorld;
    ccd_.first_dir = &firstDirection;
    ccd_.max_iterations = 1000;
    ccd_.epa_tolerance = defaults::kEpaTolerance;
  }

  std::string_view name() const override { return "ccd_epa"; }
  bool handles(const Shape&) const override { return true; }

  PeerPenetration solve(const Shape& a, const Pose& poseA, const Shape& b,
                        const Pose& poseB) override {
    set(a_, a, poseA);
    set(b_, b, poseB);
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    PeerPenetration out;
    if (ccdGJKPenetration(&a_, &b_, &ccd_, &depth, &dir, &pos) != 0) return out;
    out.collide = true;
    out.depth = depth;
    // libccd's direction moves B out of A: from A towards B.
    out.normal = Eigen::Vector3d(dir.v[0], dir.v[1], dir.v[2]).normalized();
    return out;
  }

 private:
  static void set(CcdBody& body, const Shape& shape, const Pose& pose) {
    body.shape = &shape;
    body.rotation = pose.rotation();
    body.position = pose.p;
    body.obbCentre = pose.p;
    body.hint = -1;
  }

  ccd_t ccd_{};
  CcdBody a_, b_;
};

}  // namespace

std::unique_ptr<PenetrationPeer> makeCcdPenetration() {
  return std::make_unique<CcdPenetration>();
}

}  // namespace hb::bench::peers
