#pragma once
// Other libraries' collision solvers for `heavyball bench gjk`. Each lives in its own file, built
// only when its library is found, so only that file parses the library's headers.

#include <memory>

#include "apps/bench/common/bench_method.hpp"

namespace hb::bench::peers {

/// libccd (HB_HAVE_CCD): ccdGJKIntersect and ccdMPRIntersect with heavyball's support functions.
std::unique_ptr<Method> makeCcdGjk();
std::unique_ptr<Method> makeCcdMpr();
/// FCL (HB_HAVE_FCL) on fcl::Convex / fcl::Ellipsoid: GJKSolver_libccd (GST_LIBCCD) and
/// GJKSolver_indep (GST_INDEP).
std::unique_ptr<Method> makeFclLibccd();
std::unique_ptr<Method> makeFclIndep();
/// Bullet (HB_HAVE_BULLET): btGjkEpaSolver2 on btConvexHullShape.
std::unique_ptr<Method> makeBulletGjk();

}  // namespace hb::bench::peers
