#include "engine/recording/warm_start_study.hpp"

#include "collision/defaults.hpp"
#include "collision/obb.hpp"

namespace hb {

StudyGuess studyInitialGuess(WarmStart strategy, const RecordedProblem& problem) {
  // initialGuess reads only the centres of the world OBBs, which the recording stores.
  Obb obbA, obbB;
  obbA.center = problem.obbCenterA;
  obbB.center = problem.obbCenterB;
  StudyGuess guess;
  guess.x0 = initialGuess(strategy, obbA, obbB, problem.poseA, problem.poseB, problem.previous);
  guess.fallback = !problem.previous && (strategy == WarmStart::PreviousSolution ||
                                         strategy == WarmStart::TransformedPrevious);
  return guess;
}

GjkOptions studyGjkOptions(const GjkOptions& recorded, GjkVariant variant) {
  GjkOptions options = recorded;
  options.variant = variant;
  options.mode = GjkMode::Boolean;
  return options;
}

long studyRecording(const RecordingReader& reader, const WarmStartStudyOptions& options,
                    const SolveTimer& timer,
                    const std::function<void(const StudyProblem&)>& visit) {
  const std::vector<RecordedProxy>& proxies = reader.proxies();
  long visited = 0;
  StudyProblem study;
  for (long row = 0; row < reader.stepCount(); ++row) {
    if (options.maxProblems >= 0 && visited >= options.maxProblems) break;
    const RecordedStep& step = reader.step(row);
    if (step.problemCount == 0) continue;
    const GjkOptions recorded = reader.collisionOptions(row).gjk;
    const std::vector<RecordedProblem> problems = reader.problemsOfStep(row);
    for (std::size_t k = 0; k < problems.size(); ++k) {
      if (options.maxProblems >= 0 && visited >= options.maxProblems) break;
      const RecordedProblem& p = problems[k];
      study.index = step.problemBegin + static_cast<long>(k);
      study.step = p.step;
      study.bodyA = p.bodyA;
      study.bodyB = p.bodyB;
      study.exactInputs = p.exactInputs;
      study.recordedCollide = p.result.collide;
      study.recordedDistance = p.result.distance;
      study.collisionTolerance = recorded.collisionTolerance >= 0.0
                                     ? recorded.collisionTolerance
                                     : defaults::collisionTolerance(recorded.tolerance);
      study.results.clear();
      const Shape& a = proxies[p.proxyA].shape;
      const Shape& b = proxies[p.proxyB].shape;
      for (const GjkVariant variant : options.variants) {
        const GjkOptions gjkOptions = studyGjkOptions(recorded, variant);
        for (const WarmStart warmStart : options.warmStarts) {
          const StudyGuess guess = studyInitialGuess(warmStart, p);
          const StudySolve solve{a, p.poseA, b, p.poseB, guess.x0, gjkOptions};
          const GjkResult r = solve();
          StudyResult result;
          result.variant = variant;
          result.warmStart = warmStart;
          result.fallback = guess.fallback;
          result.collide = r.collide();
          result.iterations = r.iterations;
          result.status = r.status;
          result.timeUs = timer(solve);
          study.results.push_back(result);
        }
      }
      visit(study);
      ++visited;
    }
  }
  return visited;
}

}  // namespace hb
