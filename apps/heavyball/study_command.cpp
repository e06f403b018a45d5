// `heavyball study warmstart DATA...`: the GJK++ paper's warm-start study (Sec. IV-E, Fig. 13)
// on recorded simulations (docs/study.md). The study itself is
// engine/recording/warm_start_study.hpp; this file reads the command line, finds the recordings,
// times the solves and writes the outputs.

#include <spawn.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/bench/common/bench_timer.hpp"
#include "apps/cli/progress_display.hpp"
#include "apps/heavyball/commands.hpp"
#include "apps/heavyball/study_report.hpp"
#include "engine/batch_index.hpp"
#include "engine/json_read.hpp"
#include "engine/recording/recording_check.hpp"
#include "engine/recording/recording_reader.hpp"
#include "engine/recording/warm_start_study.hpp"
#include "engine/recording/warm_start_study_summary.hpp"
#include "engine/shipped_assets.hpp"

namespace hb::cli {
namespace {

namespace fs = std::filesystem;

constexpr double kKeptFraction = 0.9;  // the paper's "mean of the 90% lowest"
constexpr const char* kPython = "/usr/bin/python3";

struct StudyCommandOptions {
  std::vector<std::string> data;
  int repeats = 100;
  std::string csv;
  std::string plot;
  long maxProblems = -1;
  std::vector<std::string> methods = {"gjk", "polyak", "nesterov"};
  std::vector<std::string> warmStarts = {"none", "obb", "previous", "transformed"};
};

template <class T>
void refuseDuplicates(const std::vector<T>& values, const std::string& option) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::find(values.begin(), values.begin() + i, values[i]) != values.begin() + i) {
      throw CLI::ValidationError(option, "lists a value twice");
    }
  }
}

WarmStartStudyOptions studyOptions(const StudyCommandOptions& o) {
  refuseDuplicates(o.methods, "--methods");
  refuseDuplicates(o.warmStarts, "--warm-starts");
  WarmStartStudyOptions study;
  study.variants.clear();
  for (const std::string& m : o.methods) {
    study.variants.push_back(json_read::parseGjkVariant(m, "--methods"));
  }
  study.warmStarts.clear();
  for (const std::string& w : o.warmStarts) {
    study.warmStarts.push_back(json_read::parseWarmStart(w, "--warm-starts"));
  }
  return study;
}

/// The recordings named by DATA: files as given, and every completed run's recording of a batch
/// directory (docs/batch.md).
std::vector<fs::path> recordingsOf(const std::vector<std::string>& data) {
  std::vector<fs::path> files;
  for (const std::string& item : data) {
    if (!fs::is_directory(item)) {
      files.emplace_back(item);  // the reader names a missing or unreadable file
      continue;
    }
    const BatchParameters parameters = readBatchParameters(item);
    if (!parameters.record) {
      throw BatchError("batch " + item + " was run without --record: it holds no recordings");
    }
    const BatchScan scan = scanBatchRuns(item, parameters);
    for (const std::string& problem : scan.problems) spdlog::warn("batch {}: {}", item, problem);
    if (scan.runs.empty()) throw BatchError("batch " + item + " has no completed run");
    if (static_cast<int>(scan.runs.size()) < parameters.runs) {
      spdlog::warn("batch {}: {} of {} runs completed, studying those", item, scan.runs.size(),
                   parameters.runs);
    }
    for (const BatchRunFile& run : scan.runs) files.push_back(run.recording);
  }
  return files;
}

/// Runs tools/plot.py on the CSV; throws std::runtime_error naming the command when it fails.
void plot(const fs::path& csv, const fs::path& png) {
  const fs::path data = shippedDataDir();
  if (data.empty()) throw std::runtime_error(std::string("cannot plot: ") + kShippedDataMissing);
  const fs::path script = data / "tools" / "plot.py";
  const std::vector<std::string> args = {kPython, script.string(), "warmstart", csv.string(),
                                         "-o",    png.string()};
  std::string command;
  for (const std::string& a : args) command += (command.empty() ? "" : " ") + a;
  if (!fs::exists(script)) {
    throw std::runtime_error("cannot plot: " + script.string() +
                             " does not exist (wanted: " + command + ")");
  }
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(stdout);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, kPython, nullptr, nullptr, argv.data(), environ);
  if (spawned != 0) {
    throw std::runtime_error("cannot plot: starting " + std::string(kPython) +
                             " failed: " + std::strerror(spawned));
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) {
    throw std::runtime_error("cannot plot: lost track of '" + command + "'");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string how = WIFEXITED(status)
                                ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                : "was killed by signal " + std::to_string(WTERMSIG(status));
    throw std::runtime_error("plot failed: '" + command + "' " + how);
  }
  if (!fs::exists(png)) {
    throw std::runtime_error("plot failed: '" + command + "' wrote no " + png.string());
  }
}

/// A CSV for the plot when none was asked for, removed when the command ends.
class TemporaryFile {
 public:
  TemporaryFile()
      : path_(fs::temp_directory_path() /
              ("heavyball-study-" + std::to_string(::getpid()) + ".csv")) {}
  ~TemporaryFile() {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void run(const StudyCommandOptions& o) {
  WarmStartStudyOptions study = studyOptions(o);
  const std::vector<fs::path> files = recordingsOf(o.data);
  // Every recording is opened once before the long part, so an unreadable one stops the study
  // at once (read in full in a child process first, so that a file HDF5 itself cannot parse
  // gets an error, not a crash); one at a time, so that a large batch keeps few files open.
  long total = 0;
  for (const fs::path& file : files) {
    checkRecordingInChildProcess(file);
    total += RecordingReader(file).problemCount();
  }
  if (o.maxProblems >= 0) total = std::min(total, o.maxProblems);
  if (total == 0) throw std::runtime_error("the recordings hold no narrow-phase problem");

  std::optional<TemporaryFile> temporary;
  fs::path csvPath = o.csv;
  if (csvPath.empty() && !o.plot.empty()) csvPath = temporary.emplace().path();
  std::optional<StudyCsvWriter> csv;  // opened first: a bad path fails before the work
  if (!csvPath.empty()) csv.emplace(csvPath);

  const bench::TickClock clock;
  const std::size_t combinations = study.variants.size() * study.warmStarts.size();
  std::printf(
      "heavyball study warmstart: %zu recording%s, %ld problems x %zu combinations; Boolean "
      "collision checks (GJK Alg. 2) without support hints, %d timed solves each (time: mean "
      "of the lowest %.0f%%)\n",
      files.size(), files.size() == 1 ? "" : "s", total, combinations, o.repeats,
      100.0 * kKeptFraction);
  std::printf("clock: %s, %.1f ticks/us, %.4f us subtracted per measurement\n", clock.source(),
              clock.ticksPerMicrosecond(), clock.overheadMicroseconds());
  std::fflush(stdout);

  std::vector<double> samples(o.repeats);
  const SolveTimer timer = [&](const StudySolve& solve) {
    for (double& sample : samples) {
      const std::uint64_t t0 = bench::TickClock::now();
      const GjkResult r = solve();
      const std::uint64_t t1 = bench::TickClock::now();
      bench::doNotOptimize(r);
      sample = clock.microseconds(t0, t1);
    }
    return bench::meanOfLowest(samples, kKeptFraction);
  };

  WarmStartStudySummary summary;
  double collisionTolerance = 0.0;
  long done = 0;
  ProgressDisplay progress("problems", static_cast<int>(total), 0);
  try {
    for (const fs::path& file : files) {
      if (done >= total) break;
      const RecordingReader reader(file);
      study.maxProblems = total - done;
      const std::string name = file.string();
      done += studyRecording(reader, study, timer, [&](const StudyProblem& p) {
        summary.add(p);
        if (csv) csv->write(name, p);
        if (collisionTolerance == 0.0) collisionTolerance = p.collisionTolerance;
        progress.advance();
      });
    }
  } catch (...) {
    progress.finish();
    throw;
  }
  progress.finish();
  if (csv) csv->close();
  printStudyTable(summary, collisionTolerance);
  if (!o.csv.empty()) std::printf("csv: %s\n", o.csv.c_str());
  std::fflush(stdout);
  if (!o.plot.empty()) {
    plot(csvPath, o.plot);
    std::printf("plot: %s\n", o.plot.c_str());
  }
}

}  // namespace

void addStudyCommand(CLI::App& app) {
  CLI::App* studyCommand =
      app.add_subcommand("study", "Studies of recorded simulations (heavyball simulate --record)");
  studyCommand->require_subcommand(1);
  auto options = std::make_shared<StudyCommandOptions>();
  CLI::App* cmd = studyCommand->add_subcommand(
      "warmstart",
      "GJK++ paper, Fig. 13: every recorded narrow-phase problem as a Boolean collision check by "
      "each GJK variant from each warm start (docs/study.md)");
  cmd->add_option("data", options->data,
                  "Recordings (.h5) or batch directories (heavyball batch --record)")
      ->required()
      ->check(CLI::ExistingPath);
  cmd->add_option("--repeats", options->repeats,
                  "Timed solves per problem and combination; the time is the mean of the lowest "
                  "90%")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()))
      ->capture_default_str();
  cmd->add_option("--csv", options->csv,
                  std::string("Write one row per problem and combination (gzip-compressed when "
                              "the name ends with .gz): ") +
                      kStudyCsvHeader);
  cmd->add_option("--plot", options->plot,
                  "Plot the time distributions to this PNG (tools/plot.py warmstart)");
  cmd->add_option("--max-problems", options->maxProblems,
                  "Study only the first N problems (in recording order)")
      ->check(CLI::Range(1L, std::numeric_limits<long>::max()));
  cmd->add_option("--methods", options->methods, "GJK variants (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember({"gjk", "polyak", "nesterov", "auto"}))
      ->capture_default_str();
  cmd->add_option("--warm-starts", options->warmStarts, "Warm starts (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember({"none", "obb", "previous", "transformed"}))
      ->capture_default_str();
  cmd->callback([options] { run(*options); });
}

}  // namespace hb::cli
