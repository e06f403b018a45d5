#pragma once
// Where heavyball's shipped files are (scenes, YCB meshes, the plotting script): found from the
// running executable, not from a path compiled in, so that a build tree and an installed copy
// each find their own.

#include <filesystem>

namespace hb {

/// The folder holding assets/ (scenes/, ycb/) and tools/: for the executable's folder and each
/// folder above it, the first of <dir>/share/heavyball (an installed prefix) and <dir> itself (a
/// source tree holding its build folder) that has assets/scenes. $HEAVYBALL_DATA overrides the
/// search. Empty when nothing is found.
std::filesystem::path shippedDataDir();
/// The same search from `start` and the folders above it (a library's own file, say, where the
/// executable is another program's: the Python module under /usr/bin/python3).
std::filesystem::path shippedDataDirFrom(const std::filesystem::path& start);

/// shippedDataDir() / "assets" / "scenes", or empty.
std::filesystem::path shippedSceneDir();
/// shippedDataDir() / "assets" / "ycb", or empty.
std::filesystem::path shippedYcbDir();

/// The message for a command that needs the shipped files and found none.
inline constexpr const char* kShippedDataMissing =
    "heavyball's shipped files (assets/, tools/) were not found beside the executable: set "
    "HEAVYBALL_DATA to the folder that holds them (the source tree, or <prefix>/share/heavyball)";

}  // namespace hb
