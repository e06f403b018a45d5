// heavyball-viewer: drop YCB objects into the funnel and watch the narrow phase work.

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "apps/cli/cli_checks.hpp"
#include "apps/viewer/viewer_app.hpp"

namespace {

/// "1280x720" -> width, height.
bool parseSize(const std::string& text, int& width, int& height) {
  char x = 0;
  return std::sscanf(text.c_str(), "%d%c%d", &width, &x, &height) == 3 && x == 'x' && width > 0 &&
         height > 0;
}

}  // namespace

int main(int argc, char** argv) {
  hb::viewer::ViewerOptions o;
  std::string scene, screenshot, size;
  CLI::App app("heavyball-viewer: drop YCB objects into the funnel interactively");
  app.set_version_flag("--version", std::string("heavyball-viewer ") + HB_VERSION);
  app.add_option("--scene", scene, "Scene file (JSON, see docs/scenes.md); default: the last one")
      ->check(CLI::ExistingFile);
  app.add_option("--frames", o.frames, "Run this many frames, then exit (scripted run)")
      ->check(CLI::PositiveNumber);
  app.add_option("--drop", o.drop,
                 "Drop this many random YCB objects instead of the scene's spawner")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--parts", o.dropParts,
               "Dropped assets collide as their convex parts (the drop panel's default)");
  app.add_option("--rain-rate", o.rainRate, "Drops per simulated second for --drop")
      ->check(hb::cli::finiteNumber([](double v) { return v >= 0.1 && v <= 120.0; },
                                    "a number in [0.1, 120]"))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "Simulated seconds before the first frame (not drawn)")
      ->check(hb::cli::finiteNonNegative());
  app.add_option("--screenshot", screenshot, "Write a PNG of the window after the last frame");
  app.add_option("--record", o.record,
                 "Record from the first step to this HDF5 file, as the recording panel does (an "
                 "existing file is kept: the recording goes to FILE-2.h5, FILE-3.h5, ...)");
  app.add_flag("--benchmark", o.benchmark,
               "Scripted frames on the wall clock (default 600); print frame and step times");
  app.add_option("--size", size, "Window size WIDTHxHEIGHT (default: the last one, or 1280x720)");
  app.add_flag("--no-ui", o.hideUi, "Hide the panels");
  app.add_flag(
      "--no-settings", [&o](int64_t) { o.useSettings = false; },
      "Neither read nor write the settings file");
  app.add_option("--msaa", o.samples,
                 "Multisample antialiasing samples (0: off; default 4, off on software renderers)")
      ->check(CLI::Range(0, 16));
  app.add_flag(
      "--no-shadows", [&o](int64_t) { o.render.shadows = false; }, "Start without shadows");
  app.add_flag(
      "--coarse-shadows", [&o](int64_t) { o.render.detailedShadows = false; },
      "Shadows cast by the coarsest meshes (the default on software renderers)");
  app.add_option("--seed", o.seed, "Seed of the drops")->capture_default_str();
  app.add_option("--texture-size", o.maxTextureSize, "Largest texture side, in texels")
      ->check(CLI::Range(64, 8192))
      ->capture_default_str();
  app.add_option("--shadow-size", o.shadowMapSize, "Shadow map side, in texels")
      ->check(CLI::Range(256, 8192))
      ->capture_default_str();
  std::vector<std::string> overlays;
  app.add_option(
         "--debug", overlays,
         "Debug overlays to start with, the debug panel open: obbs, hulls, pairs, contacts, "
         "gjk")
      ->delimiter(',')
      ->check(CLI::IsMember({"obbs", "hulls", "pairs", "contacts", "gjk"}));
  app.add_option("--select", o.select,
                 "Select this body at the start (its panel opens, debug draw focuses on it)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--threads", o.threads,
                 "Workers stepping the world (0: one per core); every count gives the same states")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  o.scene = scene;
  o.screenshot = screenshot;
  o.openDebugPanel = !overlays.empty();
  for (const std::string& overlay : overlays) {
    hb::DebugDrawOptions& d = o.debug;
    (overlay == "obbs"    ? d.obbs
     : overlay == "hulls" ? d.hulls
     : overlay == "pairs" ? d.pairs
     : overlay == "gjk"   ? d.gjk
                          : d.contacts) = true;
  }
  if (!size.empty() && !parseSize(size, o.width, o.height)) {
    std::fprintf(stderr, "heavyball-viewer: --size wants WIDTHxHEIGHT, e.g. 1280x720\n");
    return 1;
  }
  if (o.benchmark && o.frames == 0) o.frames = 600;
  if (!o.screenshot.empty() && o.frames == 0) o.frames = 1;

  try {
    hb::viewer::ViewerApp viewer(o);
    return viewer.run();
  } catch (const hb::NoDisplayError& e) {
    std::fprintf(stderr,
                 "heavyball-viewer: no display to open a window on (%s); to simulate without one, "
                 "run `heavyball simulate --scene FILE`\n",
                 e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "heavyball-viewer: %s\n", e.what());
    return 1;
  }
}
