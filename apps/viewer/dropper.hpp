#pragma once
// Dropping objects into the scene: where (above the funnel mouth, or above the scene when it
// has no funnel), with what pose and velocity, lifted clear of what is already there; and rain,
// a steady number of drops per simulated second.

#include <Eigen/Core>
#include <random>

#include "engine/world.hpp"
#include "render/viewer_ui.hpp"

namespace hb::viewer {

class Dropper {
 public:
  explicit Dropper(unsigned seed) : rng_(seed) {}

  /// Finds the drop region of a newly built world. `sceneCenter`/`sceneRadius` locate the
  /// statics when there is no funnel.
  void setWorld(const World& world, const Eigen::Vector3d& sceneCenter, double sceneRadius);
  /// Drops one object as `controls` say; returns its body index. Throws on unloadable assets.
  int drop(World& world, const DropControls& controls);
  /// Drops what rain has made due over `seconds` of simulated time; returns how many.
  int rain(World& world, const DropControls& controls, double seconds);

  const Eigen::Vector3d& mouth() const { return mouth_; }
  double mouthRadius() const { return mouthRadius_; }

 private:
  BodyDescription describe(World& world, const DropControls& controls);

  std::mt19937 rng_;
  Eigen::Vector3d mouth_ = Eigen::Vector3d(0.0, 0.0, 1.0);  // centre of the drop disk
  double mouthRadius_ = 0.2;
  double rainDue_ = 0.0;
};

}  // namespace hb::viewer
