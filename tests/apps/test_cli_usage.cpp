// Usage errors of the command line: one exit status (2), a suggestion for a misspelt command or
// option, and no silent overwrite of a recording; progress bars on a terminal only.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "run_command.hpp"

namespace {

using hb::test::heavyball;
using hb::test::runCommand;

TEST(CliUsage, AMisspeltCommandIsNamedWithTheNearestOne) {
  const hb::test::CommandRun run = runCommand(heavyball("simulat --seconds 1") + " 2>&1");
  EXPECT_EQ(run.exitCode, 2) << run.out;
  EXPECT_NE(run.out.find("unknown command 'simulat' (did you mean 'simulate'?)"), std::string::npos)
      << run.out;
  // A subcommand too, named with its command.
  const hb::test::CommandRun bench = runCommand(heavyball("bench gjkk --pairs 1") + " 2>&1");
  EXPECT_EQ(bench.exitCode, 2) << bench.out;
  EXPECT_NE(bench.out.find("unknown command 'bench gjkk' (did you mean 'bench gjk'?)"),
            std::string::npos)
      << bench.out;
  const hb::test::CommandRun study = runCommand(heavyball("study warmstrt runs/") + " 2>&1");
  EXPECT_EQ(study.exitCode, 2) << study.out;
  EXPECT_NE(study.out.find("unknown command 'study warmstrt' (did you mean 'study warmstart'?)"),
            std::string::npos)
      << study.out;
  const hb::test::CommandRun far = runCommand(heavyball("xyzzy") + " 2>&1");
  EXPECT_EQ(far.exitCode, 2) << far.out;
  EXPECT_NE(far.out.find("unknown command 'xyzzy'\n"), std::string::npos) << far.out;
}

TEST(CliUsage, AMisspeltOptionIsNamedWithTheNearestOne) {
  const hb::test::CommandRun run = runCommand(heavyball("simulate --secnds 1") + " 2>&1");
  EXPECT_EQ(run.exitCode, 2) << run.out;
  EXPECT_NE(run.out.find("unknown option '--secnds' (did you mean '--seconds'?)"),
            std::string::npos)
      << run.out;
  // The suggestion alone: not CLI11's list of the words it did not expect before it.
  EXPECT_EQ(run.out.find("not expected"), std::string::npos) << run.out;
  // Nor what follows from the misspelling: its value read as a path, the option meant missing.
  for (const char* args : {"study warmstart --methd x", "batch --scen a"}) {
    const hb::test::CommandRun other = runCommand(heavyball(args) + " 2>&1");
    EXPECT_EQ(other.exitCode, 2) << other.out;
    EXPECT_NE(other.out.find("did you mean"), std::string::npos) << other.out;
    EXPECT_EQ(other.out.find("does not exist"), std::string::npos) << other.out;
    EXPECT_EQ(other.out.find("is required"), std::string::npos) << other.out;
    EXPECT_NE(other.out.find("Run with --help"), std::string::npos) << other.out;
  }
  // Options of the command given, in the --name=value form too.
  const hb::test::CommandRun nested = runCommand(heavyball("bench gjk --tabel=peers") + " 2>&1");
  EXPECT_EQ(nested.exitCode, 2) << nested.out;
  EXPECT_NE(nested.out.find("unknown option '--tabel' (did you mean '--table'?)"),
            std::string::npos)
      << nested.out;
}

TEST(CliUsage, EveryUsageErrorExitsWithTwo) {
  // An input file or folder that does not exist is a bad option value, in every command.
  for (const char* args :
       {"", "simulate", "simulate --bogus", "query --tolerance", "bench nope",
        "simulate --scene /nonexistent.json", "inspect /nonexistent.h5",
        "study warmstart /nonexistent.h5", "query --input /nonexistent.jsonl",
        "batch --scene /nonexistent.json --runs 1 --out /tmp/never", "batch-merge /nonexistent",
        "bench sim --scene /nonexistent.json", "bench gjk --mesh-dir /nonexistent"}) {
    const hb::test::CommandRun run = runCommand(heavyball(args) + " 2>&1");
    EXPECT_EQ(run.exitCode, 2) << args << "\n" << run.out;
  }
  for (const char* args : {"--help", "--version", "simulate --help"}) {
    EXPECT_EQ(runCommand(heavyball(args) + " 2>&1").exitCode, 0) << args;
  }
  // A file whose contents are wrong is not the command line's fault: a runtime error, 1.
  const std::filesystem::path bad = std::filesystem::path(::testing::TempDir()) / "hb-bad-dt.json";
  std::ofstream(bad) << R"({"dt": -1})";
  const hb::test::CommandRun run =
      runCommand(heavyball("simulate --scene '" + bad.string() + "'") + " 2>&1");
  EXPECT_EQ(run.exitCode, 1) << run.out;
  EXPECT_NE(run.out.find("dt: expected"), std::string::npos) << run.out;
  std::filesystem::remove(bad);
  // The statuses are documented where a user looks first.
  const std::string help = runCommand(heavyball("--help")).out;
  EXPECT_NE(help.find("2 on a usage error"), std::string::npos) << help;
  EXPECT_NE(help.find("a scene with a bad value"), std::string::npos) << help;
}

TEST(CliUsage, LongCommandsDrawProgressOnATerminalOnly) {
  const std::string scene = std::string(HB_SOURCE_DIR) + "/assets/scenes/funnel-pair.json";
  struct Case {
    std::string command, onTerminal;
  };
  for (const Case& c :
       {Case{heavyball("simulate --seconds 0.5 --scene '" + scene + "'"), "60/60 steps"},
        Case{heavyball("bench gjk --pairs 1 --poses 4 --repeats 1"), "4/4 bench gjk poses"}}) {
    // script(1) runs the command on a pseudo-terminal.
    const hb::test::CommandRun terminal = runCommand("script -qec \"" + c.command + "\" /dev/null");
    ASSERT_EQ(terminal.exitCode, 0) << c.command << "\n" << terminal.out;
    EXPECT_NE(terminal.out.find(c.onTerminal), std::string::npos) << terminal.out;
    // A pipe or a log gets the command's output alone.
    const hb::test::CommandRun piped = runCommand(c.command + " 2>&1");
    ASSERT_EQ(piped.exitCode, 0) << c.command << "\n" << piped.out;
    EXPECT_EQ(piped.out.find("elapsed"), std::string::npos) << piped.out;
    EXPECT_EQ(piped.out.find('\r'), std::string::npos) << piped.out;
  }
}

TEST(CliUsage, ARecordingIsNotOverwrittenUnlessAskedTo) {
  const std::string scene = std::string(HB_SOURCE_DIR) + "/assets/scenes/funnel-pair.json";
  const std::filesystem::path file =
      std::filesystem::path(::testing::TempDir()) / "hb-cli-usage-overwrite.h5";
  std::filesystem::remove(file);
  const std::string record =
      "simulate --seconds 0.05 --scene '" + scene + "' --record '" + file.string() + "'";
  ASSERT_EQ(runCommand(heavyball(record) + " 2>&1").exitCode, 0);
  const auto written = std::filesystem::last_write_time(file);
  const hb::test::CommandRun again = runCommand(heavyball(record) + " 2>&1");
  EXPECT_EQ(again.exitCode, 2) << again.out;
  EXPECT_NE(again.out.find("exists (--overwrite replaces it)"), std::string::npos) << again.out;
  EXPECT_EQ(std::filesystem::last_write_time(file), written);
  EXPECT_EQ(runCommand(heavyball(record + " --overwrite") + " 2>&1").exitCode, 0);
  EXPECT_EQ(runCommand(heavyball(record + " --force") + " 2>&1").exitCode, 0);
  std::filesystem::remove(file);
}

}  // namespace
