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

}  // namespace hb::test
