#pragma once
// An Eigen-free peer interface, for peers whose library exposes Eigen types in its ABI (FCL):
// such a peer is compiled with the library's own instruction set, hence Eigen alignment, instead
// of heavyball's -march=native, so no struct holding Eigen members may cross into it.
// plain_peer_adapter.cpp wraps a PlainPeer into a benchmark Method.

#include <array>
#include <memory>
#include <vector>

namespace hb::bench::peers {

struct PlainShape {
  bool isEllipsoid = false;
  std::array<double, 3> radii{};                ///< ellipsoid semi-axes
  std::vector<std::array<double, 3>> vertices;  ///< hull vertices
  /// Hull faces, each as its vertex count followed by its vertex indices, counter-clockwise seen
  /// from outside.
  std::vector<int> faces;
  int numFaces = 0;
};

struct PlainPose {
  std::array<double, 4> quaternion{1.0, 0.0, 0.0, 0.0};  ///< unit (w, x, y, z), body to world
  std::array<double, 3> position{};
};

struct PlainProblem {
  int a = 0;
  int b = 0;
  PlainPose poseA;
  PlainPose poseB;
  std::array<double, 3> x0{};  ///< world
};

struct PlainAnswer {
  bool collide = false;
  double distance = 0.0;  ///< NaN when not computed
};

class PlainPeer {
 public:
  virtual ~PlainPeer() = default;
  virtual const char* name() const = 0;
  virtual bool supportsDistance() const = 0;
  virtual void prepare(const std::vector<PlainShape>& shapes) = 0;
  virtual void setProblem(const PlainProblem& problem) = 0;
  virtual PlainAnswer solve(bool distanceMode) = 0;
};

/// A cast of `bench cast`: whether A, translating along a unit direction over `length` metres,
/// touches B, and after how far.
struct PlainCast {
  bool hit = false;
  double distance = 0.0;
};

class PlainCastPeer {
 public:
  virtual ~PlainCastPeer() = default;
  virtual const char* name() const = 0;
  virtual void prepare(const std::vector<PlainShape>& shapes) = 0;
  virtual PlainCast cast(int a, const PlainPose& poseA, int b, const PlainPose& poseB,
                         const std::array<double, 3>& direction, double length) = 0;
};

/// A penetration query of `bench smooth`: depth and normal (from A towards B) of two shapes the
/// peer was given with add().
struct PlainPenetration {
  bool collide = false;
  double depth = 0.0;
  std::array<double, 3> normal{1.0, 0.0, 0.0};
};

class PlainPenetrationPeer {
 public:
  virtual ~PlainPenetrationPeer() = default;
  virtual const char* name() const = 0;
  /// Converts a shape to the library's type (untimed); its index for solve().
  virtual int add(const PlainShape& shape) = 0;
  virtual PlainPenetration solve(int a, const PlainPose& poseA, int b, const PlainPose& poseB) = 0;
};

/// FCL 0.7 (fcl_peer.cpp).
std::unique_ptr<PlainPenetrationPeer> makeFclPenetrationPlain();
std::unique_ptr<PlainPeer> makeFclLibccdPlain();
std::unique_ptr<PlainPeer> makeFclIndepPlain();
std::unique_ptr<PlainCastPeer> makeFclCastPlain();

}  // namespace hb::bench::peers
