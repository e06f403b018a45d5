#include "engine/batch_parameters.hpp"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/atomic_file.hpp"
#include "engine/batch_layout.hpp"
#include "engine/state_hash.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFormat = "heavyball-batch/1";

std::string shortest(double value) {
  return json(value).dump();
}

json toJson(const BatchParameters& p) {
  return {{"format", kFormat},         {"scene", p.scene},
          {"scene_hash", p.sceneHash}, {"runs", p.runs},
          {"seconds", p.seconds},      {"seed", p.seed},
          {"record", p.record},        {"heavyball_version", HB_VERSION}};
}

}  // namespace

std::vector<std::string> BatchParameters::differences(const BatchParameters& other,
                                                      const std::string& thisName,
                                                      const std::string& otherName) const {
  std::vector<std::string> d;
  auto add = [&](const std::string& field, const std::string& mine, const std::string& theirs) {
    if (mine != theirs)
      d.push_back(field + ": " + mine + " " + thisName + ", " + theirs + " " + otherName);
  };
  add("scene file content (FNV-1a)", sceneHash, other.sceneHash);
  add("runs", std::to_string(runs), std::to_string(other.runs));
  add("seconds", shortest(seconds), shortest(other.seconds));
  add("seed", std::to_string(seed), std::to_string(other.seed));
  add("record", record ? "on" : "off", other.record ? "on" : "off");
  return d;
}

std::string fileHash(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw BatchError("cannot read " + file.string());
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  Fnv1a64 h;
  h.add(bytes);
  return hashHex(h.value());
}

BatchParameters readBatchParameters(const fs::path& dir) {
  const fs::path file = dir / batch_layout::kParametersFile;
  std::ifstream in(file);
  if (!in) throw BatchError(file.string() + ": missing (not a batch directory?)");
  try {
    const json j = json::parse(in);
    if (j.at("format").get<std::string>() != kFormat) {
      throw BatchError(file.string() + ": unknown format " + j.at("format").dump());
    }
    BatchParameters p;
    p.scene = j.at("scene").get<std::string>();
    p.sceneHash = j.at("scene_hash").get<std::string>();
    p.runs = j.at("runs").get<int>();
    p.seconds = j.at("seconds").get<double>();
    p.seed = j.at("seed").get<unsigned>();
    p.record = j.at("record").get<bool>();
    return p;
  } catch (const json::exception& e) {
    throw BatchError(file.string() + ": " + e.what());
  }
}

void writeBatchParameters(const fs::path& dir, const BatchParameters& parameters) {
  const fs::path file = dir / batch_layout::kParametersFile;
  // Shards started together may race to create the file: give each process its own temporary.
  const fs::path temporary =
      file.string() + "." + std::to_string(::getpid()) + batch_layout::kTemporarySuffix;
  writeFileAtomically(file, temporary, toJson(parameters).dump(2) + "\n");
}

void ensureBatchParameters(const fs::path& dir, const BatchParameters& parameters) {
  fs::create_directories(dir);
  const fs::path file = dir / batch_layout::kParametersFile;
  if (!fs::exists(file)) writeBatchParameters(dir, parameters);
  const std::vector<std::string> d =
      parameters.differences(readBatchParameters(dir), "requested", "in " + file.string());
  if (d.empty()) return;
  std::ostringstream message;
  message << dir.string() << " holds a batch with other parameters; use the original ones or "
          << "another output directory:";
  for (const std::string& line : d) message << "\n  " << line;
  throw BatchError(message.str());
}

}  // namespace hb
