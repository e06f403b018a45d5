#pragma once
// What the viewer remembers between runs: window size, the last scene and which panels were
// shown. A small JSON file in $XDG_CONFIG_HOME/heavyball (or ~/.config/heavyball).

#include <filesystem>
#include <string>

namespace hb::viewer {

struct ViewerSettings {
  int width = 1280;
  int height = 720;
  std::string scene;  ///< absolute path of the last scene loaded
  bool showUi = true;
  bool showStatistics = true;
};

/// The settings folder; empty when neither XDG_CONFIG_HOME nor HOME is set.
std::filesystem::path settingsDirectory();

/// Reads `file`; a missing or unreadable file gives the defaults (a warning for a bad one).
ViewerSettings loadSettings(const std::filesystem::path& file);
/// Writes `file`, creating its folder; failures are logged, not thrown (settings are a comfort).
void saveSettings(const std::filesystem::path& file, const ViewerSettings& settings);

}  // namespace hb::viewer
