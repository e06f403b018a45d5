# Writes OUTPUT, a C++ source defining hb::shaderSource(name) over the GLSL files in INPUTS
# ('|'-separated). Run with cmake -P at build time, whenever a shader changes.
string(REPLACE "|" ";" inputs "${INPUTS}")
set(entries "")
foreach(file IN LISTS inputs)
  get_filename_component(name "${file}" NAME)
  file(READ "${file}" text)
  string(APPEND entries "    {\"${name}\", R\"glsl(${text})glsl\"},\n")
endforeach()
set(content "// Generated from assets/shaders by render/embed_shaders.cmake; do not edit.
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hb {

std::string_view shaderSource(std::string_view name) {
  static const std::map<std::string_view, std::string_view> sources = {
${entries}  };
  const auto it = sources.find(name);
  if (it == sources.end()) throw std::runtime_error(\"no embedded shader named \" + std::string(name));
  return it->second;
}

}  // namespace hb
")
file(WRITE "${OUTPUT}.tmp" "${content}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
