#pragma once
// CSV output of `heavyball bench gjk`, one row per record, appended as the benchmark runs:
// shapes,pair,pose,distance_bucket,mode,method,iterations,time_us,distance,collide,
// converged,reference_distance,vertices_a,vertices_b
// (the first ten columns keep their order; columns are only ever appended). docs/gjk-benchmark.md
// says what each column means.

#include <cstddef>
#include <cstdio>
#include <filesystem>

#include "apps/bench/common/bench_results.hpp"

namespace hb::bench {

class CsvWriter {
 public:
  /// Creates (truncates) the file and writes the header; throws std::runtime_error on failure.
  explicit CsvWriter(const std::filesystem::path& path);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  /// Writes the records added since the previous call and flushes.
  void writeNew(const BenchResults& results);
  /// Throws std::runtime_error if a write failed.
  void close();

 private:
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  std::size_t written_ = 0;
};

}  // namespace hb::bench
