#pragma once
// Output of `heavyball study warmstart` (docs/study.md): the CSV of every measurement, written as
// the study runs, and the table of the combinations printed at the end.

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "engine/recording/warm_start_study.hpp"
#include "engine/recording/warm_start_study_summary.hpp"

namespace hb::cli {

/// The CSV's header line (without the newline).
inline constexpr const char* kStudyCsvHeader =
    "recording,problem,step,body_a,body_b,method,warm_start,fallback,collide,iterations,time_us";

class StudyCsvWriter {
 public:
  /// Creates (truncates) the file and writes the header, gzip-compressed when the name ends
  /// with .gz; throws std::runtime_error on failure.
  explicit StudyCsvWriter(const std::filesystem::path& path);
  ~StudyCsvWriter();
  StudyCsvWriter(const StudyCsvWriter&) = delete;
  StudyCsvWriter& operator=(const StudyCsvWriter&) = delete;

  /// One row per combination of the problem.
  void write(const std::string& recording, const StudyProblem& problem);
  /// Flushes and closes; throws std::runtime_error if a write failed.
  void close();

 private:
  std::filesystem::path path_;
  gzFile file_ = nullptr;
};

/// The table of the combinations, with each median's ratio to that of gjk/none when measured,
/// and the verdict agreement.
void printStudyTable(const WarmStartStudySummary& summary, double collisionTolerance);

}  // namespace hb::cli
