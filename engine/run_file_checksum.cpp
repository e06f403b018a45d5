#include "engine/run_file_checksum.hpp"

#include <array>
#include <fstream>
#include <stdexcept>

#include "engine/state_hash.hpp"

namespace hb {

namespace {

std::string summaryChecksum(nlohmann::json summary) {
  summary.erase("checksum");
  Fnv1a64 h;
  h.add(summary.dump());
  return hashHex(h.value());
}

}  // namespace

FileDigest digestFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file.string() + ": cannot read it to check it");
  FileDigest digest;
  Fnv1a64 h;
  std::array<char, 1 << 16> buffer;
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    h.add(buffer.data(), static_cast<std::size_t>(in.gcount()));
    digest.bytes += static_cast<std::uintmax_t>(in.gcount());
  }
  if (in.bad()) throw std::runtime_error(file.string() + ": read error while checking it");
  digest.fnv1a64 = h.value();
  return digest;
}

void addSummaryChecksum(nlohmann::json& summary) {
  summary["checksum"] = summaryChecksum(summary);
}

std::string runFileDamage(const nlohmann::json& summary, const std::filesystem::path& recording) {
  const auto checksum = summary.find("checksum");
  if (checksum == summary.end()) return "";  // written before the checksums
  if (!checksum->is_string() || *checksum != summaryChecksum(summary)) {
    return "its contents do not match their checksum (the file is damaged)";
  }
  if (recording.empty()) return "";
  const auto hash = summary.find("recording_fnv1a64");
  const auto bytes = summary.find("recording_bytes");
  if (hash == summary.end() || bytes == summary.end()) return "no checksum of its recording";
  FileDigest digest;
  try {
    digest = digestFile(recording);
  } catch (const std::exception& e) {
    return e.what();
  }
  if (!bytes->is_number_unsigned() || bytes->get<std::uintmax_t>() != digest.bytes) {
    return "recording " + recording.string() + " has " + std::to_string(digest.bytes) +
           " bytes, not the " + bytes->dump() + " it was written with (truncated?)";
  }
  if (*hash != hashHex(digest.fnv1a64)) {
    return "recording " + recording.string() + " does not match its checksum (damaged)";
  }
  return "";
}

}  // namespace hb
