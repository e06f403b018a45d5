#include "collision/portable_math.hpp"

#include <sleef.h>

#include <cmath>

namespace hb::portable {

double sin(double x) {
  return Sleef_sind1_u10purec(x);
}
double cos(double x) {
  return Sleef_cosd1_u10purec(x);
}
double tan(double x) {
  return Sleef_tand1_u10purec(x);
}
double atan(double x) {
  return Sleef_atand1_u10purec(x);
}
double atan2(double y, double x) {
  return Sleef_atan2d1_u10purec(y, x);
}
double acos(double x) {
  return Sleef_acosd1_u10purec(x);
}
double asin(double x) {
  return Sleef_asind1_u10purec(x);
}
double pow(double x, double y) {
  return Sleef_powd1_u10purec(x, y);
}
double log(double x) {
  return Sleef_logd1_u10purec(x);
}
double cbrt(double x) {
  return Sleef_cbrtd1_u10purec(x);
}
double hypot(double x, double y) {
  return Sleef_hypotd1_u05purec(x, y);
}

Eigen::Quaterniond rotationAbout(const Eigen::Vector3d& axis, double angle) {
  const double half = 0.5 * angle;
  Eigen::Quaterniond q;
  q.w() = cos(half);
  q.vec() = sin(half) * axis;
  return q;
}

Eigen::Quaterniond rotationOf(const Eigen::Vector3d& v) {
  const double angle = v.norm();
  return angle > 0.0 ? rotationAbout(v / angle, angle) : Eigen::Quaterniond::Identity();
}

Eigen::Vector3d rotationVector(const Eigen::Quaterniond& q) {
  const double n = q.vec().norm();
  if (!(n > 0.0)) return Eigen::Vector3d::Zero();
  const double angle = 2.0 * atan2(n, std::abs(q.w()));
  return (q.w() < 0.0 ? -angle / n : angle / n) * q.vec();
}

double angleBetween(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  const Eigen::Quaterniond d = a * b.conjugate();
  return 2.0 * atan2(d.vec().norm(), std::abs(d.w()));
}

}  // namespace hb::portable
