#pragma once
// Runs jobs on one background thread, in the order submitted: the recorder's compression and
// disk writes overlap the simulation instead of stalling it. A bounded queue keeps memory
// bounded: a producer faster than the disk blocks in submit(). The first job that throws stops
// the queue; its exception is rethrown to the producer by the next submit() or finish().

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace hb {

class BackgroundWriter {
 public:
  explicit BackgroundWriter(std::size_t maxQueued = 16);
  /// Finishes the queued jobs (errors are dropped: call finish() to see them).
  ~BackgroundWriter();
  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;

  /// Queues a job; blocks while the queue is full.
  void submit(std::function<void()> job);
  /// Waits until every queued job has run and stops the thread; rethrows a job's exception.
  /// Later submit() calls throw std::logic_error.
  void finish();

 private:
  void run();
  void rethrowError();

  std::size_t maxQueued_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace hb
