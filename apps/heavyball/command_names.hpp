#pragma once
// Usage errors of the command line: their exit status and the nearest command to a misspelt one.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hb::cli {

/// Exit status of every usage error (unknown command or option, bad value), as POSIX tools do.
inline constexpr int kUsageExit = 2;

/// The candidate nearest to `word` by edit distance (insertions, deletions, substitutions), when
/// it is within a third of the longer name's length; none otherwise.
std::optional<std::string> nearestName(std::string_view word,
                                       const std::vector<std::string>& candidates);

}  // namespace hb::cli
