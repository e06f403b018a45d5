#include "engine/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>

namespace hb {
namespace {

// The child's exit codes for the outcomes it reports itself; any other end is a crash.
constexpr int kFinished = 0;
constexpr int kThrew = 3;

[[noreturn]] void runChild(const std::function<void()>& work, int messageFd) {
  const rlimit noCore{0, 0};
  ::setrlimit(RLIMIT_CORE, &noCore);
  const int devNull = ::open("/dev/null", O_WRONLY);
  if (devNull >= 0) {
    ::dup2(devNull, STDOUT_FILENO);
    ::dup2(devNull, STDERR_FILENO);
  }
  int code = kFinished;
  std::string message;
  try {
    work();
  } catch (const std::exception& e) {
    code = kThrew;
    message = e.what();
  } catch (...) {
    code = kThrew;
    message = "an exception that is not a std::exception";
  }
  for (size_t written = 0; written < message.size();) {
    const ssize_t n = ::write(messageFd, message.data() + written, message.size() - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  // No destructors, no atexit handlers: they belong to the parent.
  ::_exit(code);
}

}  // namespace

std::string ChildOutcome::describeCrash() const {
  if (signal != 0) {
    const char* name = ::strsignal(signal);
    return std::string(name ? name : "signal") + " (signal " + std::to_string(signal) + ")";
  }
  return "exit status " + std::to_string(exitStatus);
}

ChildOutcome runInChildProcess(const std::function<void()>& work, double timeoutSeconds) {
  ChildOutcome outcome;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    outcome.kind = ChildOutcome::Kind::NotStarted;
    outcome.message = std::string("pipe: ") + std::strerror(errno);
    return outcome;
  }
  const pid_t child = ::fork();
  if (child < 0) {
    outcome.kind = ChildOutcome::Kind::NotStarted;
    outcome.message = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return outcome;
  }
  if (child == 0) {
    ::close(fds[0]);
    runChild(work, fds[1]);
  }
  ::close(fds[1]);
  // The child's message, until it closes the pipe by exiting, or the time is up.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
  bool timedOut = false;
  for (;;) {
    // Rounded up: a child is never stopped before its time (truncated, the last millisecond
    // counted as none).
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready <= 0) continue;  // time passed, or a signal interrupted the wait
    char buffer[4096];
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    outcome.message.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (timedOut) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut) {
    outcome.kind = ChildOutcome::Kind::TimedOut;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == kFinished) {
    outcome.kind = ChildOutcome::Kind::Finished;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == kThrew) {
    outcome.kind = ChildOutcome::Kind::Threw;
  } else {
    outcome.kind = ChildOutcome::Kind::Crashed;
    outcome.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    outcome.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
  }
  return outcome;
}

}  // namespace hb
