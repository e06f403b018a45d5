#include "engine/recording/background_writer.hpp"

#include <stdexcept>

namespace hb {

BackgroundWriter::BackgroundWriter(std::size_t maxQueued)
    : maxQueued_(maxQueued), thread_([this] { run(); }) {}

BackgroundWriter::~BackgroundWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void BackgroundWriter::submit(std::function<void()> job) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < maxQueued_ || error_ || stopping_; });
  if (stopping_) throw std::logic_error("BackgroundWriter: submit() after finish()");
  rethrowError();
  queue_.push_back(std::move(job));
  changed_.notify_all();
}

void BackgroundWriter::finish() {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return (queue_.empty() && !busy_) || error_; });
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  rethrowError();
}

void BackgroundWriter::rethrowError() {
  if (error_) std::rethrow_exception(error_);
}

void BackgroundWriter::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      // Stopping still drains the queue, unless a job failed (the rest would build on it).
      if (queue_.empty() || error_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    try {
      job();
    } catch (...) {
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
    }
    {
      std::lock_guard lock(mutex_);
      busy_ = false;
    }
    changed_.notify_all();
  }
}

}  // namespace hb
