// Stacks and pyramids of cubes placed face to face on the ground: they stand still.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "apps/heavyball/physics/scenarios.hpp"

namespace hb::physics {
namespace {

/// Resting contacts may overlap by up to this much (the contact solver's slop, m) each; a column
/// of k contacts may settle by k times it.
constexpr double kSlop = 0.0005;

/// Horizontal drift of every body (max over the run) and the sink of the topmost one.
class StillnessMeter {
 public:
  void start(const sim::SimScene& scene) {
    start_.clear();
    for (const sim::SimBody& b : scene.bodies) start_.push_back(b.pose.p);
    top_ = static_cast<int>(
        std::max_element(start_.begin(), start_.end(),
                         [](const auto& a, const auto& b) { return a.z() < b.z(); }) -
        start_.begin());
    drift_ = topDrift_ = sink_ = 0.0;
  }

  void observe(const sim::SimPeer& engine) {
    for (size_t i = 0; i < start_.size(); ++i) {
      const Eigen::Vector3d moved = engine.pose(static_cast<int>(i)).p - start_[i];
      const double horizontal = moved.head<2>().norm();
      if (!std::isfinite(horizontal)) drift_ = topDrift_ = sink_ = NAN;
      drift_ = std::max(drift_, horizontal);
      if (static_cast<int>(i) == top_) {
        topDrift_ = std::max(topDrift_, horizontal);
        sink_ = -moved.z();
      }
    }
  }

  double drift() const { return drift_; }        ///< m, any body, max over the run
  double topDrift() const { return topDrift_; }  ///< m, the top body, max over the run
  double sink() const { return sink_; }          ///< m, the top body at the end

 private:
  std::vector<Eigen::Vector3d> start_;
  int top_ = 0;
  double drift_ = 0.0, topDrift_ = 0.0, sink_ = 0.0;
};

class Stack final : public PhysicsScenario {
 public:
  explicit Stack(int boxes) : boxes_(boxes), name_("stack-" + std::to_string(boxes)) {}

  std::string_view name() const override { return name_; }
  std::string_view description() const override {
    return boxes_ <= 10 ? "10 cubes of 0.1 m stacked face to face, mu = 0.6, 10 s awake: the stack "
                          "stands still"
                        : "20 cubes of 0.1 m stacked face to face, mu = 0.6, 10 s awake: the stack "
                          "stands";
  }
  double seconds() const override { return 10.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, boxes_, name());
    meter_.start(scene);
  }
  void observe(const sim::SimPeer& engine, long) override { meter_.observe(engine); }

  std::vector<PhysicsCheck> checks() const override {
    // Ten boxes must hold still within a millimetre; twenty must not fall (a centimetre).
    const double drift = boxes_ <= 10 ? 1.0 : 10.0;
    return {{"top box drifted sideways, max", "mm", 0.0, drift, 1000.0 * meter_.topDrift(),
             boxes_ <= 10 ? "static equilibrium, 1 mm" : "standing, 1 cm"},
            {"top box sank", "mm", 0.0, 1000.0 * kSlop * boxes_, 1000.0 * meter_.sink(),
             "0.5 mm resting overlap per contact"}};
  }

 private:
  int boxes_;
  std::string name_;
  StillnessMeter meter_;
};

class Pyramid final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "pyramid"; }
  std::string_view description() const override {
    return "a pyramid of 55 cubes of 0.1 m (rows of 10 down to 1, each box on two), mu = 0.6, "
           "10 s awake: it stands still";
  }
  double seconds() const override { return 10.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 55, name());
    meter_.start(scene);
  }
  void observe(const sim::SimPeer& engine, long) override { meter_.observe(engine); }

  std::vector<PhysicsCheck> checks() const override {
    return {{"any box drifted sideways, max", "mm", 0.0, 1.0, 1000.0 * meter_.drift(),
             "static equilibrium, 1 mm"},
            {"top box sank", "mm", 0.0, 1000.0 * kSlop * 10, 1000.0 * meter_.sink(),
             "0.5 mm resting overlap per contact"}};
  }

 private:
  StillnessMeter meter_;
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeStack(int boxes) {
  return std::make_unique<Stack>(boxes);
}

std::unique_ptr<PhysicsScenario> makePyramid() {
  return std::make_unique<Pyramid>();
}

}  // namespace hb::physics
