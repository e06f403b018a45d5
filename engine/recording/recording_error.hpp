#pragma once
// The error of reading or writing a recording (engine/recording/recorder.hpp,
// engine/recording/recording_reader.hpp): the message names the file and what is wrong with it.

#include <stdexcept>

namespace hb {

class RecordingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hb
