// libFuzzer target: a recording file read in full (metadata, bodies, every step's states and
// problems). Every input is read or rejected with a RecordingError naming the file.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/recording_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("hb-fuzz-recording-" + std::to_string(::getpid()) + ".h5");
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const hb::RecordingReader reader(file);
    for (long i = 0; i < reader.stepCount(); ++i) reader.states(i);
    reader.forEachProblem([](const hb::RecordedProblem&) {});
  } catch (const hb::RecordingError&) {
  }
  return 0;
}
