#pragma once
// Debug drawing of what the step computed, as lines: world OBBs, hull wireframes, broad-phase
// candidate pairs, contact points with normals scaled by their impulse, and GJK witness points
// with the separation between them.

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "engine/world.hpp"
#include "render/line_list.hpp"

namespace hb {

struct DebugDrawOptions {
  bool obbs = false;
  bool hulls = false;
  bool pairs = false;
  bool contacts = false;
  bool gjk = false;
  bool onTop = true;               ///< lines show through bodies
  double impulseScale = 2.0;       ///< m of normal per N s of normal impulse
  double minNormalLength = 0.015;  ///< m, so that contacts without impulse still show a normal
};

class DebugDraw {
 public:
  /// Appends the enabled overlays for the world's last step to `lines`.
  void build(const World& world, const DebugDrawOptions& options, LineList& lines);
  /// Colour of a normal impulse on the blue (small) to red (large) ramp used for contacts.
  static Color impulseColor(double impulse, double scale);

 private:
  void obbs(const World& world, LineList& lines) const;
  void hulls(const World& world, LineList& lines);
  void pairs(const World& world, LineList& lines) const;
  void contacts(const World& world, const DebugDrawOptions& options, LineList& lines) const;
  void gjk(const World& world, LineList& lines) const;
  const std::vector<std::pair<int, int>>& edges(const std::shared_ptr<const ConvexHull>& hull);

  // Unique edges per hull, computed once; the pointer keeps the hull (and its address) alive.
  std::map<const ConvexHull*,
           std::pair<std::shared_ptr<const ConvexHull>, std::vector<std::pair<int, int>>>>
      edges_;
};

}  // namespace hb
