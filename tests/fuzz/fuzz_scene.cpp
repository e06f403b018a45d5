// libFuzzer target: a scene file's text parsed (relative paths against the shipped scenes).
// Every input is a scene or a JsonError/MeshLoadError naming what is wrong.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/json_read.hpp"
#include "engine/obj_mesh.hpp"
#include "engine/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    hb::parseScene(text, HB_SOURCE_DIR "/assets/scenes");
  } catch (const hb::JsonError&) {
  } catch (const hb::MeshLoadError&) {
  }
  return 0;
}
