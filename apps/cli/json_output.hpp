#pragma once
// The commands' JSON output. File names are bytes, not always UTF-8, and JSON text must be:
// their invalid bytes are written as U+FFFD instead of failing the whole summary.

#include <nlohmann/json.hpp>
#include <string>

namespace hb {

inline std::string jsonLine(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace hb
