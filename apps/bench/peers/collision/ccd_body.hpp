#pragma once
// One posed heavyball shape as libccd sees it, and the callbacks that hand libccd heavyball's own
// support functions (shared by the libccd peers; only their files include libccd).

#include <ccd/ccd.h>

#include <Eigen/Core>

#include "collision/shape.hpp"
#include "collision/support.hpp"

namespace hb::bench::peers {

/// One posed shape as libccd sees it.
struct CcdBody {
  const Shape* shape = nullptr;
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Vector3d obbCentre = Eigen::Vector3d::Zero();  ///< world
  int hint = -1;
};

inline void supportWorld(const void* object, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  // libccd hands the bodies back as const; the hint is scratch state of the query.
  auto* body = static_cast<CcdBody*>(const_cast<void*>(object));
  const Eigen::Vector3d d(dir->v[0], dir->v[1], dir->v[2]);
  const Eigen::Vector3d local = body->rotation.transpose() * d;
  const Eigen::Vector3d w =
      body->rotation * support(*body->shape, local, body->hint) + body->position;
  out->v[0] = w.x();
  out->v[1] = w.y();
  out->v[2] = w.z();
}

inline void centreWorld(const void* object, ccd_vec3_t* out) {
  const auto* body = static_cast<const CcdBody*>(object);
  out->v[0] = body->obbCentre.x();
  out->v[1] = body->obbCentre.y();
  out->v[2] = body->obbCentre.z();
}

/// libccd's GJK takes its first support along this direction; -x0 matches heavyball's start.
inline void firstDirection(const void* objectA, const void* objectB, ccd_vec3_t* out) {
  const auto* a = static_cast<const CcdBody*>(objectA);
  const auto* b = static_cast<const CcdBody*>(objectB);
  const Eigen::Vector3d d = b->obbCentre - a->obbCentre;
  out->v[0] = d.x();
  out->v[1] = d.y();
  out->v[2] = d.z();
}

}  // namespace hb::bench::peers
