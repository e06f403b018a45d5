#include "engine/shipped_assets.hpp"

#include <cstdlib>
#include <system_error>

namespace hb {
namespace fs = std::filesystem;

fs::path shippedDataDir() {
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  return shippedDataDirFrom(error ? fs::path() : executable.parent_path());
}

fs::path shippedDataDirFrom(const fs::path& start) {
  if (const char* dir = std::getenv("HEAVYBALL_DATA"); dir && *dir) return fs::path(dir);
  std::error_code error;
  // The scenes are the sign: a folder merely named "assets" may be someone else's.
  const auto holdsScenes = [&](const fs::path& dir) {
    return fs::is_directory(dir / "assets" / "scenes", error);
  };
  for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
    for (const fs::path& candidate : {dir / "share" / "heavyball", dir}) {
      if (holdsScenes(candidate)) return candidate;
    }
    if (dir == dir.root_path()) break;
  }
  return {};
}

fs::path shippedSceneDir() {
  const fs::path data = shippedDataDir();
  return data.empty() ? fs::path() : data / "assets" / "scenes";
}

fs::path shippedYcbDir() {
  const fs::path data = shippedDataDir();
  return data.empty() ? fs::path() : data / "assets" / "ycb";
}

}  // namespace hb
