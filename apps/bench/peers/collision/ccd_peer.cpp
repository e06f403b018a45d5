// libccd peers: GJK (ccdGJKIntersect) and MPR (ccdMPRIntersect) Boolean queries. libccd takes
// support callbacks, so both run on heavyball's own support functions: the comparison isolates the
// algorithms. libccd has no public GJK distance query, so these peers are Boolean only.

#include <ccd/ccd.h>

#include <Eigen/Core>

#include "apps/bench/peers/collision/ccd_body.hpp"
#include "apps/bench/peers/collision/peer.hpp"

namespace hb::bench::peers {

namespace {

class CcdPeer final : public Method {
 public:
  explicit CcdPeer(bool mpr) : mpr_(mpr) {
    CCD_INIT(&ccd_);
    ccd_.support1 = &supportWorld;
    ccd_.support2 = &supportWorld;
    ccd_.center1 = &centreWorld;
    ccd_.center2 = &centreWorld;
    ccd_.first_dir = &firstDirection;
    ccd_.max_iterations = 1000;  // libccd's default is unbounded
  }

  std::string_view name() const override { return mpr_ ? "ccd_mpr" : "ccd_gjk"; }
  bool supports(GjkMode mode) const override { return mode == GjkMode::Boolean; }
  void prepare(std::span<const BenchShape> shapes) override { shapes_ = shapes; }

  void setProblem(const Problem& p) override {
    set(a_, shapes_[p.a], p.poseA);
    set(b_, shapes_[p.b], p.poseB);
    poseA_ = p.poseA;
    poseB_ = p.poseB;
  }

  Answer solve(GjkMode) override {
    // The rotations the callbacks use are derived from the poses in the timed call, as
    // heavyball's GJK derives its relative pose in its own.
    a_.rotation = poseA_.rotation();
    b_.rotation = poseB_.rotation();
    a_.hint = -1;
    b_.hint = -1;
    const int hit = mpr_ ? ccdMPRIntersect(&a_, &b_, &ccd_) : ccdGJKIntersect(&a_, &b_, &ccd_);
    Answer answer;
    answer.collide = hit != 0;
    return answer;
  }

 private:
  static void set(CcdBody& body, const BenchShape& s, const Pose& pose) {
    body.shape = &s.shape;
    body.position = pose.p;
    body.obbCentre = s.localObb.transformed(pose).center;
  }

  bool mpr_;
  ccd_t ccd_{};
  std::span<const BenchShape> shapes_;
  CcdBody a_;
  CcdBody b_;
  Pose poseA_;
  Pose poseB_;
};

}  // namespace

std::unique_ptr<Method> makeCcdGjk() {
  return std::make_unique<CcdPeer>(false);
}
std::unique_ptr<Method> makeCcdMpr() {
  return std::make_unique<CcdPeer>(true);
}

}  // namespace hb::bench::peers
