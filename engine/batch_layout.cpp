#include "engine/batch_layout.hpp"

#include <charconv>
#include <cstdio>
#include <string_view>

namespace hb::batch_layout {

std::string runStem(int run) {
  char text[32];
  std::snprintf(text, sizeof text, "run-%06d", run);
  return text;
}

std::optional<RunFileName> parseRunFileName(const std::string& fileName) {
  std::string_view name = fileName;
  RunFileName parsed;
  const std::string_view suffix = kTemporarySuffix;
  if (name.ends_with(suffix)) {
    parsed.temporary = true;
    name.remove_suffix(suffix.size());
  }
  if (!name.starts_with("run-")) return std::nullopt;
  name.remove_prefix(4);
  const std::size_t dot = name.find('.');
  if (dot == std::string_view::npos || dot < 6) return std::nullopt;
  const std::string_view digits = name.substr(0, dot);
  parsed.extension = std::string(name.substr(dot + 1));
  if (parsed.extension != "json" && parsed.extension != "h5") return std::nullopt;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), parsed.run);
  if (error != std::errc() || end != digits.data() + digits.size() || parsed.run < 0) {
    return std::nullopt;
  }
  return parsed;
}

}  // namespace hb::batch_layout
