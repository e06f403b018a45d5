// Mass properties against closed-form solids.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "dynamics/mass_properties.hpp"

namespace hb {
namespace {

using Eigen::Vector3d;
using Tri = std::array<int, 3>;

struct Mesh {
  std::vector<Vector3d> v;
  std::vector<Tri> t;
};

// A box as 12 outward-wound triangles, centred at c.
Mesh boxMesh(const Vector3d& h, const Vector3d& c) {
  Mesh m;
  for (int i = 0; i < 8; ++i)
    m.v.push_back(
        c + Vector3d((i & 1 ? 1 : -1) * h.x(), (i & 2 ? 1 : -1) * h.y(), (i & 4 ? 1 : -1) * h.z()));
  m.t = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
         {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return m;
}

// A UV sphere of radius r.
Mesh sphereMesh(double r, int n) {
  Mesh m;
  const double pi = std::numbers::pi;
  m.v.push_back({0, 0, r});
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < 2 * n; ++j) {
      const double th = pi * i / n, ph = pi * j / n;
      m.v.push_back(
          r * Vector3d(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)));
    }
  m.v.push_back({0, 0, -r});
  const int south = static_cast<int>(m.v.size()) - 1;
  auto idx = [&](int i, int j) { return 1 + (i - 1) * 2 * n + (j % (2 * n)); };
  for (int j = 0; j < 2 * n; ++j) {
    m.t.push_back({0, idx(1, j), idx(1, j + 1)});
    m.t.push_back({south, idx(n - 1, j + 1), idx(n - 1, j)});
  }
  for (int i = 1; i < n - 1; ++i)
    for (int j = 0; j < 2 * n; ++j) {
      m.t.push_back({idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)});
      m.t.push_back({idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)});
    }
  return m;
}

TEST(MassProperties, BoxMatchesClosedForm) {
  const Vector3d h(0.1, 0.25, 0.4), c(3.0, -2.0, 7.0);
  const Mesh m = boxMesh(h, c);
  const MassProperties p = computeMassProperties(m.v, m.t, 500.0);
  const MassProperties expected = boxMassProperties(h, 500.0);
  EXPECT_NEAR(p.volume, expected.volume, 1e-12);
  EXPECT_NEAR(p.mass, expected.mass, 1e-9);
  EXPECT_TRUE(p.centerOfMass.isApprox(c, 1e-12));
  EXPECT_TRUE(p.inertia.isApprox(expected.inertia, 1e-10)) << p.inertia;
}

TEST(MassProperties, RotatedBoxInertiaRotates) {
  const Vector3d h(0.1, 0.25, 0.4);
  Mesh m = boxMesh(h, Vector3d::Zero());
  const Eigen::Matrix3d r =
      Eigen::AngleAxisd(0.7, Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  for (auto& v : m.v) v = r * v;
  const MassProperties p = computeMassProperties(m.v, m.t, 1000.0);
  const Eigen::Matrix3d expected = r * boxMassProperties(h, 1000.0).inertia * r.transpose();
  EXPECT_TRUE(p.inertia.isApprox(expected, 1e-10));
}

TEST(MassProperties, FineSphereApproachesClosedForm) {
  const Mesh m = sphereMesh(0.5, 96);
  const MassProperties p = computeMassProperties(m.v, m.t, 1000.0);
  const MassProperties s = sphereMassProperties(0.5, 1000.0);
  EXPECT_NEAR(p.volume / s.volume, 1.0, 2e-3);
  EXPECT_NEAR(p.inertia(0, 0) / s.inertia(0, 0), 1.0, 4e-3);
  EXPECT_NEAR(p.inertia(0, 1), 0.0, 1e-9);
  EXPECT_LT(p.centerOfMass.norm(), 1e-9);
}

// A cylinder (axis z) as a prism over a regular n-gon, against the prism's exact values and,
// for a fine polygon, the cylinder's: m (3 r^2 + h^2) / 12 across, m r^2 / 2 along the axis.
TEST(MassProperties, CylinderMeshMatchesClosedForm) {
  const double r = 0.1, h = 0.3, density = 700.0;
  const int n = 720;
  Mesh m;
  for (int i = 0; i < n; ++i) {
    const double a = 2.0 * std::numbers::pi * i / n;
    m.v.push_back({r * std::cos(a), r * std::sin(a), -h / 2});
    m.v.push_back({r * std::cos(a), r * std::sin(a), h / 2});
  }
  const int bottom = static_cast<int>(m.v.size());
  m.v.push_back({0, 0, -h / 2});
  m.v.push_back({0, 0, h / 2});
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    m.t.push_back({2 * i, 2 * j, 2 * j + 1});  // side, outward
    m.t.push_back({2 * i, 2 * j + 1, 2 * i + 1});
    m.t.push_back({bottom, 2 * j, 2 * i});              // bottom cap, facing -z
    m.t.push_back({bottom + 1, 2 * i + 1, 2 * j + 1});  // top cap, facing +z
  }
  const MassProperties p = computeMassProperties(m.v, m.t, density);
  // The inscribed prism's area is (n/2) r^2 sin(2 pi / n).
  const double area = 0.5 * n * r * r * std::sin(2.0 * std::numbers::pi / n);
  EXPECT_NEAR(p.volume / (area * h), 1.0, 1e-12);
  const double mass = density * std::numbers::pi * r * r * h;
  EXPECT_NEAR(p.mass / mass, 1.0, 1e-4);
  EXPECT_NEAR(p.inertia(0, 0) / (mass * (3 * r * r + h * h) / 12.0), 1.0, 1e-4);
  EXPECT_NEAR(p.inertia(2, 2) / (0.5 * mass * r * r), 1.0, 1e-4);
  EXPECT_NEAR(p.inertia(0, 1), 0.0, 1e-12);
  EXPECT_LT(p.centerOfMass.norm(), 1e-12);
}

// A solid of revolution about z, its profile (z, r) listed from bottom to top, as n-gon rings:
// closed by a centre vertex wherever the profile ends at r > 0.
Mesh revolutionMesh(const std::vector<std::pair<double, double>>& profile, int n) {
  Mesh m;
  const int rings = static_cast<int>(profile.size());
  for (const auto& [z, r] : profile) {
    for (int i = 0; i < n; ++i) {
      const double a = 2.0 * std::numbers::pi * i / n;
      m.v.push_back({r * std::cos(a), r * std::sin(a), z});
    }
  }
  auto at = [n](int ring, int i) { return ring * n + (i % n); };
  for (int k = 0; k + 1 < rings; ++k) {
    for (int i = 0; i < n; ++i) {
      m.t.push_back({at(k, i), at(k, i + 1), at(k + 1, i + 1)});
      m.t.push_back({at(k, i), at(k + 1, i + 1), at(k + 1, i)});
    }
  }
  const int bottom = static_cast<int>(m.v.size());
  m.v.push_back({0, 0, profile.front().first});
  m.v.push_back({0, 0, profile.back().first});
  for (int i = 0; i < n; ++i) {
    m.t.push_back({bottom, at(0, i + 1), at(0, i)});
    m.t.push_back({bottom + 1, at(rings - 1, i), at(rings - 1, i + 1)});
  }
  return m;
}

// Each primitive's closed form against the exact volume integrals of a fine tessellation.
void expectCloseTo(const MassProperties& closed, const Mesh& mesh, double density,
                   double tolerance) {
  const MassProperties p = computeMassProperties(mesh.v, mesh.t, density);
  EXPECT_NEAR(p.mass / closed.mass, 1.0, tolerance);
  EXPECT_NEAR(p.volume / closed.volume, 1.0, tolerance);
  EXPECT_LT((p.centerOfMass - closed.centerOfMass).norm(), tolerance * 0.1);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(p.inertia(i, i) / closed.inertia(i, i), 1.0, tolerance) << i;
  }
  EXPECT_LT((closed.inertia - closed.inertia.diagonal().asDiagonal().toDenseMatrix()).norm(),
            1e-15);
}

TEST(MassProperties, PrimitivesMatchFineTessellations) {
  const double density = 800.0, r = 0.07, l = 0.12;
  const int n = 720;
  expectCloseTo(cylinderMassProperties(r, l, density), revolutionMesh({{-l, r}, {l, r}}, n),
                density, 1e-4);
  // The cone's centre of mass at a quarter height: z = -l / 2.
  const MassProperties cone = coneMassProperties(r, l, density);
  EXPECT_NEAR(cone.centerOfMass.z(), -l / 2, 1e-15);
  expectCloseTo(cone, revolutionMesh({{-l, r}, {l, 0.0}}, n), density, 1e-4);
  // Capsule: hemispheres as 200 rings each.
  std::vector<std::pair<double, double>> capsule;
  const int arc = 200;
  for (int k = 0; k <= arc; ++k) {
    const double t = -0.5 * std::numbers::pi + 0.5 * std::numbers::pi * k / arc;
    capsule.push_back({-l + r * std::sin(t), r * std::cos(t)});
  }
  for (int k = 0; k <= arc; ++k) {
    const double t = 0.5 * std::numbers::pi * k / arc;
    capsule.push_back({l + r * std::sin(t), r * std::cos(t)});
  }
  expectCloseTo(capsuleMassProperties(r, l, density), revolutionMesh(capsule, n), density, 1e-4);
  // Ellipsoid: a fine sphere mesh scaled per axis.
  const Vector3d radii(0.05, 0.08, 0.13);
  Mesh ellipsoid = sphereMesh(1.0, 256);
  for (Vector3d& v : ellipsoid.v) v = v.cwiseProduct(radii);
  expectCloseTo(ellipsoidMassProperties(radii, density), ellipsoid, density, 1e-3);
}

TEST(MassProperties, WithMassRescales) {
  const Mesh m = boxMesh({1, 1, 1}, Vector3d::Zero());
  const MassProperties p = withMass(computeMassProperties(m.v, m.t, 1.0), 2.0);
  EXPECT_NEAR(p.mass, 2.0, 1e-12);
  EXPECT_NEAR(p.inertia(0, 0), 2.0 / 12.0 * 8.0, 1e-12);
}

TEST(MassProperties, DegenerateMeshesThrow) {
  Mesh m = boxMesh({1, 1, 1}, Vector3d::Zero());
  for (auto& t : m.t) std::swap(t[1], t[2]);  // inverted winding
  EXPECT_THROW(computeMassProperties(m.v, m.t, 1.0), MassPropertiesError);
  const std::vector<Vector3d> flat = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const std::vector<Tri> twice = {{0, 1, 2}, {0, 2, 1}};
  EXPECT_THROW(computeMassProperties(flat, twice, 1.0), MassPropertiesError);
  const std::vector<Tri> bad = {{0, 1, 7}};
  EXPECT_THROW(computeMassProperties(flat, bad, 1.0), MassPropertiesError);
  EXPECT_THROW(computeMassProperties(m.v, m.t, -1.0), MassPropertiesError);
}

}  // namespace
}  // namespace hb

namespace hb {
namespace {

TEST(MassProperties, PartsCombineIntoTheWhole) {
  // A 2 x 1 x 1 box (density 3) from its two unit halves, each turned a quarter about z in its
  // own frame (the half's inertia is then given about other axes): the whole box's properties.
  const double density = 3.0;
  const MassProperties whole = boxMassProperties(Vector3d(1.0, 0.5, 0.5), density);
  const Eigen::Matrix3d quarter =
      Eigen::AngleAxisd(0.5 * std::numbers::pi, Vector3d::UnitZ()).toRotationMatrix();
  std::vector<PlacedMass> halves;
  for (const double x : {-0.5, 0.5}) {
    MassProperties half = boxMassProperties(Vector3d(0.5, 0.5, 0.5), density);
    half.centerOfMass = Vector3d(0.1, -0.2, 0.3);  // the half's own frame is off its centre
    halves.push_back({half, quarter, Vector3d(x, 0, 0) - quarter * half.centerOfMass});
  }
  const MassProperties sum = combinedMassProperties(halves);
  EXPECT_NEAR(sum.mass, whole.mass, 1e-12);
  EXPECT_NEAR(sum.volume, whole.volume, 1e-12);
  EXPECT_LT(sum.centerOfMass.norm(), 1e-12);
  EXPECT_LT((sum.inertia - whole.inertia).norm(), 1e-12 * whole.inertia.norm());
}

TEST(MassProperties, PartsOfNoMassAreRefused) {
  EXPECT_THROW(combinedMassProperties(std::vector<PlacedMass>{}), MassPropertiesError);
}

}  // namespace
}  // namespace hb
