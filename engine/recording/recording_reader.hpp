#pragma once
// Reads a recording written by Recorder (layout: docs/recording-format.md): the metadata, the
// shapes rebuilt as collision Shapes, the bodies, the bodies' state at every recorded step and
// the narrow-phase problems with their inputs and results. A file that is not a readable
// recording (empty, truncated, corrupt, not HDF5, inconsistent indices) gives a RecordingError
// naming the file and the problem. A recording cut short (a killed run) reads as its complete
// prefix of steps.

#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collision/collide.hpp"
#include "collision/obb.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "collision/warm_start.hpp"
#include "dynamics/joint.hpp"
#include "engine/recording/recording_error.hpp"
#include "engine/scene.hpp"

namespace hb {

struct RecordingInfo {
  int formatVersion = 0;
  std::string heavyballVersion;
  std::string sceneName;
  std::string sceneJson;  ///< the scene as run (JSON text)
  std::string assetDir;   ///< where the scene's assets were (absolute)
  double dt = 0.0;        ///< s
  Eigen::Vector3d gravity = Eigen::Vector3d::Zero();
  unsigned seed = 0;
  /// Solver settings when the recording started; the GJK settings of each step are in
  /// RecordedStep (they may change during a run).
  SolverDescription solver;
  /// The narrow phase's collide() options at the start (GJK settings from `solver`).
  CollisionOptions collision;
};

struct RecordedBody {
  std::string name;   ///< asset name or shape type; "static" for body 0
  std::string asset;  ///< empty for primitives and the static body
  bool isStatic = false;
  double mass = 0.0;  ///< kg, 0 for the static body
  Material material;
  long firstStep = 0;  ///< the first recorded step whose states include the body
};

/// One convex piece of a body (World's Proxy).
struct RecordedProxy {
  int body = -1;
  /// Rebuilt: primitives from their parameters, hulls from the stored vertices, rounded boxes
  /// and hulls with their convex radius (a hull's core from its stored vertices).
  Shape shape;
  Pose inBody;    ///< piece frame -> body frame
  Obb localObb;   ///< in the piece frame
  int hull = -1;  ///< index of the stored hull, -1 for primitives
};

/// One recorded instant: the bodies' state then, and the narrow-phase problems of the step that
/// starts from it (none for the last row, the final state).
struct RecordedStep {
  long step = 0;      ///< the world's step count
  double time = 0.0;  ///< s
  int bodyCount = 0;
  std::int64_t stateBegin = 0;
  std::int64_t problemBegin = 0;
  int problemCount = 0;
  GjkVariant gjkVariant = GjkVariant::Vanilla;
  WarmStart warmStart = WarmStart::None;
  double gjkTolerance = 0.0;
  int gjkMaxIterations = 0;
  /// The step's narrow-phase rounds: its most substeps of any island (StepStatistics::
  /// substeps); 0 for the last row, which no step follows, and in files before version 9.
  int substeps = 0;
};

struct BodyState {
  Pose pose;                                                  ///< centre-of-mass frame in the world
  Eigen::Vector3d linearVelocity = Eigen::Vector3d::Zero();   ///< m/s, world
  Eigen::Vector3d angularVelocity = Eigen::Vector3d::Zero();  ///< rad/s, world
  bool sleeping = false;
};

/// One narrow-phase query: its inputs and what collide() answered.
struct RecordedProblem {
  long step = 0;
  int substep = 0;  ///< of the step (format version 5; 0 before)
  int proxyA = -1, proxyB = -1;
  int bodyA = -1, bodyB = -1;
  /// False when the stored poses or support hints may differ from the query's (see
  /// docs/recording-format.md); re-solving such a problem may not reproduce the result.
  bool exactInputs = true;
  Pose poseA, poseB;  ///< the proxies' world poses
  Eigen::Vector3d obbCenterA = Eigen::Vector3d::Zero();
  Eigen::Vector3d obbCenterB = Eigen::Vector3d::Zero();
  std::optional<PreviousSolution> previous;
  Eigen::Vector3d initialGuess = Eigen::Vector3d::Zero();
  SupportHints hints;  ///< the support-vertex hints collide() started from
  /// GJK stopped once a plane separated the shapes by more than this (m): the pair's margin
  /// (format version 8; infinity before, every query run to its tolerance).
  double separationBound = std::numeric_limits<double>::infinity();
  /// The simplex GJK started from (collide's `warm`; format version 10, empty before and when
  /// the query started from initialGuess alone).
  WarmSimplex warmSimplex;
  CollisionResult result;  ///< hints and simplex left empty
  Eigen::Vector3d separation() const { return result.witnessA - result.witnessB; }
};

/// A joint the world had when the recording started (format version 6).
struct RecordedJoint {
  std::string name;
  JointType type = JointType::Spherical;
  std::string typeName;  ///< as stored: "fixed", "revolute", "prismatic", "spherical"
  int bodyA = 0;
  int bodyB = 0;
};

/// A joint's values at one recorded instant (Joint, jointPosition and friends): rad and N m for a
/// revolute joint, m and N for a prismatic one. NaN after the world's joints changed mid-run.
/// The turns and spins (version 7) are NaN in files of version 6.
struct RecordedJointState {
  double position = 0.0;
  double velocity = 0.0;
  double error = 0.0;
  double targetPosition = 0.0;  ///< the motor's
  double targetVelocity = 0.0;  ///< the motor's
  double motorForce = 0.0;
  double springForce = 0.0;
  double frictionForce = 0.0;
  Eigen::Vector3d turn = Eigen::Vector3d::Zero();        ///< jointTurn, rad
  Eigen::Vector3d spin = Eigen::Vector3d::Zero();        ///< jointSpin, rad/s
  Eigen::Vector3d targetTurn = Eigen::Vector3d::Zero();  ///< a spherical joint's motor's
  Eigen::Vector3d targetSpin = Eigen::Vector3d::Zero();  ///< a spherical joint's motor's
};

class RecordingReader {
 public:
  /// Opens the file and reads the metadata, shapes, bodies and step index. Throws
  /// RecordingError.
  explicit RecordingReader(const std::filesystem::path& file);
  ~RecordingReader();
  RecordingReader(RecordingReader&&) noexcept;
  RecordingReader& operator=(RecordingReader&&) noexcept;

  const std::filesystem::path& path() const;
  std::uintmax_t fileSize() const;
  const RecordingInfo& info() const;
  const std::vector<RecordedBody>& bodies() const;
  const std::vector<RecordedProxy>& proxies() const;

  /// Recorded instants (the initial state, then one per step); complete ones only.
  long stepCount() const;
  const RecordedStep& step(long i) const;
  /// State of bodies 0 .. step(i).bodyCount - 1 at step row i.
  std::vector<BodyState> states(long i) const;

  /// The joints the world had when the recording started; empty for a run without joints and
  /// for files of format version 5 and earlier.
  const std::vector<RecordedJoint>& joints() const;
  /// The joints' values at step row i, one per joint (empty without joints).
  std::vector<RecordedJointState> jointStates(long i) const;

  long problemCount() const;
  /// Problems [first, first + count) in the order they were solved.
  std::vector<RecordedProblem> problems(long first, long count) const;
  std::vector<RecordedProblem> problemsOfStep(long i) const;
  /// Visits every problem in order, reading a block at a time (bounded memory).
  void forEachProblem(const std::function<void(const RecordedProblem&)>& visit) const;

  /// collide() options of step row i: the step's GJK settings, the rest as at the start.
  CollisionOptions collisionOptions(long i) const;
  /// The options problem p of step row i was solved with: the step's, and p's separation bound.
  CollisionOptions collisionOptions(long i, const RecordedProblem& p) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hb
