#include "apps/bench/common/bench_csv.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hb::bench {

CsvWriter::CsvWriter(const std::filesystem::path& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw std::runtime_error(path.string() + ": cannot open for writing");
  std::fputs(
      "shapes,pair,pose,distance_bucket,mode,method,iterations,time_us,distance,collide,"
      "converged,reference_distance,vertices_a,vertices_b\n",
      file_);
}

CsvWriter::~CsvWriter() {
  if (file_) std::fclose(file_);
}

void CsvWriter::writeNew(const BenchResults& results) {
  for (; written_ < results.records.size(); ++written_) {
    const Record& r = results.records[written_];
    const ProblemInfo& p = results.problems[r.problem];
    char distance[32] = "nan";
    // Adding +0.0 turns -0 into 0.
    if (std::isfinite(r.distance))
      std::snprintf(distance, sizeof distance, "%.10g", r.distance + 0.0);
    const std::array<int, 2>& vertices = results.pairVertices[p.pair];
    std::fprintf(file_, "%s,%s,%d,%g,%s,%s,%d,%.4f,%s,%d,%d,%.10g,%d,%d\n", results.shapes.c_str(),
                 results.pairNames[p.pair].c_str(), p.pose, results.targets[p.bucket],
                 modeName(r.mode), results.methods[r.method].c_str(), r.iterations, r.timeUs,
                 distance, r.collide ? 1 : 0, r.converged ? 1 : 0, p.achieved + 0.0, vertices[0],
                 vertices[1]);
  }
  std::fflush(file_);
}

void CsvWriter::close() {
  if (!file_) return;
  const bool failed = std::ferror(file_) != 0;
  const bool closeFailed = std::fclose(file_) != 0;
  file_ = nullptr;
  if (failed || closeFailed) throw std::runtime_error(path_.string() + ": write failed");
}

}  // namespace hb::bench
