#pragma once
// What the scene renderer draws and how; edited live in the debug panel.

namespace hb {

struct RenderSettings {
  bool shadows = true;
  /// Shadows cast by the meshes drawn; off: by their coarsest level of detail (a few hundred
  /// triangles, much cheaper for software renderers).
  bool detailedShadows = true;
  bool textures = true;
  bool grid = true;
  float funnelOpacity = 0.22f;  ///< 0: the funnel is not drawn (cut away)
  bool tintSleeping = false;    ///< darken sleeping bodies
};

/// Bodies drawn highlighted (indices into World::bodies(), -1 for none).
struct BodyHighlights {
  int selected = -1;
  int hovered = -1;
  int grabbed = -1;
};

}  // namespace hb
