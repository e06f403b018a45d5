// libFuzzer target: one `heavyball query` input (lines of JSON) answered in full. Every input
// must give one answer or error object per line, never a crash or a hang.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "apps/cli/query_lines.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  hb::cli::runQueries(in, out);
  return 0;
}
