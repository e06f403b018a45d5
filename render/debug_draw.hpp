#pragma once
// Debug drawing of what the step computed, as lines: world OBBs, hull wireframes, broad-phase
// candidate pairs, contact points with normals scaled by their impulse (and the contacts sleeping
// bodies rest on, in their own colour), GJK witness points with the separation between them,
// and joints (render/joint_draw.hpp: anchors, axes, limits, servo targets).
// With a focus body, only it, its pairs and the bodies it meets: a full funnel's every pair is a
// tangle.

#include <map>
#include <memory>
#include <set>
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
  bool joints = true;              ///< on from the start: nothing else shows a joint to the world
  bool onTop = true;               ///< lines show through bodies
  double impulseScale = 2.0;       ///< m of normal per N s of normal impulse
  double minNormalLength = 0.015;  ///< m, so that contacts without impulse still show a normal
  double jointSize = 0.15;         ///< m, how far a joint's axis is drawn each side of it
  bool focusSelected = true;       ///< draw only the focus body's overlays when there is one
  int focusBody = -1;              ///< the viewer's selected body; -1: every body
};

class DebugDraw {
 public:
  /// Appends the enabled overlays for the world's last step to `lines`.
  void build(const World& world, const DebugDrawOptions& options, LineList& lines);
  /// Colour of a normal impulse on the blue (small) to red (large) ramp used for contacts.
  static Color impulseColor(double impulse, double scale);
  /// Colour of the contacts kept for sleeping bodies (World::restingContacts).
  static Color restingColor();

 private:
  void obbs(const World& world, LineList& lines) const;
  void hulls(const World& world, LineList& lines);
  void pairs(const World& world, LineList& lines) const;
  void contacts(const World& world, const DebugDrawOptions& options, LineList& lines) const;
  void gjk(const World& world, LineList& lines) const;
  void joints(const World& world, const DebugDrawOptions& options, LineList& lines) const;
  /// Whether a body's overlays are drawn: every body without a focus, else the focus body and
  /// the bodies it meets in the narrow phase.
  bool shows(int body) const { return focus_ < 0 || body == focus_ || nearFocus_.count(body); }
  /// Whether a pair's are: every pair without a focus, else the focus body's.
  bool showsPair(int a, int b) const { return focus_ < 0 || a == focus_ || b == focus_; }
  const std::vector<std::pair<int, int>>& edges(const std::shared_ptr<const ConvexHull>& hull);

  // Unique edges per hull, computed once; the pointer keeps the hull (and its address) alive.
  std::map<const ConvexHull*,
           std::pair<std::shared_ptr<const ConvexHull>, std::vector<std::pair<int, int>>>>
      edges_;
  int focus_ = -1;
  std::set<int> nearFocus_;
};

}  // namespace hb
