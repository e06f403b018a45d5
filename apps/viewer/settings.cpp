#include "apps/viewer/settings.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

namespace hb::viewer {

std::filesystem::path settingsDirectory() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "heavyball";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".config" / "heavyball";
  }
  return {};
}

ViewerSettings loadSettings(const std::filesystem::path& file) {
  ViewerSettings s;
  std::ifstream in(file);
  if (!in) return s;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    // Each key is optional: files from older versions keep working.
    s.width = std::clamp(j.value("width", s.width), 320, 16384);
    s.height = std::clamp(j.value("height", s.height), 240, 16384);
    s.scene = j.value("scene", s.scene);
    s.showUi = j.value("show_ui", s.showUi);
    s.showStatistics = j.value("show_statistics", s.showStatistics);
  } catch (const std::exception& e) {
    spdlog::warn("{}: ignoring unreadable settings ({})", file.string(), e.what());
    return ViewerSettings{};
  }
  return s;
}

void saveSettings(const std::filesystem::path& file, const ViewerSettings& s) {
  const nlohmann::json j = {{"width", s.width},
                            {"height", s.height},
                            {"scene", s.scene},
                            {"show_ui", s.showUi},
                            {"show_statistics", s.showStatistics}};
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  std::ofstream out(file);
  out << j.dump(2) << '\n';
  if (!out) spdlog::warn("{}: cannot save the viewer settings", file.string());
}

}  // namespace hb::viewer
