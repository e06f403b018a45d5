#pragma once
// Transcendental functions that give the same bits on every x86-64 CPU. glibc's libm picks FMA
// versions of sin, cos, pow, log, ... at run time on CPUs that have FMA, and they round
// differently in the last bit; one such bit in a step sends a chaotic run (a pile, a funnel) its
// own way, so a result would depend on the machine. These are SLEEF's pure-C scalar functions
// (https://sleef.org, 1.0 ulp; hypot 0.5 ulp), which use no FMA and no CPU dispatch: the same
// bits everywhere (tests/collision/test_portable_math.cpp checks them against libm, and a CI test
// runs a recorded simulation with libm's FMA versions switched off and compares the bytes).
// Every transcendental function of collision/, dynamics/ and engine/ goes through here;
// sqrt, being correctly rounded, is the same everywhere already.

#include <Eigen/Geometry>

namespace hb::portable {

double sin(double x);
double cos(double x);
double tan(double x);
double atan(double x);
double atan2(double y, double x);
double acos(double x);
double asin(double x);
double pow(double x, double y);
double log(double x);
double cbrt(double x);
double hypot(double x, double y);

/// The rotation by `angle` (rad) about the unit vector `axis`, as Eigen::AngleAxisd would give it.
Eigen::Quaterniond rotationAbout(const Eigen::Vector3d& axis, double angle);
/// The rotation whose rotation vector (unit axis times angle, rad) is `v`; the identity for zero.
Eigen::Quaterniond rotationOf(const Eigen::Vector3d& v);
/// The rotation vector (unit axis times angle in [0, pi]) of a unit quaternion, as
/// Eigen::AngleAxisd(q) gives it; zero for the identity.
Eigen::Vector3d rotationVector(const Eigen::Quaterniond& q);
/// The angle (rad, in [0, pi]) of the rotation from b to a, as a.angularDistance(b) gives it.
double angleBetween(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b);

}  // namespace hb::portable
