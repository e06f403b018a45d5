#include "engine/recording/run_attributes.hpp"

#include <algorithm>

#include "collision/collide.hpp"
#include "engine/recording/recording_column.hpp"
#include "engine/recording/recording_layout.hpp"
#include "engine/world.hpp"

namespace hb::recording {
namespace {

using Eigen::Vector3d;

void writeAttribute(const H5::H5Object& object, const char* name, const std::string& value) {
  writeTextAttribute(object, name, value);
}

void writeAttribute(const H5::H5Object& object, const char* name, double value) {
  object.createAttribute(name, H5::PredType::IEEE_F64LE, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_DOUBLE, &value);
}

void writeAttribute(const H5::H5Object& object, const char* name, long long value) {
  object.createAttribute(name, H5::PredType::STD_I64LE, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_LLONG, &value);
}

void writeAttribute(const H5::H5Object& object, const char* name, const Vector3d& value) {
  const hsize_t three = 3;
  object.createAttribute(name, H5::PredType::IEEE_F64LE, H5::DataSpace(1, &three))
      .write(H5::PredType::NATIVE_DOUBLE, value.data());
}

// The scene text may exceed the 64 KiB an attribute can hold in this file format: a dataset.
void writeTextDataset(const H5::H5File& file, const char* name, const std::string& text) {
  // Built once, never destroyed (see chunkedDeflate()); no modification time (see fileCreation()).
  static const H5::DSetCreatPropList* const untimed = [] {
    auto* created = new H5::DSetCreatPropList;
    H5Pset_obj_track_times(created->getId(), false);
    return created;
  }();
  const H5::StrType type = fixedStringType(text.size());
  std::string padded = text;
  padded.resize(std::max<std::size_t>(text.size(), 1), '\0');
  file.createDataSet(name, type, H5::DataSpace(H5S_SCALAR), *untimed).write(padded.data(), type);
}

}  // namespace

RunDescription describeRun(const World& world, const RecordingMetadata& meta) {
  const SceneDescription& scene = world.scene();
  return {scene.name, scene.assetDir.string(), scene.dt, scene.gravity, scene.solver, meta};
}

void writeRunAttributes(const H5::H5File& file, const RunDescription& run) {
  const SolverDescription& solver = run.solver;
  const CollisionOptions collision;  // the narrow phase leaves everything else at its defaults
  writeAttribute(file, attr::kFormat, std::string(kFormatName));
  writeAttribute(file, attr::kFormatVersion, static_cast<long long>(kFormatVersion));
  writeAttribute(file, attr::kHeavyballVersion, std::string(HB_VERSION));
  writeAttribute(file, attr::kSceneName, run.sceneName);
  writeAttribute(file, attr::kAssetDir, run.assetDir);
  writeAttribute(file, attr::kDt, run.dt);
  writeAttribute(file, attr::kGravity, run.gravity);
  writeAttribute(file, attr::kSeed, static_cast<long long>(run.meta.seed));
  writeAttribute(file, attr::kGjkVariant, std::string(toString(solver.gjkVariant)));
  writeAttribute(file, attr::kWarmStart, std::string(toString(solver.warmStart)));
  writeAttribute(file, attr::kGjkTolerance, solver.gjkTolerance);
  writeAttribute(file, attr::kGjkMaxIterations, static_cast<long long>(solver.gjkMaxIterations));
  writeAttribute(file, attr::kGjkMomentumMaxIterations,
                 static_cast<long long>(collision.gjk.momentumMaxIterations));
  writeAttribute(file, attr::kGjkNormalizeNesterov,
                 static_cast<long long>(collision.gjk.normalizeNesterov));
  writeAttribute(file, attr::kGjkMomentumSchedule, std::string(toString(solver.momentumSchedule)));
  writeAttribute(file, attr::kEpaTolerance, collision.epa.tolerance);
  writeAttribute(file, attr::kEpaMaxIterations,
                 static_cast<long long>(collision.epa.maxIterations));
  writeAttribute(file, attr::kComputePenetration,
                 static_cast<long long>(collision.computePenetration));
  writeAttribute(file, attr::kVelocityIterations,
                 static_cast<long long>(solver.velocityIterations));
  writeAttribute(file, attr::kManifoldIterations,
                 static_cast<long long>(solver.manifoldIterations));
  writeAttribute(file, attr::kShockIterations, static_cast<long long>(solver.shockIterations));
  writeAttribute(file, attr::kPositionIterations,
                 static_cast<long long>(solver.positionIterations));
  writeAttribute(file, attr::kSolverTolerance, solver.solverTolerance);
  writeAttribute(file, attr::kSpeculativeMargin, solver.speculativeMargin);
  writeAttribute(file, attr::kConvexRadius, solver.convexRadius);
  writeAttribute(file, attr::kRestitutionThreshold, solver.restitutionThreshold);
  writeAttribute(file, attr::kSleeping, static_cast<long long>(solver.sleeping));
  writeAttribute(file, attr::kMaxSubsteps, static_cast<long long>(solver.maxSubsteps));
  writeAttribute(file, attr::kMaxContactTurn, solver.maxContactTurn);
  writeAttribute(file, attr::kSoftSubsteps, static_cast<long long>(solver.softSubsteps));
  writeAttribute(file, attr::kContactHertz, solver.contactHertz);
  writeAttribute(file, attr::kContactDampingRatio, solver.contactDampingRatio);
  writeTextDataset(file, dataset::kSceneJson, run.meta.sceneJson);
}

}  // namespace hb::recording
