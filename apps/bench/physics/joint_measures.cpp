#include "apps/bench/physics/joint_measures.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace hb::physics {

JointAnchors::JointAnchors(const sim::SimScene& scene, int count, std::string_view scenario) {
  if (static_cast<int>(scene.joints.size()) != count) {
    throw std::runtime_error("physics scenario " + std::string(scenario) + " expects " +
                             std::to_string(count) + " joints in its scene, found " +
                             std::to_string(scene.joints.size()));
  }
  const auto inBody = [&](int body, const Eigen::Vector3d& point) -> Eigen::Vector3d {
    return body == 0 ? point : scene.bodies.at(body - 1).pose.applyInverse(point);
  };
  for (const JointDescription& j : scene.joints) {
    anchors_.push_back({j.bodyA, j.bodyB, inBody(j.bodyA, j.anchor), inBody(j.bodyB, j.anchor)});
  }
}

double JointAnchors::largestSeparation(const sim::SimPeer& engine) const {
  const auto world = [&](int body, const Eigen::Vector3d& local) -> Eigen::Vector3d {
    return body == 0 ? local : engine.pose(body - 1).apply(local);
  };
  double largest = 0.0;
  for (const Anchor& a : anchors_) {
    const double apart = (world(a.bodyA, a.inA) - world(a.bodyB, a.inB)).norm();
    largest = std::isfinite(apart) ? std::max(largest, apart) : apart;
    if (!std::isfinite(largest)) break;
  }
  return largest;
}

double turnAbout(const Eigen::Vector3d& axis, const Eigen::Vector3d& start,
                 const Eigen::Vector3d& now) {
  return std::atan2(axis.dot(start.cross(now)), start.dot(now));
}

double ellipticK(double k) {
  double a = 1.0, g = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 30; ++i) {
    const double next = 0.5 * (a + g);
    g = std::sqrt(a * g);
    a = next;
  }
  return std::numbers::pi / (2.0 * a);
}

double pendulumPeriod(double mass, double length, double inertia, double gravity,
                      double amplitude) {
  return 4.0 * std::sqrt(inertia / (mass * gravity * length)) *
         ellipticK(std::sin(0.5 * amplitude));
}

double meanPeriod(const std::vector<double>& x, double centre, double dt) {
  std::vector<double> crossings;
  for (std::size_t i = 1; i < x.size(); ++i) {
    const double before = x[i - 1] - centre, after = x[i] - centre;
    if (before < 0.0 && after >= 0.0) {
      crossings.push_back(dt * (static_cast<double>(i - 1) + before / (before - after)));
    }
  }
  if (crossings.size() < 2) return 0.0;
  return (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

}  // namespace hb::physics
