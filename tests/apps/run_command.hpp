#pragma once
// Runs a shell command for the end-to-end CLI tests: its standard output and exit code.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace hb::test {

struct CommandRun {
  int exitCode = -1;
  std::string out;
};

/// `heavyball` with these arguments, as a shell command line (HB_CLI_PATH is the built binary).
inline std::string heavyball(const std::string& args) {
  return std::string("'") + HB_CLI_PATH + "' " + args;
}

inline CommandRun runCommand(const std::string& command) {
  CommandRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buffer;
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    run.out.append(buffer.data(), n);
  }
  const int status = ::pclose(pipe);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

/// `heavyball` with these arguments: its output and errors together, and its exit code.
inline CommandRun runCli(const std::string& args) {
  return runCommand(heavyball(args) + " 2>&1");
}

/// The same in the repository root (for the shipped scenes' relative paths); its errors join its
/// output when `withErrors`.
inline CommandRun runCliInSource(const std::string& args, bool withErrors = false) {
  return runCommand(std::string("cd '") + HB_SOURCE_DIR + "' && " + heavyball(args) +
                    (withErrors ? " 2>&1" : " 2>/dev/null"));
}

/// The test data of the command-line suite: a short funnel scene for batches.
inline const std::string kBatchScene = std::string(HB_APPS_TEST_DATA) + "/batch-funnel.json";

}  // namespace hb::test
