#pragma once
// Work that may crash or hang, run in a forked child process so that the caller survives it.

#include <functional>
#include <string>

namespace hb {

struct ChildOutcome {
  enum class Kind {
    Finished,   ///< the work returned
    Threw,      ///< the work threw; `message` is the exception's what()
    Crashed,    ///< killed by a signal (`signal`) or exited otherwise (`exitStatus`, e.g. a
                ///< sanitizer)
    TimedOut,   ///< still running after the time limit; it was killed
    NotStarted  ///< fork or pipe failed; `message` says why
  };
  Kind kind = Kind::Finished;
  std::string message;
  int signal = 0;
  int exitStatus = 0;
  /// "segmentation fault (signal 11)", "exit status 1", ...: what Crashed means here.
  std::string describeCrash() const;
};

/// Runs `work` in a forked child (POSIX), its standard output and error sent to /dev/null and
/// without a core file, and waits at most `timeoutSeconds`. The child has only the calling
/// thread: call this where no other thread holds a lock the work needs (HDF5's state, ...).
ChildOutcome runInChildProcess(const std::function<void()>& work, double timeoutSeconds);

}  // namespace hb
