// Work run in a child process: its return, its exception, its crash and its hang each reach the
// caller as an outcome; and a recording that HDF5 itself reads past a buffer leaves the caller
// standing.

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "engine/child_process.hpp"
#include "engine/recording/recording_check.hpp"
#include "engine/recording/recording_error.hpp"
#include "engine/recording/recording_reader.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;
using Kind = ChildOutcome::Kind;

TEST(ChildProcess, WorkThatReturnsFinishes) {
  const ChildOutcome outcome = runInChildProcess([] {}, 10.0);
  EXPECT_EQ(outcome.kind, Kind::Finished);
  EXPECT_EQ(outcome.message, "");
}

TEST(ChildProcess, AnExceptionComesBackWithItsMessage) {
  const ChildOutcome outcome =
      runInChildProcess([] { throw std::runtime_error("the file is bad"); }, 10.0);
  EXPECT_EQ(outcome.kind, Kind::Threw);
  EXPECT_EQ(outcome.message, "the file is bad");
}

TEST(ChildProcess, ACrashIsReportedAndTheCallerLivesOn) {
  // Under AddressSanitizer the sanitizer catches the signal and exits with its own status.
  for (const int signal : {SIGSEGV, SIGABRT, SIGBUS}) {
    const ChildOutcome outcome = runInChildProcess([signal] { std::raise(signal); }, 10.0);
    EXPECT_EQ(outcome.kind, Kind::Crashed) << signal;
    EXPECT_TRUE(outcome.signal == signal || outcome.exitStatus != 0) << outcome.describeCrash();
    EXPECT_FALSE(outcome.describeCrash().empty());
  }
  const ChildOutcome exited = runInChildProcess([] { std::_Exit(7); }, 10.0);
  EXPECT_EQ(exited.kind, Kind::Crashed);
  EXPECT_EQ(exited.exitStatus, 7);
  EXPECT_EQ(exited.describeCrash(), "exit status 7");
}

TEST(ChildProcess, AHangIsKilledAtTheTimeLimit) {
  const auto start = std::chrono::steady_clock::now();
  const ChildOutcome outcome = runInChildProcess(
      [] {
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      },
      0.3);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(outcome.kind, Kind::TimedOut);
  EXPECT_GE(seconds, 0.3);
  EXPECT_LT(seconds, 5.0);
}

TEST(RecordingCheck, AGoodRecordingPassesAndABadOneKeepsTheReadersMessage) {
  const fs::path good = fs::path(HB_SOURCE_DIR) / "tests/engine/data/recording-version-1.h5";
  EXPECT_NO_THROW(checkRecordingInChildProcess(good));
  try {
    checkRecordingInChildProcess(fs::path(HB_SOURCE_DIR) / "tests/engine/data/no-such.h5");
    FAIL() << "a missing file passed";
  } catch (const RecordingError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such.h5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
  }
}

// Found by fuzz_recording: libhdf5 1.10.8 reads this file's damaged object header past its
// buffer (H5O__msg_iterate_real under H5Aexists). Without a sanitizer the over-read goes
// unnoticed and the file reads; with one, the child dies. Either way the caller goes on.
TEST(RecordingCheck, AFileHdf5ReadsPastItsBufferLeavesTheCallerStanding) {
  const fs::path file =
      fs::path(HB_SOURCE_DIR) / "tests/engine/data/recording-hdf5-header-overflow.h5";
  try {
    checkRecordingInChildProcess(file);
    // It read cleanly in the child, so it does here.
    const RecordingReader reader(file);
    for (long i = 0; i < reader.stepCount(); ++i) reader.states(i);
  } catch (const RecordingError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hb
