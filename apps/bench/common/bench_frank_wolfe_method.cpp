#include "apps/bench/common/bench_frank_wolfe_method.hpp"

#include <vector>

namespace hb::bench {

namespace {

class FrankWolfeMethod final : public Method {
 public:
  FrankWolfeMethod(std::string_view name, FrankWolfeStep step, int maxIterations)
      : name_(name), step_(step), maxIterations_(maxIterations) {}

  std::string_view name() const override { return name_; }
  bool supports(GjkMode) const override { return true; }

  void prepare(std::span<const BenchShape> shapes) override {
    shapes_ = shapes;
    interiors_.clear();
    for (const BenchShape& s : shapes) interiors_.push_back(interiorPoint(s.shape));
  }

  void setProblem(const Problem& problem) override {
    problem_ = problem;
    start_ =
        problem.poseA.apply(interiors_[problem.a]) - problem.poseB.apply(interiors_[problem.b]);
  }

  Answer solve(GjkMode mode) override {
    FrankWolfeOptions options;
    options.step = step_;
    options.mode = mode;
    options.maxIterations = maxIterations_;
    const MinkowskiDifference difference(shapes_[problem_.a].shape, problem_.poseA,
                                         shapes_[problem_.b].shape, problem_.poseB);
    const FrankWolfeResult r = frankWolfe(difference, start_, options);
    Answer a;
    a.collide = r.collide;
    a.distance = r.distance;
    a.iterations = r.iterations;
    a.converged =
        r.status == FrankWolfeStatus::Separated || r.status == FrankWolfeStatus::Intersecting;
    return a;
  }

 private:
  std::string_view name_;
  FrankWolfeStep step_;
  int maxIterations_;
  std::span<const BenchShape> shapes_;
  std::vector<Eigen::Vector3d> interiors_;  // per shape, local frame
  Problem problem_;
  Eigen::Vector3d start_ = Eigen::Vector3d::Zero();  // world
};

}  // namespace

std::unique_ptr<Method> makeFrankWolfeMethod(std::string_view name, FrankWolfeStep step,
                                             int maxIterations) {
  return std::make_unique<FrankWolfeMethod>(name, step, maxIterations);
}

}  // namespace hb::bench
