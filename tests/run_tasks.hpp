#pragma once
// Two ways of running a pool's tasks in the tests (the solver's team, the broad phase's slices):
// each on a thread of its own, all at once; or one after the other from the last, as when a busy
// machine starts all but one late.

#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace hb::test {

/// Runs each task on a thread of its own, all at once.
inline void threadPerTask(std::size_t count, const std::function<void(std::size_t)>& task) {
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < count; ++t) threads.emplace_back([&, t] { task(t); });
  for (std::thread& thread : threads) thread.join();
}

/// Runs the tasks one after the other, the last first.
inline void lastTaskFirst(std::size_t count, const std::function<void(std::size_t)>& task) {
  for (std::size_t t = count; t-- > 0;) task(t);
}

}  // namespace hb::test
