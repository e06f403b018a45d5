#include "engine/recording/recording_reader.hpp"

#include <H5Cpp.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/defaults.hpp"
#include "engine/recording/hdf5_errors.hpp"
#include "engine/recording/recorder_joints.hpp"
#include "engine/recording/recording_column.hpp"
#include "engine/recording/recording_layout.hpp"
#include "engine/recording/recording_reader_impl.hpp"
#include "engine/recording/recording_rows.hpp"
#include "engine/scene.hpp"

namespace hb {
namespace {

using namespace recording;
using Eigen::Vector3d;

}  // namespace

void RecordingReader::Impl::readInfo() {
  if (!file.attrExists(attr::kFormat) || stringAttribute(attr::kFormat) != kFormatName) {
    fail(std::string("an HDF5 file but not a heavyball recording (no '") + attr::kFormat +
         "' attribute equal to '" + kFormatName + "')");
  }
  info.formatVersion = static_cast<int>(intAttribute(attr::kFormatVersion));
  if (info.formatVersion < 1 || info.formatVersion > kFormatVersion) {
    fail("format version " + std::to_string(info.formatVersion) + " is not supported (this " +
         "heavyball reads versions 1 to " + std::to_string(kFormatVersion) + ")");
  }
  info.heavyballVersion = stringAttribute(attr::kHeavyballVersion);
  info.sceneName = stringAttribute(attr::kSceneName);
  info.sceneJson = textDataset(dataset::kSceneJson);
  info.assetDir = stringAttribute(attr::kAssetDir);
  info.dt = doubleAttribute(attr::kDt);
  info.gravity = vectorAttribute(attr::kGravity);
  info.seed = static_cast<unsigned>(intAttribute(attr::kSeed));
  readSolver();
  readCollisionOptions();
  checkInfo();
}

void RecordingReader::Impl::readSolver() {
  SolverDescription& s = info.solver;
  s.gjkVariant = enumAttribute<GjkVariant>(attr::kGjkVariant, kGjkVariantCount);
  s.warmStart = enumAttribute<WarmStart>(attr::kWarmStart, kWarmStartCount);
  s.gjkTolerance = doubleAttribute(attr::kGjkTolerance);
  s.gjkMaxIterations = static_cast<int>(intAttribute(attr::kGjkMaxIterations));
  s.velocityIterations = static_cast<int>(intAttribute(attr::kVelocityIterations));
  s.manifoldIterations = file.attrExists(attr::kManifoldIterations)
                             ? static_cast<int>(intAttribute(attr::kManifoldIterations))
                             : 1;
  s.shockIterations = file.attrExists(attr::kShockIterations)
                          ? static_cast<int>(intAttribute(attr::kShockIterations))
                          : s.manifoldIterations;
  s.positionIterations = static_cast<int>(intAttribute(attr::kPositionIterations));
  s.solverTolerance = doubleAttribute(attr::kSolverTolerance);
  s.speculativeMargin = doubleAttribute(attr::kSpeculativeMargin);
  s.restitutionThreshold = doubleAttribute(attr::kRestitutionThreshold);
  s.sleeping = intAttribute(attr::kSleeping) != 0;
  // Version 1 knew no convex radius on boxes and hulls.
  s.convexRadius = info.formatVersion >= 2 ? doubleAttribute(attr::kConvexRadius) : 0.0;
  // Before version 5 every step was one.
  s.maxSubsteps = info.formatVersion >= 5 ? static_cast<int>(intAttribute(attr::kMaxSubsteps)) : 1;
  if (file.attrExists(attr::kMaxContactTurn)) {
    s.maxContactTurn = doubleAttribute(attr::kMaxContactTurn);
  }
  if (file.attrExists(attr::kSoftSubsteps)) {
    s.softSubsteps = static_cast<int>(intAttribute(attr::kSoftSubsteps));
    s.contactHertz = doubleAttribute(attr::kContactHertz);
    s.contactDampingRatio = doubleAttribute(attr::kContactDampingRatio);
  }
}

void RecordingReader::Impl::readCollisionOptions() {
  SolverDescription& s = info.solver;
  CollisionOptions& c = info.collision;
  c.gjk.variant = s.gjkVariant;
  c.gjk.tolerance = s.gjkTolerance;
  c.gjk.maxIterations = s.gjkMaxIterations;
  c.gjk.momentumMaxIterations = static_cast<int>(intAttribute(attr::kGjkMomentumMaxIterations));
  c.gjk.normalizeNesterov = intAttribute(attr::kGjkNormalizeNesterov) != 0;
  // Recordings from before the option ran the paper's schedule.
  if (file.attrExists(attr::kGjkMomentumSchedule)) {
    const std::string name = stringAttribute(attr::kGjkMomentumSchedule);
    const auto schedule = momentumScheduleNamed(name);
    if (!schedule) {
      fail("attribute '" + std::string(attr::kGjkMomentumSchedule) + "' is '" + name +
           "', expected paper or late");
    }
    s.momentumSchedule = *schedule;
  }
  c.gjk.schedule = s.momentumSchedule;
  c.epa.tolerance = doubleAttribute(attr::kEpaTolerance);
  c.epa.maxIterations = static_cast<int>(intAttribute(attr::kEpaMaxIterations));
  c.computePenetration = intAttribute(attr::kComputePenetration) != 0;
}

void RecordingReader::Impl::checkInfo() const {
  const SolverDescription& s = info.solver;
  const CollisionOptions& c = info.collision;
  // What no world could have run with: the file is damaged, not merely unusual.
  const auto require = [&](bool ok, const char* what) {
    if (!ok) fail(std::string("attribute '") + what + "' is out of range");
  };
  require(info.dt >= kMinTimeStep && info.dt <= 0.1, attr::kDt);
  require(info.gravity.allFinite(), attr::kGravity);
  require(std::isfinite(s.gjkTolerance) && s.gjkTolerance > 0.0, attr::kGjkTolerance);
  require(s.gjkMaxIterations >= 1 && s.gjkMaxIterations <= kMaxIterationsSetting,
          attr::kGjkMaxIterations);
  require(s.velocityIterations >= 1, attr::kVelocityIterations);
  require(s.manifoldIterations >= 1, attr::kManifoldIterations);
  require(s.shockIterations >= 1, attr::kShockIterations);
  require(s.positionIterations >= 1, attr::kPositionIterations);
  require(s.maxSubsteps >= 1 && s.maxSubsteps <= kMaxSubsteps, attr::kMaxSubsteps);
  require(std::isfinite(s.maxContactTurn) && s.maxContactTurn > 0.0, attr::kMaxContactTurn);
  require(s.softSubsteps >= 0 && s.softSubsteps <= kMaxSubsteps, attr::kSoftSubsteps);
  require(std::isfinite(s.contactHertz) && s.contactHertz > 0.0, attr::kContactHertz);
  require(std::isfinite(s.contactDampingRatio) && s.contactDampingRatio >= 0.0,
          attr::kContactDampingRatio);
  require(std::isfinite(s.solverTolerance) && s.solverTolerance > 0.0, attr::kSolverTolerance);
  require(std::isfinite(s.speculativeMargin) && s.speculativeMargin >= 0.0,
          attr::kSpeculativeMargin);
  require(std::isfinite(s.convexRadius) && s.convexRadius >= 0.0, attr::kConvexRadius);
  require(c.gjk.momentumMaxIterations >= 0, attr::kGjkMomentumMaxIterations);
  require(std::isfinite(c.epa.tolerance) && c.epa.tolerance > 0.0, attr::kEpaTolerance);
  require(c.epa.maxIterations >= 1, attr::kEpaMaxIterations);
}

void RecordingReader::Impl::readBodies() {
  const auto rowsRead =
      readRows<BodyRow>(dataset::kBodies, bodyLayout(), 0, rows(dataset::kBodies, kScalar));
  for (const BodyRow& row : rowsRead) {
    bodies.push_back({text(row.name),
                      text(row.asset),
                      row.isStatic != 0,
                      row.mass,
                      {row.friction, row.restitution},
                      static_cast<long>(row.firstStep)});
  }
}

void RecordingReader::Impl::readSteps() {
  const auto stepRows = readRows<StepRow>(dataset::kSteps, stepLayout(info.formatVersion), 0,
                                          rows(dataset::kSteps, kScalar));
  // The tables are flushed together, but a run killed during a flush may leave a step row
  // whose states or problems did not reach the disk: the recording is the prefix before it.
  const hsize_t stateRows = rows(dataset::kStates, kScalar);
  const hsize_t problemRows = rows(dataset::kProblems, kScalar);
  std::int64_t nextState = 0, nextProblem = 0;
  int previousBodies = 0;
  for (std::size_t i = 0; i < stepRows.size(); ++i) {
    const StepRow& row = stepRows[i];
    const std::string which = "step row " + std::to_string(i);
    if (row.stateBegin != nextState || row.problemBegin != nextProblem) {
      fail(which + ": state or problem offsets are not contiguous with the previous row");
    }
    if (row.bodyCount < previousBodies || row.problemCount < 0) {
      fail(which + ": body or problem count is invalid");
    }
    if (static_cast<hsize_t>(row.stateBegin + row.bodyCount) > stateRows ||
        static_cast<hsize_t>(row.problemBegin + row.problemCount) > problemRows ||
        row.bodyCount > static_cast<std::int32_t>(bodies.size())) {
      spdlog::warn("recording {}: incomplete after step row {} (the run stopped early?)",
                   path.string(), i);
      break;
    }
    RecordedStep s;
    s.step = static_cast<long>(row.step);
    s.time = row.time;
    s.bodyCount = row.bodyCount;
    s.stateBegin = row.stateBegin;
    s.problemBegin = row.problemBegin;
    s.problemCount = row.problemCount;
    s.gjkVariant = enumValue<GjkVariant>(row.gjkVariant, kGjkVariantCount, "GJK variant");
    s.warmStart = enumValue<WarmStart>(row.warmStart, kWarmStartCount, "warm start");
    s.gjkTolerance = row.gjkTolerance;
    s.gjkMaxIterations = row.gjkMaxIterations;
    s.substeps = info.formatVersion >= 9 ? row.substeps : 0;
    if (s.substeps < 0 || s.substeps > kMaxSubsteps) {
      fail(which + ": substeps " + std::to_string(s.substeps) + " out of range");
    }
    // The ranges a scene (and so the writer) allows: a study would run every problem with them.
    if (!(std::isfinite(s.gjkTolerance) && s.gjkTolerance > 0.0) || s.gjkMaxIterations < 1 ||
        s.gjkMaxIterations > kMaxIterationsSetting || !std::isfinite(s.time)) {
      fail(which + ": GJK tolerance, iteration cap or time out of range");
    }
    steps.push_back(s);
    nextState = row.stateBegin + row.bodyCount;
    nextProblem = row.problemBegin + row.problemCount;
    previousBodies = row.bodyCount;
  }
  problemCount = static_cast<long>(nextProblem);
}

std::vector<RecordedProblem> RecordingReader::Impl::readProblems(long first, long count) const {
  if (first < 0 || count < 0 || first + count > problemCount) {
    throw std::out_of_range("RecordingReader: problems [" + std::to_string(first) + ", " +
                            std::to_string(first + count) + ") requested, the recording has " +
                            std::to_string(problemCount));
  }
  const bool hasSubstep = info.formatVersion >= 5;
  const bool hasBound = info.formatVersion >= 8;
  const bool hasWarmSimplex = info.formatVersion >= 10;
  const auto rowsRead =
      readRows<ProblemRow>(dataset::kProblems, problemLayout(info.formatVersion), first, count);
  const int proxyCount = static_cast<int>(proxies.size());
  const int bodyCount = static_cast<int>(bodies.size());
  std::vector<RecordedProblem> out(rowsRead.size());
  for (std::size_t k = 0; k < rowsRead.size(); ++k) {
    const ProblemRow& row = rowsRead[k];
    RecordedProblem& p = out[k];
    p.step = static_cast<long>(row.step);
    p.substep = hasSubstep ? row.substep : 0;
    if (p.substep < 0 || p.substep >= kMaxSubsteps) {
      fail("problem " + std::to_string(first + k) + " has substep " + std::to_string(p.substep));
    }
    p.proxyA = row.proxyA;
    p.proxyB = row.proxyB;
    p.bodyA = row.bodyA;
    p.bodyB = row.bodyB;
    if (p.proxyA < 0 || p.proxyA >= proxyCount || p.proxyB < 0 || p.proxyB >= proxyCount ||
        p.bodyA < 0 || p.bodyA >= bodyCount || p.bodyB < 0 || p.bodyB >= bodyCount) {
      fail("problem " + std::to_string(first + k) + " refers to a proxy or body not recorded");
    }
    p.exactInputs = row.exactInputs != 0;
    p.poseA = {quat(row.orientationA), vec3(row.positionA)};
    p.poseB = {quat(row.orientationB), vec3(row.positionB)};
    // Every vector a study computes with, in the range a world can produce (positions within
    // 1e6 m, as scenes and queries allow): a crafted file fails here rather than in the answers.
    const auto inRange = [](const Eigen::Vector3d& v) {
      return v.cwiseAbs().maxCoeff() <= 2.0 * defaults::kMaxLength;  // false for NaN
    };
    if (!p.poseA.isValid() || !p.poseB.isValid() || !inRange(p.poseA.p) || !inRange(p.poseB.p)) {
      fail("problem " + std::to_string(first + k) + " has a non-unit or out-of-range pose");
    }
    p.obbCenterA = vec3(row.obbCenterA);
    p.obbCenterB = vec3(row.obbCenterB);
    if (row.hasPrevious) {
      p.previous = PreviousSolution{vec3(row.previousSeparation), vec3(row.previousWitnessALocal),
                                    vec3(row.previousWitnessBLocal), row.previousOverlapping != 0};
    }
    p.initialGuess = vec3(row.initialGuess);
    const bool previousInRange =
        !p.previous || (inRange(p.previous->separation) && inRange(p.previous->witnessALocal) &&
                        inRange(p.previous->witnessBLocal));
    if (!inRange(p.obbCenterA) || !inRange(p.obbCenterB) || !inRange(p.initialGuess) ||
        !previousInRange || row.gjkIterations < 0 || row.epaIterations < 0) {
      fail("problem " + std::to_string(first + k) +
           ": a box centre, warm start or iteration count out of range");
    }
    p.hints = {row.supportHints[0], row.supportHints[1]};
    p.separationBound = hasBound ? row.separationBound : std::numeric_limits<double>::infinity();
    if (!(p.separationBound >= 0.0)) {  // NaN too; infinity is a query run to its tolerance
      fail("problem " + std::to_string(first + k) + " has a negative or NaN separation bound");
    }
    if (hasWarmSimplex) {
      WarmSimplex& warm = p.warmSimplex;
      warm.size = row.warmSimplexSize;
      if (warm.size < 0 || warm.size > 4) {
        fail("problem " + std::to_string(first + k) + " has a warm simplex size out of range");
      }
      for (int i = 0; i < warm.size; ++i) {
        warm.a[i] = vec3(row.warmSimplexA[i]);
        warm.b[i] = vec3(row.warmSimplexB[i]);
        if (!inRange(warm.a[i]) || !inRange(warm.b[i])) {
          fail("problem " + std::to_string(first + k) + " has a warm simplex out of range");
        }
      }
    }
    CollisionResult& r = p.result;
    r.collide = row.collide != 0;
    r.distance = row.distance;
    r.normal = vec3(row.normal);
    r.witnessA = vec3(row.witnessA);
    r.witnessB = vec3(row.witnessB);
    r.gjkIterations = row.gjkIterations;
    r.gjkStatus = enumValue<GjkStatus>(row.gjkStatus, kGjkStatusCount, "GJK status");
    r.epaIterations = row.epaIterations;
    if (row.epaStatus >= 0) {
      r.epaStatus = enumValue<EpaStatus>(row.epaStatus, kEpaStatusCount, "EPA status");
    } else if (row.epaStatus != -1) {
      fail("problem " + std::to_string(first + k) + ": EPA status out of range");
    }
  }
  return out;
}

RecordingReader::RecordingReader(const std::filesystem::path& file)
    : impl_(std::make_unique<Impl>()) {
  recording::silenceHdf5Errors();
  Impl& d = *impl_;
  d.path = file;
  std::error_code error;
  if (!std::filesystem::exists(file, error)) d.fail("no such file");
  if (!std::filesystem::is_regular_file(file, error)) d.fail("not a regular file");
  const auto size = std::filesystem::file_size(file, error);
  if (error) d.fail("cannot read its size: " + error.message());
  if (size == 0) d.fail("empty file (0 bytes), not a recording");
  d.fileBytes = size;
  try {
    if (!H5::H5File::isHdf5(file.string())) {
      d.fail("not an HDF5 file (no HDF5 signature in its " + std::to_string(size) + " bytes)");
    }
    try {
      d.file.openFile(file.string(), H5F_ACC_RDONLY);
    } catch (const H5::Exception& e) {
      d.fail("an HDF5 file that cannot be opened (truncated or corrupt?): " + describe(e));
    }
    d.readInfo();
    d.readBodies();
    d.readProxies();
    d.readSteps();
    d.joints = readJoints(d, d.info.formatVersion, d.bodies.size(), d.steps.size());
  } catch (const H5::Exception& e) {
    d.fail("unreadable (truncated or corrupt?): " + describe(e));
  }
}

RecordingReader::~RecordingReader() = default;
RecordingReader::RecordingReader(RecordingReader&&) noexcept = default;
RecordingReader& RecordingReader::operator=(RecordingReader&&) noexcept = default;

const std::filesystem::path& RecordingReader::path() const {
  return impl_->path;
}

std::uintmax_t RecordingReader::fileSize() const {
  std::error_code error;
  const auto size = std::filesystem::file_size(impl_->path, error);
  return error ? 0 : size;
}

const RecordingInfo& RecordingReader::info() const {
  return impl_->info;
}
const std::vector<RecordedBody>& RecordingReader::bodies() const {
  return impl_->bodies;
}
const std::vector<RecordedProxy>& RecordingReader::proxies() const {
  return impl_->proxies;
}
long RecordingReader::stepCount() const {
  return static_cast<long>(impl_->steps.size());
}
long RecordingReader::problemCount() const {
  return impl_->problemCount;
}

const RecordedStep& RecordingReader::step(long i) const {
  return impl_->steps.at(i);
}

std::vector<BodyState> RecordingReader::states(long i) const {
  const RecordedStep& s = step(i);
  recording::silenceHdf5Errors();
  const Impl& d = *impl_;
  try {
    const auto rowsRead =
        d.readRows<StateRow>(dataset::kStates, stateLayout(), s.stateBegin, s.bodyCount);
    std::vector<BodyState> out;
    out.reserve(rowsRead.size());
    for (const StateRow& row : rowsRead) {
      out.push_back({{quat(row.orientation), vec3(row.position)},
                     vec3(row.linearVelocity),
                     vec3(row.angularVelocity),
                     row.sleeping != 0});
      if (!out.back().pose.isValid()) {
        d.fail("step row " + std::to_string(i) + " has a body with a non-finite or non-unit pose");
      }
    }
    return out;
  } catch (const H5::Exception& e) {
    d.fail("cannot read the states of step row " + std::to_string(i) + ": " + describe(e));
  }
}

const std::vector<RecordedJoint>& RecordingReader::joints() const {
  return impl_->joints;
}

std::vector<RecordedJointState> RecordingReader::jointStates(long i) const {
  step(i);  // std::out_of_range for a row the recording does not have
  recording::silenceHdf5Errors();
  try {
    return readJointStates(*impl_, impl_->info.formatVersion, impl_->joints.size(), i);
  } catch (const H5::Exception& e) {
    impl_->fail("cannot read the joints of step row " + std::to_string(i) + ": " + describe(e));
  }
}

std::vector<RecordedProblem> RecordingReader::problems(long first, long count) const {
  recording::silenceHdf5Errors();
  try {
    return impl_->readProblems(first, count);
  } catch (const H5::Exception& e) {
    impl_->fail("cannot read problems: " + describe(e));
  }
}

std::vector<RecordedProblem> RecordingReader::problemsOfStep(long i) const {
  const RecordedStep& s = step(i);
  return problems(static_cast<long>(s.problemBegin), s.problemCount);
}

void RecordingReader::forEachProblem(
    const std::function<void(const RecordedProblem&)>& visit) const {
  const long block = 16 * static_cast<long>(kProblemChunkRows);
  for (long first = 0; first < problemCount(); first += block) {
    for (const RecordedProblem& p : problems(first, std::min(block, problemCount() - first))) {
      visit(p);
    }
  }
}

CollisionOptions RecordingReader::collisionOptions(long i) const {
  const RecordedStep& s = step(i);
  CollisionOptions options = impl_->info.collision;
  options.gjk.variant = s.gjkVariant;
  options.gjk.tolerance = s.gjkTolerance;
  options.gjk.maxIterations = s.gjkMaxIterations;
  return options;
}

CollisionOptions RecordingReader::collisionOptions(long i, const RecordedProblem& p) const {
  CollisionOptions options = collisionOptions(i);
  options.gjk.separationBound = p.separationBound;
  return options;
}

}  // namespace hb
