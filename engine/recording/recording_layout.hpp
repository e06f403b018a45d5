#pragma once
// Names and constants of the recording file layout (docs/recording-format.md), shared by the
// writer (engine/recording/recorder.cpp) and the reader (engine/recording/recording_reader.cpp) so
// the two cannot drift apart. Every table is an extendible dataset of compound rows
// (engine/recording/recording_rows.hpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "collision/epa.hpp"
#include "collision/gjk.hpp"
#include "collision/shape.hpp"
#include "collision/warm_start.hpp"

namespace hb::recording {

inline constexpr const char* kFormatName = "heavyball-recording";
/// Bumped on any change a reader of the previous version would misread.
/// Version 2: proxies carry the convex radius of boxes and hulls and the rounded hulls' cores.
/// Version 4: smooth shapes (superquadrics, prescribed support functions; a point set is stored
/// as a hull row without faces).
/// Version 5: problems carry the substep of the step that solved them.
/// Version 6: the joints (table "joints") and their per-step values ("joint_*" datasets), written
/// when the world has joints.
/// Version 7: every joint's turn and spin and a spherical joint's three-valued motor targets
/// ("joint_turn", "joint_spin", "joint_target_turn", "joint_target_spin").
/// Version 8: problems carry their separation bound (the pair's margin: GJK stops once a plane
/// separates the shapes by more than it).
/// Version 9: each step row states the step's substeps ("steps.substeps"), the narrow-phase
/// rounds its problems' substep numbers count.
/// Version 10: problems carry the simplex GJK started from (the pair's kept simplex).
inline constexpr int kFormatVersion = 10;

/// Rows per chunk of the tables that grow with the run, which the recorder writes a whole chunk
/// at a time: chunks of 3 to 52 KiB. Larger ones compress a little better; smaller ones let the
/// file on disk trail the run by less and waste less on the zero padding of a partly filled last
/// chunk, which is compressed and stored like the rest.
inline constexpr std::uint64_t kStepChunkRows = 64;
inline constexpr std::uint64_t kStateChunkRows = 256;
inline constexpr std::uint64_t kProblemChunkRows = 128;
/// The step index and the shapes are stored (the step index partly filled) and the file flushed
/// whenever the growing tables have filled this many more chunks, and at the end.
inline constexpr std::uint64_t kChunksPerFlush = 16;
/// The shape tables' chunks hold the rows known when the recording starts (the world's bodies,
/// proxies and hulls then: one chunk each, no padding), bounded: the hull arrays between
/// kSmallChunkRows and these many rows (48, 64 and 32 KiB), the per-body, per-proxy and per-hull
/// tables between kLeastChunkRows and kSmallChunkRows; the largest when a table starts empty.
inline constexpr std::uint64_t kHullVertexChunkRows = 2048;
inline constexpr std::uint64_t kHullFaceChunkRows = 8192;
inline constexpr std::uint64_t kSmallChunkRows = 64;
inline constexpr std::uint64_t kLeastChunkRows = 8;
/// libdeflate's level (0 to 12; 1 to 9 as in zlib) for every chunk. The datasets' deflate filter
/// records the same number, which HDF5 would use only if it compressed chunks itself: the recorder
/// never lets it.
inline constexpr int kDeflateLevel = 1;
/// Half the fan-out of the chunk-index B-trees (HDF5's istore_k).
inline constexpr unsigned kChunkIndexK = 4;
/// Bytes of the fixed-length body and asset names.
inline constexpr std::size_t kNameBytes = 64;
/// Bytes of a joint's type name ("revolute", ...).
inline constexpr std::size_t kJointTypeBytes = 16;

/// Root attributes.
namespace attr {
inline constexpr const char* kFormat = "format";
inline constexpr const char* kFormatVersion = "format_version";
inline constexpr const char* kHeavyballVersion = "heavyball_version";
inline constexpr const char* kSceneName = "scene_name";
inline constexpr const char* kAssetDir = "asset_dir";
inline constexpr const char* kDt = "dt";
inline constexpr const char* kGravity = "gravity";
inline constexpr const char* kSeed = "seed";
inline constexpr const char* kGjkVariant = "gjk_variant";
inline constexpr const char* kWarmStart = "warm_start";
inline constexpr const char* kGjkTolerance = "gjk_tolerance";
inline constexpr const char* kGjkMaxIterations = "gjk_max_iterations";
inline constexpr const char* kGjkMomentumMaxIterations = "gjk_momentum_max_iterations";
inline constexpr const char* kGjkNormalizeNesterov = "gjk_normalize_nesterov";
inline constexpr const char* kGjkMomentumSchedule = "gjk_momentum_schedule";
inline constexpr const char* kEpaTolerance = "epa_tolerance";
inline constexpr const char* kEpaMaxIterations = "epa_max_iterations";
inline constexpr const char* kComputePenetration = "compute_penetration";
inline constexpr const char* kVelocityIterations = "velocity_iterations";
/// Absent from files written before the key existed; read as 1 (point-by-point sweeps).
inline constexpr const char* kManifoldIterations = "manifold_iterations";
/// Absent from files written before the key existed, whose shock pass made as many passes as
/// their sweeps: read as manifold_iterations.
inline constexpr const char* kShockIterations = "shock_iterations";
inline constexpr const char* kPositionIterations = "position_iterations";
inline constexpr const char* kSolverTolerance = "solver_tolerance";
inline constexpr const char* kSpeculativeMargin = "speculative_margin";
inline constexpr const char* kConvexRadius = "convex_radius";  // format version 2
inline constexpr const char* kMaxSubsteps = "max_substeps";    // format version 5
/// Absent from files written before the key existed, whose bodies turned at most a quarter turn
/// per step whether or not they touched anything: read as the default.
inline constexpr const char* kMaxContactTurn = "max_contact_turn";
/// The soft step's settings; absent from files written before it existed (read as off, and
/// the defaults).
inline constexpr const char* kSoftSubsteps = "soft_substeps";
inline constexpr const char* kContactHertz = "contact_hertz";
inline constexpr const char* kContactDampingRatio = "contact_damping_ratio";
inline constexpr const char* kRestitutionThreshold = "restitution_threshold";
inline constexpr const char* kSleeping = "sleeping";
/// Per-dataset attributes: the units of the fields ("field: unit, ..."), and for an enum field
/// f the names of its values as "labels_f" (labels_f[value]).
inline constexpr const char* kUnits = "units";
inline constexpr const char* kLabelsPrefix = "labels_";
}  // namespace attr

/// Datasets at the root: the tables (one compound row per item) and the hull arrays.
namespace dataset {
inline constexpr const char* kSceneJson = "scene_json";
inline constexpr const char* kBodies = "bodies";
inline constexpr const char* kProxies = "proxies";
inline constexpr const char* kHulls = "hulls";
inline constexpr const char* kHullVertices = "hull_vertices";
inline constexpr const char* kHullFaceOffsets = "hull_face_offsets";
inline constexpr const char* kHullFaceIndices = "hull_face_indices";
inline constexpr const char* kSteps = "steps";
inline constexpr const char* kStates = "states";
inline constexpr const char* kProblems = "problems";
/// Format version 6, only when the world has joints: the joints when the recording started
/// (one row each), and per steps row one row of one value per joint.
inline constexpr const char* kJoints = "joints";
inline constexpr const char* kJointPosition = "joint_position";
inline constexpr const char* kJointVelocity = "joint_velocity";
inline constexpr const char* kJointError = "joint_error";
inline constexpr const char* kJointTargetPosition = "joint_target_position";
inline constexpr const char* kJointTargetVelocity = "joint_target_velocity";
inline constexpr const char* kJointMotorForce = "joint_motor_force";
inline constexpr const char* kJointSpringForce = "joint_spring_force";
inline constexpr const char* kJointFrictionForce = "joint_friction_force";
inline constexpr const char* kJointTurn = "joint_turn";
inline constexpr const char* kJointSpin = "joint_spin";
inline constexpr const char* kJointTargetTurn = "joint_target_turn";
inline constexpr const char* kJointTargetSpin = "joint_target_spin";
}  // namespace dataset

/// Enum fields store the enumerator's value; these give their names.
inline constexpr int kShapeTypeCount = 9;
inline constexpr int kGjkVariantCount = 4;
inline constexpr int kWarmStartCount = 4;
inline constexpr int kGjkStatusCount = 5;
inline constexpr int kEpaStatusCount = 4;

template <class Enum>
std::vector<std::string> labels(int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.emplace_back(toString(static_cast<Enum>(i)));
  return names;
}

}  // namespace hb::recording
