#include "apps/heavyball/study_report.hpp"

#include <stdexcept>
#include <vector>

namespace hb::cli {
namespace {

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string name(const CombinationSummary& c) {
  return std::string(toString(c.variant)) + "/" + std::string(toString(c.warmStart));
}

}  // namespace

StudyCsvWriter::StudyCsvWriter(const std::filesystem::path& path) : path_(path) {
  // zlib writes both: compressed ("wb6") or as it is ("wT", transparent).
  file_ = gzopen(path.c_str(), path.extension() == ".gz" ? "wb6" : "wT");
  if (!file_) throw std::runtime_error(path.string() + ": cannot open for writing");
  gzprintf(file_, "%s\n", kStudyCsvHeader);
}

StudyCsvWriter::~StudyCsvWriter() {
  if (file_) gzclose(file_);
}

void StudyCsvWriter::write(const std::string& recording, const StudyProblem& problem) {
  const std::string file = csvField(recording);
  for (const StudyResult& r : problem.results) {
    gzprintf(file_, "%s,%ld,%ld,%d,%d,%s,%s,%d,%d,%d,%.4f\n", file.c_str(), problem.index,
             problem.step, problem.bodyA, problem.bodyB, std::string(toString(r.variant)).c_str(),
             std::string(toString(r.warmStart)).c_str(), r.fallback ? 1 : 0, r.collide ? 1 : 0,
             r.iterations, r.timeUs);
  }
}

void StudyCsvWriter::close() {
  if (!file_) return;
  int error = Z_OK;
  gzerror(file_, &error);
  const bool failed = error != Z_OK;
  const bool closeFailed = gzclose(file_) != Z_OK;
  file_ = nullptr;
  if (failed || closeFailed) throw std::runtime_error(path_.string() + ": write failed");
}

void printStudyTable(const WarmStartStudySummary& summary, double collisionTolerance) {
  const std::vector<CombinationSummary> combinations = summary.combinations();
  const CombinationSummary* baseline = nullptr;
  for (const CombinationSummary& c : combinations) {
    if (c.variant == GjkVariant::Vanilla && c.warmStart == WarmStart::None) baseline = &c;
  }
  std::printf("%-22s %9s %10s %10s %10s %9s %10s %16s\n", "method/warm start", "problems",
              "median us", "q1 us", "q3 us", "mean it", "fallbacks", "median/gjk-none");
  long unconverged = 0;
  for (const CombinationSummary& c : combinations) {
    char ratio[32] = "-";
    if (baseline && baseline->medianUs > 0.0) {
      std::snprintf(ratio, sizeof ratio, "%.3f", c.medianUs / baseline->medianUs);
    }
    std::printf("%-22s %9ld %10.4f %10.4f %10.4f %9.2f %10ld %16s\n", name(c).c_str(), c.problems,
                c.medianUs, c.firstQuartileUs, c.thirdQuartileUs, c.meanIterations, c.fallbacks,
                ratio);
    unconverged += c.unconverged;
  }
  if (!baseline) std::printf("(gjk/none was not measured: no ratios)\n");
  if (unconverged > 0) {
    std::printf("note: %ld solves hit the iteration cap or stalled:", unconverged);
    for (const CombinationSummary& c : combinations) {
      if (c.unconverged > 0) std::printf(" %s %ld", name(c).c_str(), c.unconverged);
    }
    std::printf("\n");
  }

  const VerdictAgreement& a = summary.agreement();
  const std::size_t n = combinations.size();
  if (a.disagreements == 0) {
    std::printf("verdicts: all %zu combinations agree on every problem (%ld)\n", n, a.problems);
  } else {
    std::printf(
        "verdicts: the %zu combinations disagree on %ld of %ld problems: %ld near touching "
        "(|recorded distance| <= %g eps_col = %.3g m, where either verdict is right), %ld "
        "others\n",
        n, a.disagreements, a.problems, a.nearTouchingDisagreements, kNearTouchingBand,
        kNearTouchingBand * collisionTolerance, a.disagreements - a.nearTouchingDisagreements);
  }
  if (a.recordedMismatches == 0) {
    std::printf("recorded verdicts (the run's distance queries): every combination matches\n");
  } else {
    std::printf(
        "recorded verdicts (the run's distance queries): %ld problems differ, %ld near "
        "touching, %ld others\n",
        a.recordedMismatches, a.nearTouchingRecordedMismatches,
        a.recordedMismatches - a.nearTouchingRecordedMismatches);
  }
}

}  // namespace hb::cli
