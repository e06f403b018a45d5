#pragma once
// Where two planar quadrilaterals first touch when the first is translated along a direction
// (collision/cta.cpp: a side of P's section stack against one of Q's).

#include <Eigen/Core>
#include <array>
#include <limits>
#include <vector>

namespace hb::cta {

/// A touching of P translated by `time` d with Q, and normals that may separate them there.
struct Touch {
  double time = std::numeric_limits<double>::infinity();
  Eigen::Vector3d pointP = Eigen::Vector3d::Zero(), pointQ = Eigen::Vector3d::Zero();
  std::vector<Eigen::Vector3d> normals;
};

/// The least translation along d of the planar convex quadrilateral fp (normal np) of P bringing
/// it onto fq (normal nq) of Q: corners of either against the other's face, and edges against
/// edges; `eps` is the tolerance of the inside test. Its normals point along d.
Touch touchPolygons(const std::array<Eigen::Vector3d, 4>& fp, const Eigen::Vector3d& np,
                    const std::array<Eigen::Vector3d, 4>& fq, const Eigen::Vector3d& nq,
                    const Eigen::Vector3d& d, double eps);

}  // namespace hb::cta
