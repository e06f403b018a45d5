// Chains of links on ball joints: ten equal links hanging at rest stay where they are, and a
// heavy body at the end of four links a hundredth of its mass, released level, stays on them.

#include <algorithm>
#include <optional>

#include "apps/bench/physics/joint_measures.hpp"
#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

class Chain final : public PhysicsScenario {
 public:
  explicit Chain(bool heavyEnd) : heavyEnd_(heavyEnd) {}

  std::string_view name() const override { return heavyEnd_ ? "heavy-chain" : "hanging-chain"; }
  std::string_view description() const override {
    return heavyEnd_ ? "a 1 kg link on four 10 g links (100:1), ball joints, released level "
                       "from the pivot: the joints stay together while the light links whip"
                     : "ten 0.1 kg links on ball joints hanging at rest from a pivot for 10 s: "
                       "the joints stay together and the chain stays put";
  }
  double seconds() const override { return heavyEnd_ ? 3.0 : 10.0; }

  void start(const sim::SimScene& scene) override {
    const int links = heavyEnd_ ? 5 : 10;
    requireBodies(scene, links, name());
    anchors_.emplace(scene, links, name());
    bottomStart_ = scene.bodies.back().pose.p;
    separation_ = 0.0;
    moved_ = 0.0;
  }

  void observe(const sim::SimPeer& engine, long) override {
    separation_ = std::max(separation_, anchors_->largestSeparation(engine));
    const int last = heavyEnd_ ? 4 : 9;
    moved_ = std::max(moved_, (engine.pose(last).p - bottomStart_).norm());
  }

  std::vector<PhysicsCheck> checks() const override {
    if (heavyEnd_) {
      return {{"largest joint separation", "mm", 0.0, 5.0, 1e3 * separation_,
               "connected, within 5% of a link (a mass ratio of 100 is the weak spot of "
               "joints solved body by body: such chains come apart by metres)"}};
    }
    return {{"largest joint separation", "mm", 0.0, 0.1, 1e3 * separation_,
             "0.1 mm of drift over 10 s"},
            {"largest motion of the bottom link", "mm", 0.0, 0.1, 1e3 * moved_,
             "a chain at rest stays at rest"}};
  }

 private:
  bool heavyEnd_;
  std::optional<JointAnchors> anchors_;
  Eigen::Vector3d bottomStart_ = Eigen::Vector3d::Zero();
  double separation_ = 0.0, moved_ = 0.0;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeChain(bool heavyEnd) {
  return std::make_unique<Chain>(heavyEnd);
}

}  // namespace hb::physics
