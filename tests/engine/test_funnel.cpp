#include "engine/funnel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hb {
namespace {

struct Interval {
  double entry;
  double exit;
};

/// Where the ray o + t d (t >= 0) is inside the box (slab method in the box frame).
std::optional<Interval> rayThroughBox(const Shape& box, const Pose& pose, const Eigen::Vector3d& o,
                                      const Eigen::Vector3d& d) {
  const Eigen::Vector3d lo = pose.applyInverse(o);
  const Eigen::Vector3d ld = pose.q.conjugate() * d;
  double entry = -std::numeric_limits<double>::infinity();
  double exit = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    const double h = box.halfExtents()[k];
    if (std::abs(ld[k]) < 1e-15) {
      if (std::abs(lo[k]) > h) return std::nullopt;
      continue;
    }
    double t1 = (-h - lo[k]) / ld[k];
    double t2 = (h - lo[k]) / ld[k];
    if (t1 > t2) std::swap(t1, t2);
    entry = std::max(entry, t1);
    exit = std::min(exit, t2);
  }
  if (entry > exit || exit < 0.0) return std::nullopt;
  return Interval{std::max(entry, 0.0), exit};
}

/// A horizontal ray from the funnel axis at height z and azimuth phi, cast through every panel:
/// where the wall starts (the radius of the first panel hit) and how deep the union of panels
/// stays solid from there on.
struct WallHit {
  double radius = std::numeric_limits<double>::infinity();
  double solidDepth = 0.0;
};

WallHit castFromAxis(const std::vector<std::pair<Shape, Pose>>& panels, double z, double phi) {
  const Eigen::Vector3d origin(0.0, 0.0, z);
  const Eigen::Vector3d dir(std::cos(phi), std::sin(phi), 0.0);
  std::vector<Interval> hits;
  for (const auto& [shape, pose] : panels) {
    if (const auto hit = rayThroughBox(shape, pose, origin, dir)) hits.push_back(*hit);
  }
  WallHit result;
  if (hits.empty()) return result;
  std::sort(hits.begin(), hits.end(),
            [](const Interval& a, const Interval& b) { return a.entry < b.entry; });
  result.radius = hits.front().entry;
  double reach = hits.front().exit;
  for (const Interval& hit : hits) {
    if (hit.entry > reach + 1e-12) break;  // a gap in the wall
    reach = std::max(reach, hit.exit);
  }
  result.solidDepth = reach - result.radius;
  return result;
}

double coneRadius(const FunnelDescription& f, double z) {
  return f.bottomRadius + (f.topRadius - f.bottomRadius) * (z - f.bottomZ) / f.height;
}

std::vector<FunnelDescription> funnels() {
  std::vector<FunnelDescription> all;
  all.push_back(FunnelDescription{});  // the scenes' funnel
  all.push_back({.topRadius = 0.5,
                 .bottomRadius = 0.05,
                 .height = 0.2,
                 .bottomZ = 1.0,
                 .wallThickness = 0.05,
                 .panels = 3});  // coarsest allowed
  all.push_back({.topRadius = 0.2,
                 .bottomRadius = 0.19,
                 .height = 1.0,
                 .bottomZ = 0.0,
                 .wallThickness = 0.01,
                 .panels = 32});  // nearly a cylinder
  all.push_back({.topRadius = 1.0,
                 .bottomRadius = 0.1,
                 .height = 0.1,
                 .bottomZ = -0.5,
                 .wallThickness = 0.03,
                 .panels = 7});  // nearly a flat ring
  return all;
}

std::string describe(const FunnelDescription& f) {
  return "funnel r " + std::to_string(f.bottomRadius) + ".." + std::to_string(f.topRadius) + " h " +
         std::to_string(f.height) + " z0 " + std::to_string(f.bottomZ) + " t " +
         std::to_string(f.wallThickness) + " n " + std::to_string(f.panels);
}

/// Azimuths of the panels' centres, sorted.
std::vector<double> panelAzimuths(const std::vector<std::pair<Shape, Pose>>& panels) {
  std::vector<double> azimuths;
  for (const auto& [shape, pose] : panels) azimuths.push_back(std::atan2(pose.p.y(), pose.p.x()));
  std::sort(azimuths.begin(), azimuths.end());
  return azimuths;
}

TEST(Funnel, OneBoxPerPanelWithProperRotations) {
  for (const FunnelDescription& f : funnels()) {
    SCOPED_TRACE(describe(f));
    const auto panels = funnelPanels(f);
    ASSERT_EQ(static_cast<int>(panels.size()), f.panels);
    for (const auto& [shape, pose] : panels) {
      EXPECT_EQ(shape.type(), ShapeType::Box);
      EXPECT_TRUE(pose.isValid());
      const Eigen::Matrix3d r = pose.rotation();
      EXPECT_LT((r.transpose() * r - Eigen::Matrix3d::Identity()).norm(), 1e-12);
      EXPECT_NEAR(r.determinant(), 1.0, 1e-12);
      // The wall is as thick as asked along one of the box's axes.
      const Eigen::Vector3d h = shape.halfExtents();
      EXPECT_NEAR(h.minCoeff(), 0.5 * f.wallThickness, 1e-12);
    }
    // Evenly spread around the axis.
    const auto azimuths = panelAzimuths(panels);
    for (size_t i = 0; i < azimuths.size(); ++i) {
      const double next =
          i + 1 < azimuths.size() ? azimuths[i + 1] : azimuths[0] + 2 * std::numbers::pi;
      EXPECT_NEAR(next - azimuths[i], 2 * std::numbers::pi / f.panels, 1e-9);
    }
  }
}

TEST(Funnel, PanelsStayBetweenTheOpeningAndTheRim) {
  for (const FunnelDescription& f : funnels()) {
    SCOPED_TRACE(describe(f));
    for (const auto& [shape, pose] : funnelPanels(f)) {
      for (int corner = 0; corner < 8; ++corner) {
        const Eigen::Vector3d local((corner & 1 ? 1 : -1) * shape.halfExtents().x(),
                                    (corner & 2 ? 1 : -1) * shape.halfExtents().y(),
                                    (corner & 4 ? 1 : -1) * shape.halfExtents().z());
        const double z = pose.apply(local).z();
        EXPECT_GE(z, f.bottomZ - f.wallThickness - 1e-12);
        EXPECT_LE(z, f.bottomZ + f.height + 1e-12);
      }
    }
  }
}

// Horizontal rays from the axis at several heights and many azimuths. The wall must start on or
// outside the cone (nothing intrudes: a wrong slant or radius would) and no further out than
// the corner of the circumscribed polygon (a gap between panels would let the ray go further),
// then stay solid for a quarter of the wall thickness.
TEST(Funnel, InnerSurfaceHugsTheConeWithoutGaps) {
  for (const FunnelDescription& f : funnels()) {
    SCOPED_TRACE(describe(f));
    const auto panels = funnelPanels(f);
    const auto azimuths = panelAzimuths(panels);
    std::vector<double> phis;
    for (int k = 0; k < 720; ++k) phis.push_back(2 * std::numbers::pi * k / 720);
    // The seams: halfway between neighbouring panels, where a gap would open.
    for (size_t i = 0; i < azimuths.size(); ++i) {
      const double next =
          i + 1 < azimuths.size() ? azimuths[i + 1] : azimuths[0] + 2 * std::numbers::pi;
      phis.push_back(0.5 * (azimuths[i] + next));
    }
    const double cornerFactor = 1.0 / std::cos(std::numbers::pi / f.panels);
    for (double fraction : {0.05, 0.3, 0.5, 0.7, 0.95}) {
      const double z = f.bottomZ + fraction * f.height;
      const double r = coneRadius(f, z);
      for (double phi : phis) {
        const WallHit hit = castFromAxis(panels, z, phi);
        SCOPED_TRACE("z " + std::to_string(z) + " phi " + std::to_string(phi));
        ASSERT_TRUE(std::isfinite(hit.radius)) << "the ray escapes";
        EXPECT_GE(hit.radius, r - 1e-9);
        EXPECT_LE(hit.radius, r * cornerFactor + 1e-9);
        EXPECT_GE(hit.solidDepth, 0.25 * f.wallThickness);
      }
    }
  }
}

// Along each panel's own azimuth the inner face touches the cone: the faces lie on it, not just
// outside it.
TEST(Funnel, InnerFacesTouchTheConeAlongTheirMiddle) {
  for (const FunnelDescription& f : funnels()) {
    SCOPED_TRACE(describe(f));
    const auto panels = funnelPanels(f);
    for (double phi : panelAzimuths(panels)) {
      for (double fraction : {0.02, 0.25, 0.5, 0.75, 0.98}) {
        const double z = f.bottomZ + fraction * f.height;
        EXPECT_NEAR(castFromAxis(panels, z, phi).radius, coneRadius(f, z), 1e-9)
            << "z " << z << " phi " << phi;
      }
    }
  }
}

// Below the bottom opening the panels' lower edges must not narrow it.
TEST(Funnel, BottomOpeningStaysClear) {
  for (const FunnelDescription& f : funnels()) {
    SCOPED_TRACE(describe(f));
    const auto panels = funnelPanels(f);
    for (double below : {0.25, 0.5, 1.0}) {
      const double z = f.bottomZ - below * f.wallThickness;
      for (int k = 0; k < 360; ++k) {
        EXPECT_GE(castFromAxis(panels, z, 2 * std::numbers::pi * k / 360).radius,
                  f.bottomRadius - 1e-9);
      }
    }
  }
}

}  // namespace
}  // namespace hb
