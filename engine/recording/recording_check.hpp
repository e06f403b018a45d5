#pragma once
// A recording from elsewhere, read in full in a child process before it is opened for real.
//
// heavyball checks every value it reads from a recording, but HDF5 parses the file's structure
// (object headers, B-trees, chunk indices) itself, and Debian's libhdf5 1.10.8 reads some
// damaged object headers past their buffer. The child takes that risk: a crash, a sanitizer
// report or a hang there becomes a RecordingError naming the file, and the caller lives on.

#include <cstdint>
#include <filesystem>

namespace hb {

/// Reads `file` in full (metadata, every step's states and problems) in a forked child process
/// (engine/child_process.hpp). Returns when it reads cleanly; throws RecordingError with the
/// reader's own message when the reader rejects the file, or naming what happened when HDF5
/// crashed on it or the read took longer than `timeoutSeconds` (0: recordingCheckTimeout()).
void checkRecordingInChildProcess(const std::filesystem::path& file, double timeoutSeconds = 0);

/// The default time limit for a file of `bytes`: a minute, plus 5 s per MB (a full read runs at
/// about 80 MB/s on the development machine).
double recordingCheckTimeout(std::uintmax_t bytes);

}  // namespace hb
