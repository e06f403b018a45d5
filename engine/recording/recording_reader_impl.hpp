#pragma once
// What a RecordingReader holds and the steps that read it (engine/recording/recording_reader.cpp:
// settings, bodies, steps and problems; engine/recording/recorded_shapes.cpp: the hulls and the
// proxies' shapes). Internal to hb_recording (includes the HDF5 headers).

#include <Eigen/Core>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collision/convex_hull.hpp"
#include "collision/shape.hpp"
#include "engine/recording/recording_file.hpp"
#include "engine/recording/recording_reader.hpp"
#include "engine/recording/recording_rows.hpp"

namespace hb {

struct RecordingReader::Impl : recording::RecordingFile {
  static inline const Row kVector{3};

  RecordingInfo info;
  std::vector<RecordedBody> bodies;
  std::vector<RecordedProxy> proxies;
  std::vector<RecordedStep> steps;
  std::vector<RecordedJoint> joints;
  long problemCount = 0;

  void readInfo();
  /// The settings of the solver and of the narrow phase, from the root attributes.
  void readSolver();
  void readCollisionOptions();
  /// Fails on settings no world could have run with: the file is damaged, not merely unusual.
  void checkInfo() const;
  /// The stored hulls; those listed in `cores` (rounded hulls' cores) from their stored faces.
  /// Rows without faces are point sets (prescribed support functions): their points go to
  /// `pointSets` and their hull entry stays empty.
  std::vector<std::shared_ptr<const ConvexHull>> readHulls(
      const std::vector<char>& cores,
      std::map<std::size_t, std::vector<Eigen::Vector3d>>& pointSets) const;
  void readProxies();
  /// The shape a proxy row describes (`which` names the proxy in errors).
  Shape proxyShape(const recording::ProxyRow& row, const std::string& which,
                   const std::vector<std::shared_ptr<const ConvexHull>>& hulls,
                   const std::map<std::size_t, std::vector<Eigen::Vector3d>>& pointSets) const;
  void readBodies();
  void readSteps();
  std::vector<RecordedProblem> readProblems(long first, long count) const;
};

}  // namespace hb
