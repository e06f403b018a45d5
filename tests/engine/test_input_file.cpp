// Bounded input: whole files only when regular and within a size, lines only up to a length
// (a longer one is dropped whole and reported), whatever the input.

#include "engine/input_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>

#include "temp_dir_test.hpp"

namespace hb {
namespace {

namespace fs = std::filesystem;

class InputFile : public test::TempDirTest {
 protected:
  InputFile() : TempDirTest("hb_input_file_") {}
};

std::string errorOf(const fs::path& file, std::uintmax_t limit = kMaxInputFileBytes) {
  try {
    readInputFile(file, limit);
  } catch (const InputFileError& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(InputFile, RegularFilesWithinTheLimitAreReadWhole) {
  const fs::path file = write("a.txt", "0123456789");
  EXPECT_EQ(readInputFile(file, 10), "0123456789");
  EXPECT_EQ(errorOf(file, 9).rfind(file.string() + ": larger than ", 0), 0u) << errorOf(file, 9);
  EXPECT_EQ(readInputFile(write("empty.txt", "")), "");
}

TEST_F(InputFile, AnythingButARegularFileIsRefusedByName) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  for (const fs::path& file : {fs::path("/dev/zero"), dir_ / "fifo"}) {
    EXPECT_EQ(errorOf(file), file.string() +
                                 ": not a regular file (a device, FIFO or socket cannot be read "
                                 "as one)");
  }
  EXPECT_EQ(errorOf(dir_), dir_.string() + ": is a directory, not a file");
  EXPECT_EQ(errorOf(dir_ / "absent"), (dir_ / "absent").string() + ": no such file");
}

TEST(BoundedLine, LongerLinesAreDroppedWholeAndTheNextOneReadAsUsual) {
  std::istringstream in("short\n" + std::string(100, 'x') + "\nnext\n\nlast");
  std::string line;
  EXPECT_EQ(readBoundedLine(in, line, 10), LineRead::Line);
  EXPECT_EQ(line, "short");
  EXPECT_EQ(readBoundedLine(in, line, 10), LineRead::TooLong);
  EXPECT_TRUE(line.empty());
  EXPECT_EQ(readBoundedLine(in, line, 10), LineRead::Line);
  EXPECT_EQ(line, "next");
  EXPECT_EQ(readBoundedLine(in, line, 10), LineRead::Line);
  EXPECT_EQ(line, "");
  EXPECT_EQ(readBoundedLine(in, line, 10), LineRead::Line);  // no final newline
  EXPECT_EQ(line, "last");
  EXPECT_EQ(readBoundedLine(in, line, 10), LineRead::End);
  // Exactly the limit is a line.
  std::istringstream exact(std::string(10, 'y'));
  EXPECT_EQ(readBoundedLine(exact, line, 10), LineRead::Line);
  EXPECT_EQ(line.size(), 10u);
}

}  // namespace
}  // namespace hb
