#include "engine/recording/recording_check.hpp"

#include <string>

#include "engine/child_process.hpp"
#include "engine/recording/recording_error.hpp"
#include "engine/recording/recording_reader.hpp"

namespace hb {

double recordingCheckTimeout(std::uintmax_t bytes) {
  return 60.0 + 5.0 * static_cast<double>(bytes) / 1e6;
}

void checkRecordingInChildProcess(const std::filesystem::path& file, double timeoutSeconds) {
  if (timeoutSeconds <= 0.0) {
    std::error_code error;
    const std::uintmax_t bytes = std::filesystem::file_size(file, error);
    timeoutSeconds = recordingCheckTimeout(error ? 0 : bytes);
  }
  const ChildOutcome outcome = runInChildProcess(
      [&] {
        const RecordingReader reader(file);
        for (long i = 0; i < reader.stepCount(); ++i) reader.states(i);
        reader.forEachProblem([](const RecordedProblem&) {});
      },
      timeoutSeconds);
  const std::string name = "recording " + file.string() + ": ";
  switch (outcome.kind) {
    case ChildOutcome::Kind::Finished:
      return;
    case ChildOutcome::Kind::Threw:
      throw RecordingError(outcome.message);
    case ChildOutcome::Kind::Crashed:
      throw RecordingError(name + "HDF5 failed reading it (" + outcome.describeCrash() +
                           "): the file is damaged or crafted");
    case ChildOutcome::Kind::TimedOut:
      throw RecordingError(name + "reading it did not finish within " +
                           std::to_string(static_cast<long>(timeoutSeconds)) +
                           " s (a damaged or crafted HDF5 structure?)");
    case ChildOutcome::Kind::NotStarted:
      throw RecordingError(name + "cannot start the process that checks it: " + outcome.message);
  }
}

}  // namespace hb
