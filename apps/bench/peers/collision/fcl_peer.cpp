// FCL 0.7 peers on FCL's own shapes (fcl::Convex from the same hull, fcl::Ellipsoid):
//  - fcl_gjk: GJKSolver_libccd (GST_LIBCCD, FCL's default). Its Boolean query is libccd's MPR
//    (ccdMPRIntersect) in FCL 0.7; its distance query is FCL's copy of libccd's GJK distance.
//    It takes no initial guess.
//  - fcl_indep: GJKSolver_indep (GST_INDEP), FCL's own GJK, started from x0 through its cached
//    guess. Its Boolean query runs EPA after GJK when the shapes overlap (FCL has no cheaper one).
// Both are called through the solver's shapeIntersect / shapeDistance, bypassing the collision
// objects and broad phase of fcl::collide / fcl::distance.
//  - fcl_epa (`bench smooth`): GJKSolver_libccd's shapeIntersect with a contact (libccd's EPA).
//  - fcl_ca (`bench cast`): fcl::continuousCollide with a translational motion and FCL's
//    conservative advancement (CCDC_CONSERVATIVE_ADVANCEMENT, GJK by libccd), its time of contact
//    resolved to a micrometre along the motion.
// libfcl is built for the baseline instruction set and its ABI holds Eigen types, so this file is
// compiled the same way and talks to the benchmark through the Eigen-free PlainPeer interface.

#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/narrowphase/continuous_collision.h>
#include <fcl/narrowphase/detail/gjk_solver_indep.h>
#include <fcl/narrowphase/detail/gjk_solver_libccd.h>

#include <limits>
#include <type_traits>

#include "apps/bench/peers/collision/plain_peer.hpp"

namespace hb::bench::peers {

namespace {

/// One benchmark shape in FCL's representation (exactly one pointer set).
struct FclShape {
  std::unique_ptr<fcl::Convexd> convex;
  std::unique_ptr<fcl::Ellipsoidd> ellipsoid;
};

FclShape toFcl(const PlainShape& shape) {
  FclShape out;
  if (shape.isEllipsoid) {
    out.ellipsoid =
        std::make_unique<fcl::Ellipsoidd>(shape.radii[0], shape.radii[1], shape.radii[2]);
  } else {
    auto vertices = std::make_shared<std::vector<fcl::Vector3d>>();
    for (const auto& v : shape.vertices) vertices->emplace_back(v[0], v[1], v[2]);
    auto faces = std::make_shared<const std::vector<int>>(shape.faces);
    out.convex = std::make_unique<fcl::Convexd>(vertices, shape.numFaces, faces);
  }
  return out;
}

fcl::Transform3d toFcl(const PlainPose& pose) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  const auto& q = pose.quaternion;
  tf.linear() = fcl::Quaterniond(q[0], q[1], q[2], q[3]).toRotationMatrix();
  tf.translation() = fcl::Vector3d(pose.position[0], pose.position[1], pose.position[2]);
  return tf;
}

template <class Solver>
class FclPeer final : public PlainPeer {
 public:
  explicit FclPeer(const char* name) : name_(name) {}

  const char* name() const override { return name_; }
  bool supportsDistance() const override { return true; }

  void prepare(const std::vector<PlainShape>& shapes) override {
    shapes_.clear();
    for (const PlainShape& s : shapes) shapes_.push_back(toFcl(s));
  }

  void setProblem(const PlainProblem& p) override {
    a_ = &shapes_[p.a];
    b_ = &shapes_[p.b];
    problem_ = p;
    if (a_->convex) {
      solve_ = b_->convex ? &FclPeer::solveAs<fcl::Convexd, fcl::Convexd>
                          : &FclPeer::solveAs<fcl::Convexd, fcl::Ellipsoidd>;
    } else {
      solve_ = b_->convex ? &FclPeer::solveAs<fcl::Ellipsoidd, fcl::Convexd>
                          : &FclPeer::solveAs<fcl::Ellipsoidd, fcl::Ellipsoidd>;
    }
  }

  PlainAnswer solve(bool distanceMode) override { return (this->*solve_)(distanceMode); }

 private:
  template <class T>
  static const T& get(const FclShape& s) {
    if constexpr (std::is_same_v<T, fcl::Convexd>) {
      return *s.convex;
    } else {
      return *s.ellipsoid;
    }
  }

  template <class A, class B>
  PlainAnswer solveAs(bool distanceMode) {
    // Poses and guess are converted in the timed call, as heavyball's GJK converts its own.
    const fcl::Transform3d tfA = toFcl(problem_.poseA);
    const fcl::Transform3d tfB = toFcl(problem_.poseB);
    if constexpr (std::is_same_v<Solver, fcl::detail::GJKSolver_indep<double>>) {
      // GJKSolver_indep works in A's frame and takes its first support along the cached guess;
      // heavyball's GJK takes its first support along -x0.
      const auto& x0 = problem_.x0;
      solver_.enable_cached_guess = true;
      solver_.cached_guess = -(tfA.linear().transpose() * fcl::Vector3d(x0[0], x0[1], x0[2]));
    }
    const A& a = get<A>(*a_);
    const B& b = get<B>(*b_);
    PlainAnswer answer;
    if (!distanceMode) {
      answer.collide = solver_.shapeIntersect(a, tfA, b, tfB);
      answer.distance = std::numeric_limits<double>::quiet_NaN();
    } else {
      double d = -1.0;
      const bool separated = solver_.shapeDistance(a, tfA, b, tfB, &d);
      answer.collide = !separated;
      answer.distance = separated ? d : 0.0;
    }
    return answer;
  }

  using SolveFn = PlainAnswer (FclPeer::*)(bool);

  const char* name_;
  Solver solver_;
  std::vector<FclShape> shapes_;
  const FclShape* a_ = nullptr;
  const FclShape* b_ = nullptr;
  PlainProblem problem_;
  SolveFn solve_ = nullptr;
};

class FclCast final : public PlainCastPeer {
 public:
  const char* name() const override { return "fcl_ca"; }

  void prepare(const std::vector<PlainShape>& shapes) override {
    shapes_.clear();
    for (const PlainShape& s : shapes) shapes_.push_back(toFcl(s));
  }

  PlainCast cast(int a, const PlainPose& poseA, int b, const PlainPose& poseB,
                 const std::array<double, 3>& direction, double length) override {
    const fcl::Transform3d fromA = toFcl(poseA);
    fcl::Transform3d toA = fromA;
    toA.translation() += length * fcl::Vector3d(direction[0], direction[1], direction[2]);
    const fcl::Transform3d tfB = toFcl(poseB);
    fcl::ContinuousCollisionRequestd request;
    request.ccd_motion_type = fcl::CCDM_TRANS;
    request.ccd_solver_type = fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
    request.gjk_solver_type = fcl::GST_LIBCCD;
    request.toc_err = 1e-6 / length;
    fcl::ContinuousCollisionResultd result;
    fcl::continuousCollide(geometry(shapes_[a]), fromA, toA, geometry(shapes_[b]), tfB, tfB,
                           request, result);
    PlainCast out;
    out.hit = result.is_collide;
    out.distance = out.hit ? result.time_of_contact * length : 0.0;
    return out;
  }

 private:
  static const fcl::CollisionGeometryd* geometry(const FclShape& s) {
    return s.convex ? static_cast<const fcl::CollisionGeometryd*>(s.convex.get())
                    : s.ellipsoid.get();
  }

  std::vector<FclShape> shapes_;
};

/// fcl_epa (`bench smooth`): GJKSolver_libccd's shapeIntersect with a contact, FCL's default
/// GJK then libccd's EPA.
class FclPenetration final : public PlainPenetrationPeer {
 public:
  const char* name() const override { return "fcl_epa"; }

  int add(const PlainShape& shape) override {
    shapes_.push_back(toFcl(shape));
    return static_cast<int>(shapes_.size()) - 1;
  }

  PlainPenetration solve(int a, const PlainPose& poseA, int b, const PlainPose& poseB) override {
    const fcl::Transform3d tfA = toFcl(poseA), tfB = toFcl(poseB);
    std::vector<fcl::ContactPoint<double>> contacts;
    const FclShape& sa = shapes_[a];
    const FclShape& sb = shapes_[b];
    bool hit = false;
    if (sa.convex && sb.convex) {
      hit = solver_.shapeIntersect(*sa.convex, tfA, *sb.convex, tfB, &contacts);
    } else if (sa.convex) {
      hit = solver_.shapeIntersect(*sa.convex, tfA, *sb.ellipsoid, tfB, &contacts);
    } else if (sb.convex) {
      hit = solver_.shapeIntersect(*sa.ellipsoid, tfA, *sb.convex, tfB, &contacts);
    } else {
      hit = solver_.shapeIntersect(*sa.ellipsoid, tfA, *sb.ellipsoid, tfB, &contacts);
    }
    PlainPenetration out;
    out.collide = hit && !contacts.empty();
    if (out.collide) {
      out.depth = contacts.front().penetration_depth;
      const fcl::Vector3d& n = contacts.front().normal;  // from A towards B
      out.normal = {n.x(), n.y(), n.z()};
    }
    return out;
  }

 private:
  fcl::detail::GJKSolver_libccd<double> solver_;
  std::vector<FclShape> shapes_;
};

}  // namespace

std::unique_ptr<PlainPenetrationPeer> makeFclPenetrationPlain() {
  return std::make_unique<FclPenetration>();
}

std::unique_ptr<PlainCastPeer> makeFclCastPlain() {
  return std::make_unique<FclCast>();
}

std::unique_ptr<PlainPeer> makeFclLibccdPlain() {
  return std::make_unique<FclPeer<fcl::detail::GJKSolver_libccd<double>>>("fcl_gjk");
}

std::unique_ptr<PlainPeer> makeFclIndepPlain() {
  return std::make_unique<FclPeer<fcl::detail::GJKSolver_indep<double>>>("fcl_indep");
}

}  // namespace hb::bench::peers
