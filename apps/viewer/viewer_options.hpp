#pragma once
// The viewer's command-line options (parsed in main.cpp).

#include <filesystem>

#include "render/debug_draw.hpp"
#include "render/render_settings.hpp"

namespace hb::viewer {

struct ViewerOptions {
  std::filesystem::path scene;  ///< empty: the last scene, else assets/scenes/funnel.json
  int width = 0;                ///< window size; 0: the remembered one
  int height = 0;
  int frames = 0;                    ///< > 0: a scripted run of this many frames, then exit
  int drop = 0;                      ///< objects to drop (instead of the scene's spawner)
  double rainRate = 20.0;            ///< drops per simulated second for `drop`
  bool dropParts = false;            ///< drops collide as their convex parts
  double warmup = 0.0;               ///< simulated seconds run before the first frame
  std::filesystem::path screenshot;  ///< PNG written after the last scripted frame
  std::filesystem::path record;      ///< recording started with the first step (numbered if taken)
  bool benchmark = false;            ///< scripted frames on the wall clock; prints timings
  bool hideUi = false;
  bool useSettings = true;  ///< read and write the settings file
  int samples = -1;         ///< multisampling; -1: 4, or none on software renderers
  unsigned seed = 1;        ///< of the drops
  int maxTextureSize = 1024;
  int shadowMapSize = 2048;
  int threads = 0;              ///< workers of the physics thread's world (0: one per core)
  RenderSettings render;        ///< initial rendering switches (the debug panel edits them)
  DebugDrawOptions debug;       ///< initial debug overlays
  bool openDebugPanel = false;  ///< the debug draw section starts unfolded (--debug)
  int select = -1;              ///< body selected at the start (-1: none)

  bool scripted() const { return frames > 0; }
};

}  // namespace hb::viewer
