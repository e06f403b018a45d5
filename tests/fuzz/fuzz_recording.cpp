// libFuzzer target: a recording file checked as the commands check it (read in full in a child
// process, engine/recording/recording_check.hpp), then, when it passed, read in full here. Every
// input is read or rejected with a RecordingError naming the file; HDF5's own crashes on a damaged
// structure stay in the child.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/recording/recording_check.hpp"
#include "engine/recording/recording_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("hb-fuzz-recording-" + std::to_string(::getpid()) + ".h5");
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    hb::checkRecordingInChildProcess(file, 10.0);
    const hb::RecordingReader reader(file);
    for (long i = 0; i < reader.stepCount(); ++i) reader.states(i);
    reader.forEachProblem([](const hb::RecordedProblem&) {});
  } catch (const hb::RecordingError&) {
  }
  return 0;
}
