#pragma once
// Comma-separated names on the command line ("bullet, mujoco"): spaces dropped, empty entries
// skipped.

#include <string>
#include <vector>

namespace hb::cli {

inline std::vector<std::string> splitNames(const std::string& list) {
  std::vector<std::string> names;
  std::string name;
  for (const char c : list + ",") {
    if (c == ' ') continue;
    if (c != ',') {
      name += c;
    } else if (!name.empty()) {
      names.push_back(name);
      name.clear();
    }
  }
  return names;
}

}  // namespace hb::cli
