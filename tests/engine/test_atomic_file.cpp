// Files written whole or not at all: the target appears complete, and a write that fails (a full
// disk, here a file-size limit) leaves neither the target nor the temporary behind.

#include "engine/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <string>

#include "temp_dir_test.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;

class AtomicFile : public test::TempDirTest {
 protected:
  AtomicFile() : TempDirTest("hb_atomic_file_") {}
};

TEST_F(AtomicFile, TheTargetAppearsWholeAndTheTemporaryIsGone) {
  writeFileAtomically(dir_ / "index.csv", dir_ / "index.csv.part", "a,b\n1,2\n");
  std::ifstream in(dir_ / "index.csv");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "a,b\n1,2\n");
  EXPECT_FALSE(fs::exists(dir_ / "index.csv.part"));
}

TEST_F(AtomicFile, AWriteThatFailsLeavesNoTemporaryBehind) {
  // In a child: a file-size limit of 1 KB makes the write fail (EFBIG), as a full disk would
  // (ENOSPC); the child reports 0 when the error was thrown and nothing was left.
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1024, 1024};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    bool threw = false;
    try {
      writeFileAtomically(dir_ / "index.csv", dir_ / "index.csv.part", std::string(10000, 'x'));
    } catch (const std::runtime_error& e) {
      threw = std::string(e.what()).find("cannot write") != std::string::npos;
    }
    const bool clean = !fs::exists(dir_ / "index.csv.part") && !fs::exists(dir_ / "index.csv");
    ::_exit(threw && clean ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace hb
