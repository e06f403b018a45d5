#pragma once
// The workers one World's step runs its independent items on (the narrow phase of each pair, the
// contacts of each pair). An item writes only its own slot, and whatever the items add up to is
// combined afterwards in item order, so that every thread count gives the same bits
// (docs/design.md, "One world on every core").

#include <cstddef>
#include <functional>
#include <memory>

namespace hb {

class WorkerPool {
 public:
  /// `threads` workers; 0: one per core of the machine.
  explicit WorkerPool(int threads = 1);
  ~WorkerPool();
  WorkerPool(WorkerPool&&) noexcept;
  WorkerPool& operator=(WorkerPool&&) noexcept;

  int threads() const { return threads_; }
  /// Calls item(i) for every i in [0, count), on up to threads() workers at once, and returns
  /// when all are done. Items must not touch each other's data. A few items run on the calling
  /// thread alone (a task costs more than a small item).
  void forEach(std::size_t count, const std::function<void(std::size_t)>& item);
  /// Runs task(0), ..., task(count - 1) as tasks of their own, at once as far as workers are
  /// free, and returns when all are done: for tasks that share work among themselves (a task
  /// must never wait for another to start, which a busy machine may delay or run after it).
  void runTasks(std::size_t count, const std::function<void(std::size_t)>& task);

  /// The number of cores this process may run on.
  static int machineThreads();

 private:
  void run(std::size_t count, std::size_t grain, const std::function<void(std::size_t)>& item);

  struct Arena;
  int threads_ = 1;
  std::unique_ptr<Arena> arena_;  // none with one thread
};

}  // namespace hb
