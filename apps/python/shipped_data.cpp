// Where the module's shipped files are (scenes, YCB meshes): found from the module's own file,
// so that a build tree and an installed copy each find theirs, wherever Python runs from.

#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>
#include <system_error>

#include "apps/python/bindings.hpp"
#include "engine/shipped_assets.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace hb::python {

fs::path moduleDataDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&moduleDataDir), &info) == 0 || !info.dli_fname) {
    return shippedDataDir();
  }
  std::error_code error;
  const fs::path module = fs::canonical(info.dli_fname, error);
  return shippedDataDirFrom(error ? fs::path() : module.parent_path());
}

namespace {

std::optional<fs::path> dataDir() {
  const fs::path dir = moduleDataDir();
  if (dir.empty()) return std::nullopt;
  return dir;
}

py::dict assets() {
  py::dict out;
  const fs::path dir = moduleDataDir();
  if (dir.empty()) return out;
  std::error_code error;
  std::vector<fs::path> folders;
  for (fs::directory_iterator it(dir / "assets" / "ycb", error), end; !error && it != end;
       it.increment(error)) {
    if (fs::is_regular_file(it->path() / "textured.obj", error)) folders.push_back(it->path());
  }
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) {
    py::dict entry;
    entry["mesh"] = folder / "textured.obj";
    const fs::path parts = folder / "convex_parts.obj";
    entry["parts"] = fs::is_regular_file(parts, error) ? py::cast(parts) : py::none();
    out[py::str(folder.filename().string())] = entry;
  }
  return out;
}

}  // namespace

void addShippedDataBindings(py::module_& m) {
  m.def("data_dir", &dataDir,
        "The folder holding the shipped assets/ (scenes/, ycb/): the source tree of the build "
        "the module came from, or <prefix>/share/heavyball once installed; $HEAVYBALL_DATA "
        "overrides it. None when there is none.");
  m.def("assets", &assets,
        "The shipped YCB objects: {name: {\"mesh\": path, \"parts\": path or None}}. A scene "
        "given as a dict without asset_dir finds them by name ({\"asset\": \"025_mug\"}).");
}

}  // namespace hb::python
