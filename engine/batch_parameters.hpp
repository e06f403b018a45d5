#pragma once
// What defines a batch, stored in DIR/batch.json by its first invocation. A batch directory only
// ever holds runs of one set of parameters: resuming (or merging) with different ones is refused.
// The number of worker threads and the shard are not parameters: they change who computes a run,
// never its result.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace hb {

/// Bad batch directories and parameter mismatches; the message names the file or directory.
class BatchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BatchParameters {
  std::string scene;      ///< the scene file as given (informational, not compared)
  std::string sceneHash;  ///< FNV-1a of the scene file's bytes, hex
  int runs = 0;
  double seconds = 0.0;  ///< simulated time per run
  unsigned seed = 0;     ///< run r uses spawner seed `seed + r`
  bool record = false;   ///< each run also writes an HDF5 recording

  /// The spawner seed of run r.
  unsigned runSeed(int run) const { return seed + static_cast<unsigned>(run); }
  /// Human-readable differences in the compared fields, e.g. "seconds: 1 <thisName>, 0.5
  /// <otherName>".
  std::vector<std::string> differences(const BatchParameters& other, const std::string& thisName,
                                       const std::string& otherName) const;
};

/// FNV-1a of a file's bytes, as hex. Throws BatchError when the file cannot be read.
std::string fileHash(const std::filesystem::path& file);

/// Reads DIR/batch.json. Throws BatchError when it is missing or malformed.
BatchParameters readBatchParameters(const std::filesystem::path& dir);
/// Writes DIR/batch.json (atomically).
void writeBatchParameters(const std::filesystem::path& dir, const BatchParameters& parameters);

/// Creates DIR (if needed) and DIR/batch.json on a batch's first invocation; on later ones checks
/// that it holds the same parameters and throws BatchError listing every difference otherwise.
void ensureBatchParameters(const std::filesystem::path& dir, const BatchParameters& parameters);

}  // namespace hb
