#pragma once
// The joints in a recording (format version 6, docs/recording-format.md): the table of the joints
// the world had when the recording started and, per steps row, their positions, velocities,
// errors, motor targets and forces, and (version 7) their turns, spins and three-valued targets.
// The recorder writes them (JointColumns) and RecordingReader reads them (readJoints,
// readJointStates). Internal to hb_recording (includes the HDF5 headers).

#include <H5Cpp.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "dynamics/joint.hpp"
#include "engine/recording/recording_column.hpp"
#include "engine/recording/recording_file.hpp"
#include "engine/recording/recording_layout.hpp"
#include "engine/recording/recording_reader.hpp"

namespace hb {
class World;
}

namespace hb::recording {

/// One joint (table "joints").
struct JointRow {
  char name[kNameBytes];
  char type[kJointTypeBytes];
  std::int32_t bodyA;
  std::int32_t bodyB;
};
const RowLayout& jointLayout();

/// The per-step joint datasets, in the order of RecordedJointState's fields, with their units.
struct JointValueDataset {
  const char* name;
  const char* units;
};
inline constexpr std::array<JointValueDataset, 8> kJointValueDatasets{{
    {dataset::kJointPosition, "rad (revolute) or m (prismatic); 0 for fixed and spherical"},
    {dataset::kJointVelocity, "rad/s (revolute) or m/s (prismatic); 0 for fixed and spherical"},
    {dataset::kJointError, "m (origins) or rad (orientations), the larger"},
    {dataset::kJointTargetPosition, "rad (revolute) or m (prismatic)"},
    {dataset::kJointTargetVelocity, "rad/s (revolute) or m/s (prismatic)"},
    {dataset::kJointMotorForce, "N m (revolute) or N (prismatic)"},
    {dataset::kJointSpringForce, "N m (revolute) or N (prismatic)"},
    {dataset::kJointFrictionForce, "N m (revolute) or N (prismatic)"},
}};

/// The per-step datasets of three values per joint (version 7), in the order of
/// RecordedJointState's vector fields.
inline constexpr std::array<JointValueDataset, 4> kJointTurnDatasets{{
    {dataset::kJointTurn, "rad: a rotation vector along the joint frame A's axes"},
    {dataset::kJointSpin, "rad/s along the joint frame A's axes"},
    {dataset::kJointTargetTurn, "rad: a spherical joint's motor's; 0 for the others"},
    {dataset::kJointTargetSpin, "rad/s: a spherical joint's motor's; 0 for the others"},
}};

/// The recorder's joint datasets: none when the world has no joints when the recording starts.
/// The columns are those joints; a step after the world's joints changed (one added or removed)
/// is a row of NaN, with a warning.
class JointColumns {
 public:
  JointColumns(const World& world, ChunkEncoder& encoder);
  bool empty() const { return joints_.empty(); }
  /// The joints' values now: one row of each per-step dataset.
  void addStep(const World& world);
  /// Creates the datasets with their units (none when empty()).
  void create(const H5::H5File& file);
  /// The description table first, then the per-step datasets (none when empty()).
  std::vector<AppendableColumn*> columns();

 private:
  std::vector<JointRow> joints_;  // as the world had them when the recording started
  std::vector<JointType> types_;
  std::unique_ptr<Column<JointRow>> table_;
  std::vector<std::unique_ptr<Column<double>>> values_;
  std::vector<std::unique_ptr<Column<double>>> turns_;  // kJointTurnDatasets
  bool warned_ = false;
};

/// The joints table of a file of format version 6 or later (empty when absent), checked against
/// the `bodyCount` bodies and the `stepRows` step rows the per-step datasets must cover.
std::vector<RecordedJoint> readJoints(const RecordingFile& file, int formatVersion,
                                      std::size_t bodyCount, std::size_t stepRows);
/// The joints' values at step row `row`; the turns and spins NaN before format version 7.
std::vector<RecordedJointState> readJointStates(const RecordingFile& file, int formatVersion,
                                                std::size_t joints, long row);

}  // namespace hb::recording
