// The intermediate-axis (Dzhanibekov) flip: a thin box spun about its middle principal axis
// with a slight wobble turns over periodically. The answer comes from Euler's equations
// integrated independently of any engine (classical Runge–Kutta at a hundredth of the step).

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "apps/bench/physics/scenarios.hpp"

namespace hb::physics {
namespace {

/// Counts the reversals of one angular-velocity component, with hysteresis: a reversal is
/// counted when the component reaches half its initial size with the opposite sign.
class ReversalCounter {
 public:
  explicit ReversalCounter(double initial)
      : sign_(initial >= 0 ? 1 : -1), level_(std::abs(initial) / 2) {}
  void add(double value, double time) {
    if (!std::isfinite(value)) {
      broken_ = true;
      return;
    }
    if (sign_ * value < -level_) {
      sign_ = -sign_;
      times_.push_back(time);
    }
  }
  const std::vector<double>& times() const { return times_; }
  bool broken() const { return broken_; }

 private:
  int sign_;
  double level_;
  bool broken_ = false;
  std::vector<double> times_;
};

/// Body-frame angular velocity under Euler's equations I dw/dt = (I w) x w, sampled every dt.
std::vector<Eigen::Vector3d> eulerReference(const Eigen::Matrix3d& inertia, Eigen::Vector3d w,
                                            double dt, long steps) {
  const Eigen::Matrix3d inverse = inertia.inverse();
  const auto rate = [&](const Eigen::Vector3d& x) -> Eigen::Vector3d {
    return inverse * (inertia * x).cross(x);
  };
  constexpr int kSubsteps = 100;
  const double h = dt / kSubsteps;
  std::vector<Eigen::Vector3d> out;
  out.reserve(steps);
  for (long s = 0; s < steps; ++s) {
    for (int k = 0; k < kSubsteps; ++k) {
      const Eigen::Vector3d k1 = rate(w);
      const Eigen::Vector3d k2 = rate(w + 0.5 * h * k1);
      const Eigen::Vector3d k3 = rate(w + 0.5 * h * k2);
      const Eigen::Vector3d k4 = rate(w + h * k3);
      w += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    out.push_back(w);
  }
  return out;
}

class IntermediateAxis final : public PhysicsScenario {
 public:
  std::string_view name() const override { return "intermediate-axis"; }
  std::string_view description() const override {
    return "a 0.3 x 0.12 x 0.02 m plate spun at 5 rad/s about its intermediate axis with a 0.02 "
           "rad/s wobble, no gravity: it flips over as Euler's equations say";
  }
  double seconds() const override { return 10.0; }

  void start(const sim::SimScene& scene) override {
    requireBodies(scene, 1, name());
    body_ = scene.bodies[0];
    dt_ = scene.base.dt;
    const Eigen::Vector3d w0 = body_.pose.q.conjugate() * body_.angularVelocity;
    w0.cwiseAbs().maxCoeff(&axis_);
    const Eigen::Vector3d moments = body_.inertia.diagonal();
    if (!body_.inertia.isDiagonal(1e-12) || moments[axis_] == moments.minCoeff() ||
        moments[axis_] == moments.maxCoeff()) {
      throw std::runtime_error(
          "intermediate-axis: the body must spin mostly about its intermediate principal axis, "
          "one of its shape axes");
    }
    engine_ = ReversalCounter(w0[axis_]);
    reference_ = ReversalCounter(w0[axis_]);
    const long steps = std::lround(seconds() / dt_);
    const std::vector<Eigen::Vector3d> w = eulerReference(body_.inertia, w0, dt_, steps);
    for (long s = 0; s < steps; ++s) reference_.add(w[s][axis_], (s + 1) * dt_);
  }

  void observe(const sim::SimPeer& engine, long step) override {
    const Eigen::Vector3d w = engine.pose(0).q.conjugate() * engine.velocity(0).angular;
    engine_.add(w[axis_], step * dt_);
  }

  std::vector<PhysicsCheck> checks() const override {
    const std::vector<double>& expected = reference_.times();
    const std::vector<double>& measured = engine_.times();
    const auto nth = [](const std::vector<double>& t, size_t i) {
      return i < t.size() ? t[i] : NAN;
    };
    const double count = engine_.broken() ? NAN : static_cast<double>(measured.size());
    std::vector<PhysicsCheck> out = {{"flips in 10 s", "", static_cast<double>(expected.size()),
                                      0.0, count, "Euler's equations"}};
    if (!expected.empty()) {
      // A flip's time is its period's multiple: 2% of it allows a phase error of that size.
      const size_t last = expected.size() - 1;
      out.push_back({"first flip", "s", expected[0], 0.02 * expected[0], nth(measured, 0),
                     "Euler's equations, 2%"});
      out.push_back({"last flip", "s", expected[last], 0.02 * expected[last], nth(measured, last),
                     "Euler's equations, 2%"});
    }
    return out;
  }

 private:
  sim::SimBody body_;
  double dt_ = 0.0;
  int axis_ = 1;
  ReversalCounter engine_{1.0};
  ReversalCounter reference_{1.0};
};

}  // namespace

std::unique_ptr<PhysicsScenario> makeIntermediateAxis() {
  return std::make_unique<IntermediateAxis>();
}

}  // namespace hb::physics
