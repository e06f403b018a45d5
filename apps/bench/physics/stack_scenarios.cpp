// Stacks and pyramids of cubes placed face to face on the ground: they stand still; a tower of
// cubes each shifted along x stands when the weight above every face lies inside it, and falls
// when it does not.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

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

/// How far inside each face of a tower of equal cubes (one on another, in order of height) the
/// weight of the cubes above it lies, at the least (m; < 0: outside, the tower topples).
double towerMargin(const sim::SimScene& scene, std::string_view scenario) {
  std::vector<const sim::SimBody*> cubes;
  for (const sim::SimBody& b : scene.bodies) cubes.push_back(&b);
  std::sort(cubes.begin(), cubes.end(),
            [](const auto* a, const auto* b) { return a->pose.p.z() < b->pose.p.z(); });
  const sim::SimBody& first = *cubes.front();
  const double h = first.shape.type() == ShapeType::Box ? first.shape.halfExtents().x() : 0.0;
  for (const sim::SimBody* c : cubes) {
    if (c->shape.type() != ShapeType::Box || (c->shape.halfExtents().array() != h).any() ||
        c->mass != first.mass || c->pose.q.angularDistance(Eigen::Quaterniond::Identity()) > 0.0) {
      throw std::runtime_error(std::string(scenario) + ": equal axis-aligned cubes, one mass");
    }
  }
  double margin = INFINITY;
  for (size_t k = 0; k + 1 < cubes.size(); ++k) {
    const Eigen::Vector2d lower = cubes[k]->pose.p.head<2>(),
                          upper = cubes[k + 1]->pose.p.head<2>();
    Eigen::Vector2d above = Eigen::Vector2d::Zero();
    for (size_t j = k + 1; j < cubes.size(); ++j) above += cubes[j]->pose.p.head<2>();
    above /= static_cast<double>(cubes.size() - k - 1);
    // The face is the overlap of the two cubes' squares.
    for (int axis = 0; axis < 2; ++axis) {
      const double lo = std::max(lower[axis], upper[axis]) - h;
      const double hi = std::min(lower[axis], upper[axis]) + h;
      margin = std::min({margin, above[axis] - lo, hi - above[axis]});
    }
  }
  return margin;
}

class LeaningTower final : public PhysicsScenario {
 public:
  explicit LeaningTower(std::string name) : name_(std::move(name)) {}

  std::string_view name() const override { return name_; }
  std::string_view description() const override {
    return name_ == "leaning-tower"
               ? "20 cubes of 0.1 m, each 4 mm further along x than the one below, mu = 0.6, "
                 "10 s awake: the weight above every face lies 10 mm inside it, the tower stands"
               : "the same tower with 6 mm steps: the weight above the lowest faces lies outside "
                 "them, the tower falls";
  }
  double seconds() const override { return 10.0; }

  void start(const sim::SimScene& scene) override {
    margin_ = towerMargin(scene, name_);
    if (std::abs(margin_) < 2e-3) {
      throw std::runtime_error(name_ + ": the tower is too close to tipping to call");
    }
    moved_ = 0.0;
    top_ = -1;
    double height = -INFINITY;
    for (size_t i = 0; i < scene.bodies.size(); ++i) {
      if (scene.bodies[i].pose.p.z() > height) {
        height = scene.bodies[i].pose.p.z();
        top_ = static_cast<int>(i);
        topStart_ = scene.bodies[i].pose.p;
      }
    }
  }
  void observe(const sim::SimPeer& engine, long) override {
    const double d = (engine.pose(top_).p - topStart_).norm();
    moved_ = std::isfinite(d) ? std::max(moved_, d) : NAN;
  }

  std::vector<PhysicsCheck> checks() const override {
    char basis[96];
    if (margin_ > 0.0) {
      std::snprintf(basis, sizeof basis, "static equilibrium, the weight %.0f mm inside every face",
                    1000.0 * margin_);
      return {{"top box moved, max", "mm", 0.0, 1.0, 1000.0 * moved_, basis}};
    }
    std::snprintf(basis, sizeof basis, "the weight above a face %.0f mm outside it",
                  -1000.0 * margin_);
    return {{"fell (top box moved over 0.2 m)", "", 1.0, 0.0, moved_ > 0.2 ? 1.0 : 0.0, basis}};
  }

 private:
  std::string name_;
  double margin_ = 0.0, moved_ = 0.0;
  int top_ = 0;
  Eigen::Vector3d topStart_ = Eigen::Vector3d::Zero();
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeLeaningTower(bool topples) {
  return std::make_unique<LeaningTower>(topples ? "leaning-tower-over" : "leaning-tower");
}

std::unique_ptr<PhysicsScenario> makeStack(int boxes) {
  return std::make_unique<Stack>(boxes);
}

std::unique_ptr<PhysicsScenario> makePyramid() {
  return std::make_unique<Pyramid>();
}

}  // namespace hb::physics
