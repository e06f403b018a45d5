#include "collision/support_points_fit.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "collision/portable_math.hpp"
#include "collision/support_points.hpp"

namespace hb {

namespace {

using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

/// Residuals h_fit(x_k) - h_hull(x_k) and, when `jacobian`, their derivatives in the points.
VectorXd residuals(const std::vector<Vector3d>& points, double beta,
                   const std::vector<Vector3d>& directions, const VectorXd& target,
                   MatrixXd* jacobian) {
  const int n = static_cast<int>(points.size());
  VectorXd r(directions.size());
  if (jacobian) jacobian->setZero(directions.size(), 3 * n);
  for (size_t k = 0; k < directions.size(); ++k) {
    const Vector3d& x = directions[k];
    double top = 0.0;
    for (const Vector3d& p : points) top = std::max(top, p.dot(x));
    double sum = 0.0;
    for (const Vector3d& p : points) {
      const double t = p.dot(x) / top;
      if (t > 0.0) sum += portable::pow(t, beta);
    }
    const double h = top * portable::pow(sum, 1.0 / beta);
    r[k] = h - target[k];
    if (!jacobian) continue;
    for (int i = 0; i < n; ++i) {
      const double t = points[i].dot(x);
      if (t <= 0.0) continue;
      const double w = portable::pow(t / h, beta - 1.0);
      jacobian->block<1, 3>(k, 3 * i) = w * x.transpose();
    }
  }
  return r;
}

}  // namespace

SupportPointsFit fitSupportPoints(const ConvexHull& hull, int count, double beta, int directions,
                                  int maxIterations) {
  if (count < 4) throw std::invalid_argument("fitSupportPoints: at least 4 points");
  if (!(beta >= 2.0)) throw std::invalid_argument("fitSupportPoints: beta must be >= 2");
  SupportPointsFit fit;
  fit.origin = hull.centroid();
  const std::vector<Vector3d> dirs = evenDirections(directions);
  VectorXd target(dirs.size());
  int hint = -1;
  for (size_t k = 0; k < dirs.size(); ++k) {
    target[k] = dirs[k].dot(hull.vertices()[hull.supportVertex(dirs[k], hint)] - fit.origin);
  }
  // Farthest-point sampling of the vertices, from the one farthest from the centroid.
  std::vector<Vector3d> vertices;
  for (const Vector3d& v : hull.vertices()) vertices.push_back(v - fit.origin);
  std::vector<double> nearest(vertices.size(), std::numeric_limits<double>::infinity());
  int next = 0;
  for (size_t v = 1; v < vertices.size(); ++v)
    if (vertices[v].norm() > vertices[next].norm()) next = static_cast<int>(v);
  const int n = std::min<int>(count, static_cast<int>(vertices.size()));
  for (int i = 0; i < n; ++i) {
    fit.points.push_back(0.9 * vertices[next]);
    for (size_t v = 0; v < vertices.size(); ++v)
      nearest[v] = std::min(nearest[v], (vertices[v] - vertices[next]).squaredNorm());
    next = static_cast<int>(std::max_element(nearest.begin(), nearest.end()) - nearest.begin());
  }
  // Levenberg-Marquardt on the support errors.
  MatrixXd J;
  VectorXd r = residuals(fit.points, beta, dirs, target, &J);
  double cost = r.squaredNorm(), damping = 1e-3;
  for (; fit.iterations < maxIterations; ++fit.iterations) {
    MatrixXd A = J.transpose() * J;
    const VectorXd g = J.transpose() * r;
    A.diagonal() += damping * (A.diagonal().array() + 1e-12).matrix();
    const VectorXd step = A.ldlt().solve(-g);
    std::vector<Vector3d> trial = fit.points;
    for (int i = 0; i < n; ++i) trial[i] += step.segment<3>(3 * i);
    MatrixXd Jt;
    const VectorXd rt = residuals(trial, beta, dirs, target, &Jt);
    if (rt.squaredNorm() < cost) {
      const bool small = cost - rt.squaredNorm() < 1e-10 * cost;
      fit.points = trial;
      r = rt;
      J = Jt;
      cost = rt.squaredNorm();
      damping = std::max(damping / 3.0, 1e-9);
      if (small) break;
    } else {
      damping *= 4.0;
      if (damping > 1e8) break;
    }
  }
  fit.rmsError = std::sqrt(cost / static_cast<double>(dirs.size()));
  fit.maxError = r.cwiseAbs().maxCoeff();
  return fit;
}

}  // namespace hb
