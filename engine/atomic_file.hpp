#pragma once
// Files that appear complete or not at all: written under a temporary name in the target's
// directory, flushed to disk, then renamed over the target (rename is atomic within a file
// system). A process killed at any point leaves the target either absent or whole.

#include <filesystem>
#include <string_view>

namespace hb {

/// Flushes `temporary` to disk and renames it to `target`. Throws std::runtime_error naming the
/// files on failure.
void commitFile(const std::filesystem::path& temporary, const std::filesystem::path& target);

/// Writes `text` to `temporary`, then commits it to `target`.
void writeFileAtomically(const std::filesystem::path& target,
                         const std::filesystem::path& temporary, std::string_view text);

}  // namespace hb
