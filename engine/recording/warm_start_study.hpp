#pragma once
// The warm-start study of the GJK++ paper (Sec. IV-E, Fig. 13) on recorded simulations: every
// recorded narrow-phase problem is solved again as a Boolean collision check (Alg. 2) by each
// GJK variant from each warm start, and the verdict, iterations and time of every combination
// are reported. The recording is self-contained (docs/recording-format.md): the shapes, poses,
// OBB centres and the pair's previous solution all come from the file.

#include <Eigen/Core>
#include <functional>
#include <vector>

#include "collision/gjk.hpp"
#include "collision/shape.hpp"
#include "collision/warm_start.hpp"
#include "engine/recording/recording_reader.hpp"

namespace hb {

/// One timed call: a Boolean GJK query from x0, solved from scratch (no support hints carried in,
/// so repeated calls do the same work).
struct StudySolve {
  const Shape& a;
  const Pose& poseA;
  const Shape& b;
  const Pose& poseB;
  Eigen::Vector3d x0;
  GjkOptions options;

  GjkResult operator()() const { return gjk(a, poseA, b, poseB, x0, options); }
};

/// Microseconds one call of `solve` takes. The caller picks the clock and protocol (`heavyball
/// study warmstart`: the mean of the lowest 90% of repeated calls, as in the paper).
using SolveTimer = std::function<double(const StudySolve& solve)>;

struct WarmStartStudyOptions {
  std::vector<GjkVariant> variants = {GjkVariant::Vanilla, GjkVariant::Polyak,
                                      GjkVariant::Nesterov};
  std::vector<WarmStart> warmStarts = {WarmStart::None, WarmStart::ObbCenters,
                                       WarmStart::PreviousSolution, WarmStart::TransformedPrevious};
  long maxProblems = -1;  ///< study at most this many problems (negative: all)
};

/// x0 of a recorded problem for a warm start, through collision/warm_start's initialGuess.
struct StudyGuess {
  Eigen::Vector3d x0 = Eigen::Vector3d::UnitX();
  /// Previous or Transformed without a previous solution (the pair was not in the previous
  /// step's narrow phase): x0 fell back to the OBB centres.
  bool fallback = false;
};
StudyGuess studyInitialGuess(WarmStart strategy, const RecordedProblem& problem);

/// One combination (variant, warm start) on one problem.
struct StudyResult {
  GjkVariant variant = GjkVariant::Vanilla;
  WarmStart warmStart = WarmStart::None;
  bool fallback = false;
  bool collide = false;
  int iterations = 0;
  GjkStatus status = GjkStatus::InvalidInput;
  double timeUs = 0.0;
};

/// One recorded problem and what every combination answered.
struct StudyProblem {
  long index = 0;  ///< row of the recording's problems table
  long step = 0;   ///< the world's step count
  int bodyA = -1, bodyB = -1;
  bool exactInputs = true;
  bool recordedCollide = false;
  double recordedDistance = 0.0;    ///< m, negative when overlapping
  double collisionTolerance = 0.0;  ///< eps_col of the step's GJK settings, m
  /// Variants outer, warm starts inner, in the options' order.
  std::vector<StudyResult> results;
};

/// The GJK options of a study solve: the recorded step's settings (tolerance, caps) with the
/// variant replaced and Boolean mode.
GjkOptions studyGjkOptions(const GjkOptions& recorded, GjkVariant variant);

/// Studies the problems of `reader` in recorded order, up to `options.maxProblems`, calling
/// `visit` once per problem. Every combination is solved once untimed (its answer is the one
/// reported) and then timed with `timer`. Returns the number of problems visited. Throws
/// RecordingError when the file cannot be read.
long studyRecording(const RecordingReader& reader, const WarmStartStudyOptions& options,
                    const SolveTimer& timer, const std::function<void(const StudyProblem&)>& visit);

}  // namespace hb
