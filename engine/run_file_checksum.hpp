#pragma once
// Checksums that let a batch tell a finished run from a damaged one: a run file (JSON summary)
// carries the FNV-1a of its own contents ("checksum") and of its recording's bytes
// ("recording_fnv1a64", "recording_bytes"). A file truncated or with a flipped bit then fails
// its check, and resume redoes the run while batch-merge refuses it (docs/batch.md).

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace hb {

/// FNV-1a of a file's bytes, and its size; throws std::runtime_error naming an unreadable file.
struct FileDigest {
  std::uint64_t fnv1a64 = 0;
  std::uintmax_t bytes = 0;
};
FileDigest digestFile(const std::filesystem::path& file);

/// Sets summary["checksum"] to the hex FNV-1a of summary's compact dump without it.
void addSummaryChecksum(nlohmann::json& summary);

/// Why `summary` (read from a run file, with the recording beside it when `recording` is not
/// empty) is damaged, or empty when its checksums hold. Run files of batches written before the
/// checksums, which have none, pass.
std::string runFileDamage(const nlohmann::json& summary, const std::filesystem::path& recording);

}  // namespace hb
