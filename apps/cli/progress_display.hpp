#pragma once
// Progress of a long job on stderr: on a terminal, a bar redrawn in place (runs done/total, rate,
// ETA); otherwise (logs of cluster jobs, pipes) a plain line every few seconds.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace hb::cli {

class ProgressDisplay {
 public:
  /// `total` items, of which `alreadyDone` were done before (they count as done, not in the rate).
  ProgressDisplay(std::string what, int total, int alreadyDone);
  ~ProgressDisplay();
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

  /// A bar for a long run of `total` steps when stderr is a terminal, else none: a log or a
  /// pipe gets the command's output alone.
  static std::unique_ptr<ProgressDisplay> onTerminalOnly(const std::string& what, long total);

  /// One more item done; callable from any thread.
  void advance();
  /// Draws the final state and stops redrawing.
  void finish();

 private:
  void loop();
  void draw(bool final);
  std::string status() const;

  using Clock = std::chrono::steady_clock;
  std::string what_;
  int total_ = 0;
  int alreadyDone_ = 0;
  bool terminal_ = false;
  Clock::time_point start_;
  std::atomic<int> doneNow_{0};
  std::atomic<Clock::rep> firstDone_{0};  // since start_, when the first item was done
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace hb::cli
