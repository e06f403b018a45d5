#pragma once
// The world's per-body and per-piece data as two tables of named columns (one row per body,
// one per collision piece), so that adding, removing and truncating rows touches every column
// at once.

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "collision/obb.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "dynamics/rigid_body.hpp"
#include "engine/asset_library.hpp"
#include "engine/scene.hpp"

namespace hb {

/// One convex piece of a body's collision shape (compound bodies have several).
struct Proxy {
  int body = -1;
  Shape shape;
  Pose inBody;   ///< piece frame -> body (centre-of-mass) frame
  Obb localObb;  ///< in the piece frame
  /// m: no point of the piece lies further from its box's centre (piecesMayMeet).
  double boundingRadius = 0.0;
};

/// What the world knows of a body beyond its dynamics state (World::rigidBodies()).
struct WorldBody {
  Material material;
  std::string name;                          ///< asset name or shape type
  std::shared_ptr<const ConvexAsset> asset;  ///< set for asset bodies (rendering, recording)
  std::vector<int> proxies;
};

/// Forces on a body besides gravity and contacts (world frame, N and N m about the centre of
/// mass): one held until changed, one for the next step only.
struct ExternalForces {
  Eigen::Vector3d heldForce = Eigen::Vector3d::Zero();
  Eigen::Vector3d heldTorque = Eigen::Vector3d::Zero();
  Eigen::Vector3d nextForce = Eigen::Vector3d::Zero();
  Eigen::Vector3d nextTorque = Eigen::Vector3d::Zero();
  bool any() const {
    return !heldForce.isZero(0.0) || !heldTorque.isZero(0.0) || !nextForce.isZero(0.0) ||
           !nextTorque.isZero(0.0);
  }
};

/// Per body (row 0: the statics).
struct BodyTable {
  std::vector<WorldBody> info;
  std::vector<RigidBody> state;
  std::vector<BodyDescription> description;  ///< how each body was added
  std::vector<ExternalForces> forces;
  /// The island it fell asleep with (-1 awake or static); islands wake whole.
  std::vector<long> sleepIsland;
  std::vector<double> reach;      ///< m, furthest point from its centre of mass
  std::vector<double> thickness;  ///< m, twice the smallest half extent of its pieces' boxes
  std::vector<Obb> compoundBox;   ///< a compound body's hull box in the body frame

  int size() const { return static_cast<int>(info.size()); }
  /// A row for a body without pieces yet (they add to its reach and thickness).
  void add(WorldBody body, const RigidBody& rigid, const BodyDescription& how) {
    info.push_back(std::move(body));
    state.push_back(rigid);
    description.push_back(how);
    forces.emplace_back();
    sleepIsland.push_back(-1);
    reach.push_back(0.0);
    thickness.push_back(std::numeric_limits<double>::infinity());
    compoundBox.emplace_back();
  }
  void erase(int row) {
    forEachColumn([row](auto& column) { column.erase(column.begin() + row); });
  }
  void truncate(int rows) {
    forEachColumn([rows](auto& column) { column.resize(rows); });
  }

 private:
  template <class F>
  void forEachColumn(F f) {
    f(info);
    f(state);
    f(description);
    f(forces);
    f(sleepIsland);
    f(reach);
    f(thickness);
    f(compoundBox);
  }
};

/// Per collision piece (a body's pieces are consecutive rows).
struct PieceTable {
  std::vector<Proxy> proxy;
  std::vector<std::uint8_t> isStatic;
  std::vector<double> reach;  ///< m, furthest point of the piece's box from its origin
  std::vector<Obb> worldObb;  ///< at the current poses (find pairs; kept after integration)

  int size() const { return static_cast<int>(proxy.size()); }
  void add(Proxy piece, bool staticPiece, double pieceReach, const Obb& box) {
    proxy.push_back(std::move(piece));
    isStatic.push_back(staticPiece ? 1 : 0);
    reach.push_back(pieceReach);
    worldObb.push_back(box);
  }
  /// Rows [first, first + count).
  void erase(int first, int count) {
    forEachColumn([&](auto& column) {
      column.erase(column.begin() + first, column.begin() + first + count);
    });
  }
  void truncate(int rows) {
    forEachColumn([rows](auto& column) { column.resize(rows); });
  }

 private:
  template <class F>
  void forEachColumn(F f) {
    f(proxy);
    f(isStatic);
    f(reach);
    f(worldObb);
  }
};

/// A body's pose: its centre-of-mass frame -> world.
inline Pose bodyPose(const BodyTable& bodies, int body) {
  const RigidBody& r = bodies.state[body];
  return {r.orientation, r.position};
}

/// A piece's pose: its frame -> world.
inline Pose piecePose(const BodyTable& bodies, const Proxy& piece) {
  return bodyPose(bodies, piece.body) * piece.inBody;
}

}  // namespace hb
