// Bullet peer: btGjkEpaSolver2::Distance (Bullet's GJK, double precision when the float64 build is
// installed) on btConvexHullShape built from the same hull vertices, or on a shape that calls
// heavyball's support function (ellipsoids, which Bullet lacks). Bullet's GJK has no early exit on
// a separating plane, so the Boolean and the distance query are the same call; GJK is started from
// x0 (Bullet's `guess`, in A's frame). For `bench cast`, Bullet's two linear casts on the same
// shapes: btSubsimplexConvexCast (van den Bergen's GJK ray cast, as heavyball's) and
// btGjkConvexCast (conservative advancement on GJK distances).

#include <btBulletCollisionCommon.h>

#include <BulletCollision/NarrowPhaseCollision/btGjkConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btSubSimplexConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <Eigen/Geometry>
#include <stdexcept>

#include "apps/bench/peers/collision/cast_peer.hpp"
#include "apps/bench/peers/collision/peer.hpp"
#include "collision/support.hpp"

namespace hb::bench::peers {

namespace {

btVector3 toBullet(const Eigen::Vector3d& v) {
  return btVector3(v.x(), v.y(), v.z());
}

/// A Bullet convex shape whose support is heavyball's (used for primitives Bullet does not have).
class SupportCallbackShape final : public btConvexInternalShape {
 public:
  explicit SupportCallbackShape(const Shape& shape) : shape_(shape) {
    m_shapeType = CUSTOM_CONVEX_SHAPE_TYPE;
    setMargin(0.0);
  }

  btVector3 localGetSupportingVertexWithoutMargin(const btVector3& dir) const override {
    int hint = 0;
    return toBullet(support(shape_, Eigen::Vector3d(dir.x(), dir.y(), dir.z()), hint));
  }
  void batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3* dirs, btVector3* out,
                                                         int n) const override {
    for (int i = 0; i < n; ++i) out[i] = localGetSupportingVertexWithoutMargin(dirs[i]);
  }
  void getAabb(const btTransform& t, btVector3& lo, btVector3& hi) const override {
    getAabbSlow(t, lo, hi);
  }
  void calculateLocalInertia(btScalar, btVector3& inertia) const override {
    inertia.setValue(0, 0, 0);
  }
  const char* getName() const override { return "HeavyballSupport"; }
  int getNumPreferredPenetrationDirections() const override { return 0; }
  void getPreferredPenetrationDirection(int, btVector3&) const override {}

 private:
  const Shape& shape_;
};

std::unique_ptr<btConvexShape> toBullet(const Shape& shape) {
  if (shape.type() == ShapeType::ConvexHull) {
    auto hull = std::make_unique<btConvexHullShape>();
    for (const Eigen::Vector3d& v : shape.hull().vertices()) hull->addPoint(toBullet(v), false);
    hull->recalcLocalAabb();
    hull->setMargin(0.0);  // Bullet's default 4 cm margin would inflate the shape
    return hull;
  }
  if (shape.type() == ShapeType::Ellipsoid) return std::make_unique<SupportCallbackShape>(shape);
  throw std::invalid_argument("Bullet peer: unsupported shape type " +
                              std::string(toString(shape.type())));
}

btTransform toBullet(const Pose& pose) {
  const Eigen::Matrix3d r = pose.rotation();
  return btTransform(
      btMatrix3x3(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1), r(2, 2)),
      toBullet(pose.p));
}

class BulletPeer final : public Method {
 public:
  std::string_view name() const override { return "bullet_gjk"; }
  bool supports(GjkMode) const override { return true; }

  void prepare(std::span<const BenchShape> shapes) override {
    shapes_.clear();
    for (const BenchShape& s : shapes) shapes_.push_back(toBullet(s.shape));
  }

  void setProblem(const Problem& p) override {
    a_ = shapes_[p.a].get();
    b_ = shapes_[p.b].get();
    problem_ = p;
  }

  Answer solve(GjkMode) override {
    // Poses and guess are converted in the timed call, as heavyball's GJK converts its own.
    const btTransform tfA = toBullet(problem_.poseA);
    const btTransform tfB = toBullet(problem_.poseB);
    const btVector3 guess = toBullet(problem_.poseA.q.conjugate() * problem_.x0);
    btGjkEpaSolver2::sResults result;
    const bool separated = btGjkEpaSolver2::Distance(a_, tfA, b_, tfB, guess, result);
    Answer answer;
    answer.collide = !separated && result.status == btGjkEpaSolver2::sResults::Penetrating;
    answer.distance = separated ? result.distance : 0.0;
    answer.converged = separated || result.status == btGjkEpaSolver2::sResults::Penetrating;
    return answer;
  }

 private:
  std::vector<std::unique_ptr<btConvexShape>> shapes_;
  const btConvexShape* a_ = nullptr;
  const btConvexShape* b_ = nullptr;
  Problem problem_;
};

template <class Caster>
class BulletCast final : public CastPeer {
 public:
  explicit BulletCast(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }

  void prepare(std::span<const Shape> shapes) override {
    shapes_.clear();
    for (const Shape& s : shapes) shapes_.push_back(toBullet(s));
  }

  PeerCast cast(int a, const Pose& poseA, int b, const Pose& poseB,
                const Eigen::Vector3d& direction, double length) override {
    const btTransform fromA = toBullet(poseA);
    btTransform toA = fromA;
    toA.setOrigin(toBullet(poseA.p + length * direction));
    const btTransform fromB = toBullet(poseB);
    btVoronoiSimplexSolver simplex;
    Caster caster(shapes_[a].get(), shapes_[b].get(), &simplex);
    btConvexCast::CastResult result;
    PeerCast out;
    out.hit = caster.calcTimeOfImpact(fromA, toA, fromB, fromB, result);
    out.distance = out.hit ? result.m_fraction * length : 0.0;
    return out;
  }

 private:
  std::string_view name_;
  std::vector<std::unique_ptr<btConvexShape>> shapes_;
};

}  // namespace

std::unique_ptr<Method> makeBulletGjk() {
  return std::make_unique<BulletPeer>();
}

std::unique_ptr<CastPeer> makeBulletSubsimplexCast() {
  return std::make_unique<BulletCast<btSubsimplexConvexCast>>("bullet_subsimplex");
}

std::unique_ptr<CastPeer> makeBulletGjkCast() {
  return std::make_unique<BulletCast<btGjkConvexCast>>("bullet_gjk_cast");
}

}  // namespace hb::bench::peers
