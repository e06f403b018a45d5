#include "engine/input_file.hpp"

#include <fstream>
#include <iterator>
#include <sstream>

namespace hb {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void throwInputFileError(const fs::path& file, const std::string& what) {
  throw InputFileError(file.string() + ": " + what);
}

std::string mebibytes(std::uintmax_t bytes) {
  std::ostringstream text;
  text << static_cast<double>(bytes) / (1 << 20) << " MiB";
  return text.str();
}

}  // namespace

void requireRegularFile(const fs::path& file) {
  std::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (!fs::exists(status)) throwInputFileError(file, "no such file");
  if (fs::is_directory(status)) throwInputFileError(file, "is a directory, not a file");
  if (!fs::is_regular_file(status)) {
    throwInputFileError(file,
                        "not a regular file (a device, FIFO or socket cannot be read as one)");
  }
}

std::string readInputFile(const fs::path& file, std::uintmax_t limit) {
  requireRegularFile(file);
  const auto tooLarge = [&] {
    throwInputFileError(file, "larger than " + mebibytes(limit) + ", the limit for this file");
  };
  std::error_code error;
  const std::uintmax_t size = fs::file_size(file, error);
  if (!error && size > limit) tooLarge();
  std::ifstream in(file, std::ios::binary);
  if (!in) throwInputFileError(file, "cannot open file for reading");
  std::string text;
  text.reserve(static_cast<std::size_t>(error ? 0 : size));
  // Read at most one byte past the limit: a file that grows while it is read is still bounded.
  std::istreambuf_iterator<char> it(in), end;
  for (; it != end && text.size() <= limit; ++it) text.push_back(*it);
  if (in.bad()) throwInputFileError(file, "read error");
  if (text.size() > limit) tooLarge();
  return text;
}

LineRead readBoundedLine(std::istream& in, std::string& line, std::size_t limit) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  bool tooLong = false, any = false;
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      if (!any) return LineRead::End;
      break;
    }
    any = true;
    if (c == '\n') break;
    if (line.size() < limit) {
      line.push_back(static_cast<char>(c));
    } else {
      tooLong = true;
    }
  }
  if (tooLong) line.clear();
  return tooLong ? LineRead::TooLong : LineRead::Line;
}

}  // namespace hb
