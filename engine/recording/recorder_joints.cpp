#include "engine/recording/recorder_joints.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>

#include "engine/world.hpp"

namespace hb::recording {
namespace {

using Kind = RowLayout::Kind;

void putText(char* out, std::size_t bytes, const std::string& text) {
  std::memset(out, 0, bytes);
  std::memcpy(out, text.data(), std::min(bytes, text.size()));
}

std::string fromPadded(const char* text, std::size_t bytes) {
  return std::string(text, strnlen(text, bytes));
}

/// The joint's values in the order of kJointValueDatasets.
std::array<double, kJointValueDatasets.size()> valuesOf(const Joint& j, const RigidBody& a,
                                                        const RigidBody& b) {
  return {jointPosition(j, a, b), jointVelocity(j, a, b), jointError(j, a, b),
          j.motor.targetPosition, j.motor.targetVelocity, j.motorForce,
          j.springForce,          j.frictionForce};
}

/// The joint's three-valued values in the order of kJointTurnDatasets.
std::array<Eigen::Vector3d, kJointTurnDatasets.size()> turnsOf(const Joint& j, const RigidBody& a,
                                                               const RigidBody& b) {
  return {jointTurn(j, a, b), jointSpin(j, a, b), Eigen::Vector3d(j.motor.targetTurn),
          Eigen::Vector3d(j.motor.targetSpin)};
}

/// The vector fields of RecordedJointState, in the order of kJointTurnDatasets.
constexpr Eigen::Vector3d RecordedJointState::*kTurnFields[] = {
    &RecordedJointState::turn, &RecordedJointState::spin, &RecordedJointState::targetTurn,
    &RecordedJointState::targetSpin};
static_assert(std::size(kTurnFields) == kJointTurnDatasets.size());

}  // namespace

const RowLayout& jointLayout() {
  static const RowLayout layout =
      RowLayout(sizeof(JointRow))
          .field("name", offsetof(JointRow, name), Kind::Text, {kNameBytes})
          .field("type", offsetof(JointRow, type), Kind::Text, {kJointTypeBytes})
          .field("body_a", offsetof(JointRow, bodyA), Kind::I32)
          .field("body_b", offsetof(JointRow, bodyB), Kind::I32);
  return layout;
}

JointColumns::JointColumns(const World& world, ChunkEncoder& encoder) {
  for (const Joint& j : world.joints()) {
    JointRow row{};
    putName(row.name, j.name);
    putText(row.type, kJointTypeBytes, toString(j.type));
    row.bodyA = j.bodyA;
    row.bodyB = j.bodyB;
    joints_.push_back(row);
    types_.push_back(j.type);
  }
  if (joints_.empty()) return;
  const hsize_t count = joints_.size();
  table_ = std::make_unique<Column<JointRow>>(
      dataset::kJoints, jointLayout(), std::clamp<hsize_t>(count, kLeastChunkRows, kSmallChunkRows),
      encoder);
  for (const JointRow& row : joints_) table_->add(row);
  for (const JointValueDataset& d : kJointValueDatasets) {
    values_.push_back(std::make_unique<Column<double>>(d.name, std::vector<hsize_t>{count},
                                                       kStepChunkRows, encoder));
  }
  for (const JointValueDataset& d : kJointTurnDatasets) {
    turns_.push_back(std::make_unique<Column<double>>(d.name, std::vector<hsize_t>{count, 3},
                                                      kStepChunkRows, encoder));
  }
}

void JointColumns::addStep(const World& world) {
  if (empty()) return;
  const auto joints = world.joints();
  bool same = joints.size() == joints_.size();
  for (std::size_t k = 0; same && k < joints.size(); ++k) {
    same = joints[k].type == types_[k] && joints[k].bodyA == joints_[k].bodyA &&
           joints[k].bodyB == joints_[k].bodyB;
  }
  if (!same && !warned_) {
    spdlog::warn(
        "recording: the world's joints changed since the recording started; their "
        "values are recorded as NaN from step {} on",
        world.stepCount());
    warned_ = true;
  }
  const std::vector<RigidBody>& bodies = world.rigidBodies();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::array<double, kJointValueDatasets.size()>> rows(joints_.size());
  std::vector<std::array<Eigen::Vector3d, kJointTurnDatasets.size()>> turnRows(joints_.size());
  for (std::size_t k = 0; k < joints_.size(); ++k) {
    if (same) {
      const Joint& j = joints[k];
      rows[k] = valuesOf(j, bodies[j.bodyA], bodies[j.bodyB]);
      turnRows[k] = turnsOf(j, bodies[j.bodyA], bodies[j.bodyB]);
    } else {
      rows[k].fill(kNaN);
      turnRows[k].fill(Eigen::Vector3d::Constant(kNaN));
    }
  }
  for (std::size_t v = 0; v < values_.size(); ++v) {
    for (std::size_t k = 0; k < joints_.size(); ++k) values_[v]->add(rows[k][v]);
  }
  for (std::size_t v = 0; v < turns_.size(); ++v) {
    for (std::size_t k = 0; k < joints_.size(); ++k) {
      for (int c = 0; c < 3; ++c) turns_[v]->add(turnRows[k][v][c]);
    }
  }
}

void JointColumns::create(const H5::H5File& file) {
  if (empty()) return;
  table_->create(file);
  for (std::size_t v = 0; v < values_.size(); ++v) {
    values_[v]->create(file);
    writeTextAttribute(values_[v]->dataset(), attr::kUnits, kJointValueDatasets[v].units);
  }
  for (std::size_t v = 0; v < turns_.size(); ++v) {
    turns_[v]->create(file);
    writeTextAttribute(turns_[v]->dataset(), attr::kUnits, kJointTurnDatasets[v].units);
  }
}

std::vector<AppendableColumn*> JointColumns::columns() {
  std::vector<AppendableColumn*> out;
  if (empty()) return out;
  out.push_back(table_.get());
  for (const auto& v : values_) out.push_back(v.get());
  for (const auto& v : turns_) out.push_back(v.get());
  return out;
}

std::vector<RecordedJoint> readJoints(const RecordingFile& file, int formatVersion,
                                      std::size_t bodyCount, std::size_t stepRows) {
  std::vector<RecordedJoint> joints;
  // Before version 6 no joints were recorded; from it, a run without joints has no table.
  if (formatVersion < 6 || !file.exists(dataset::kJoints)) return joints;
  const hsize_t count = file.rows(dataset::kJoints, RecordingFile::kScalar);
  const auto rows = file.readRows<JointRow>(dataset::kJoints, jointLayout(), 0, count);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const JointRow& row = rows[k];
    RecordedJoint j;
    j.name = text(row.name);
    j.typeName = fromPadded(row.type, kJointTypeBytes);
    bool known = false;
    for (const JointType t :
         {JointType::Fixed, JointType::Revolute, JointType::Prismatic, JointType::Spherical}) {
      if (j.typeName == toString(t)) {
        j.type = t;
        known = true;
      }
    }
    j.bodyA = row.bodyA;
    j.bodyB = row.bodyB;
    const auto isBody = [&](int b) { return b >= 0 && static_cast<std::size_t>(b) < bodyCount; };
    if (!known || !isBody(j.bodyA) || !isBody(j.bodyB)) {
      file.fail("joint " + std::to_string(k) + " has an unknown type '" + j.typeName +
                "' or a body not recorded");
    }
    joints.push_back(std::move(j));
  }
  if (joints.empty()) return joints;
  // Every per-step dataset: one value per joint in each of the step rows (a shorter one was cut
  // or damaged).
  const auto requireRows = [&](const JointValueDataset& d, const RecordingFile::Row& shape) {
    const hsize_t rowsThere = file.rows(d.name, shape);
    if (rowsThere < stepRows) {
      file.fail("dataset /" + std::string(d.name) + " has " + std::to_string(rowsThere) +
                " rows, fewer than the " + std::to_string(stepRows) +
                " step rows (truncated or damaged)");
    }
  };
  for (const JointValueDataset& d : kJointValueDatasets) requireRows(d, {joints.size()});
  if (formatVersion >= 7) {
    for (const JointValueDataset& d : kJointTurnDatasets) requireRows(d, {joints.size(), 3});
  }
  return joints;
}

std::vector<RecordedJointState> readJointStates(const RecordingFile& file, int formatVersion,
                                                std::size_t joints, long row) {
  std::vector<RecordedJointState> out(joints);
  if (joints == 0) return out;
  double RecordedJointState::*const fields[] = {
      &RecordedJointState::position,       &RecordedJointState::velocity,
      &RecordedJointState::error,          &RecordedJointState::targetPosition,
      &RecordedJointState::targetVelocity, &RecordedJointState::motorForce,
      &RecordedJointState::springForce,    &RecordedJointState::frictionForce};
  static_assert(std::size(fields) == kJointValueDatasets.size());
  for (std::size_t v = 0; v < kJointValueDatasets.size(); ++v) {
    const auto values =
        file.read<double>(kJointValueDatasets[v].name, {joints}, static_cast<hsize_t>(row), 1);
    for (std::size_t k = 0; k < joints; ++k) out[k].*fields[v] = values[k];
  }
  for (std::size_t v = 0; v < kJointTurnDatasets.size(); ++v) {
    if (formatVersion < 7) {
      for (RecordedJointState& s : out) {
        s.*kTurnFields[v] = Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());
      }
      continue;
    }
    const auto values =
        file.read<double>(kJointTurnDatasets[v].name, {joints, 3}, static_cast<hsize_t>(row), 1);
    for (std::size_t k = 0; k < joints; ++k) {
      out[k].*kTurnFields[v] = Eigen::Vector3d(values.data() + 3 * k);
    }
  }
  return out;
}

}  // namespace hb::recording
