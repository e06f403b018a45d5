#include "engine/contact_reduction.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace hb {

namespace {

/// Index into `region` of the point maximising score(i), or -1 when none scores above `floor`.
template <typename Score>
int best(std::span<const int> region, double floor, Score score) {
  int chosen = -1;
  double top = floor;
  for (size_t k = 0; k < region.size(); ++k) {
    const double s = score(region[k]);
    if (s > top) {
      top = s;
      chosen = static_cast<int>(k);
    }
  }
  return chosen;
}

/// A point that carried an impulse last step (warm-started) is worth this much more when
/// choosing, so that the choice holds from step to step among nearly equal candidates (a mug's
/// rim on a plate: its points tie), and the warm starts with it.
constexpr double kKeptBonus = 1.25;

double bonus(const ContactConstraint& c) {
  return c.impulse.x() > 0.0 ? kKeptBonus : 1.0;
}

/// Marks the points of one region (contacts of one body pair with one normal) to keep.
void reduceRegion(std::span<const ContactConstraint> contacts, std::span<const int> region,
                  int maxPoints, double depthMargin, std::vector<std::uint8_t>& keep) {
  if (static_cast<int>(region.size()) <= maxPoints) return;
  for (const int i : region) keep[i] = 0;
  const Eigen::Vector3d n = contacts[region[0]].normal;
  const auto inPlane = [&](const Eigen::Vector3d& d) { return Eigen::Vector3d(d - d.dot(n) * n); };
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (const int i : region) centroid += contacts[i].point;
  centroid /= static_cast<double>(region.size());
  // The outline first: the point furthest from the centroid, the one furthest from it, the one
  // enclosing the largest triangle with those, and the one furthest outside that triangle.
  std::vector<int> chosen;
  const int first = region[best(region, -1.0, [&](int i) {
    return bonus(contacts[i]) * inPlane(contacts[i].point - centroid).squaredNorm();
  })];
  chosen.push_back(first);
  const int far = best(region, 0.0, [&](int i) {
    return bonus(contacts[i]) * inPlane(contacts[i].point - contacts[first].point).squaredNorm();
  });
  if (far >= 0 && maxPoints >= 2) {
    chosen.push_back(region[far]);
    // Twice the signed area of (u, v, i) about the normal.
    const auto area = [&](int u, int v, int i) {
      const Eigen::Vector3d& o = contacts[u].point;
      return inPlane(contacts[v].point - o).cross(inPlane(contacts[i].point - o)).dot(n);
    };
    const int third = best(region, 0.0, [&](int i) {
      return bonus(contacts[i]) * std::abs(area(chosen[0], chosen[1], i));
    });
    if (third >= 0 && maxPoints >= 3) {
      chosen.push_back(region[third]);
      // The fourth: the point furthest outside the triangle, across whichever edge.
      const double side = area(chosen[0], chosen[1], chosen[2]) > 0.0 ? 1.0 : -1.0;
      const int fourth = best(region, 0.0, [&](int i) {
        const double outside =
            std::max({-side * area(chosen[0], chosen[1], i), -side * area(chosen[1], chosen[2], i),
                      -side * area(chosen[2], chosen[0], i)});
        return bonus(contacts[i]) * outside;
      });
      if (fourth >= 0 && maxPoints >= 4) chosen.push_back(region[fourth]);
    }
  }
  // A point clearly deeper than every chosen one (an impact's) replaces the chosen point
  // nearest to it, so that the position correction sees the deepest overlap.
  const int deepest = region[best(region, -HUGE_VAL, [&](int i) { return contacts[i].depth; })];
  double chosenDepth = -HUGE_VAL;
  for (const int i : chosen) chosenDepth = std::max(chosenDepth, contacts[i].depth);
  if (contacts[deepest].depth > chosenDepth + depthMargin) {
    int nearest = 0;
    for (size_t k = 1; k < chosen.size(); ++k) {
      if ((contacts[chosen[k]].point - contacts[deepest].point).squaredNorm() <
          (contacts[chosen[nearest]].point - contacts[deepest].point).squaredNorm()) {
        nearest = static_cast<int>(k);
      }
    }
    chosen[nearest] = deepest;
  }
  for (const int i : chosen) keep[i] = 1;
}

}  // namespace

void reduceContactRegions(std::span<const ContactConstraint> contacts,
                          std::vector<std::uint8_t>& keep, const ContactReductionOptions& options) {
  keep.assign(contacts.size(), 1);
  // The contacts by body pair, in their order within each pair.
  std::vector<int> order(contacts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int i, int j) {
    return std::pair(contacts[i].bodyA, contacts[i].bodyB) <
           std::pair(contacts[j].bodyA, contacts[j].bodyB);
  });
  std::vector<int> pending, region, rest;
  for (size_t first = 0; first < order.size();) {
    size_t last = first;
    const ContactConstraint& c = contacts[order[first]];
    while (last < order.size() && contacts[order[last]].bodyA == c.bodyA &&
           contacts[order[last]].bodyB == c.bodyB) {
      ++last;
    }
    if (static_cast<int>(last - first) > options.maxPoints) {
      // Regions: each unassigned contact opens one, joined by those whose normal agrees.
      pending.assign(order.begin() + first, order.begin() + last);
      while (!pending.empty()) {
        const Eigen::Vector3d& normal = contacts[pending[0]].normal;
        const bool touching = contacts[pending[0]].depth > -options.touchingGap;
        region.clear();
        rest.clear();
        for (const int i : pending) {
          const bool joins = contacts[i].normal.dot(normal) >= options.normalCosine &&
                             (contacts[i].depth > -options.touchingGap) == touching;
          (joins ? region : rest).push_back(i);
        }
        reduceRegion(contacts, region, options.maxPoints, options.depthMargin, keep);
        pending.swap(rest);
      }
    }
    first = last;
  }
}

}  // namespace hb
