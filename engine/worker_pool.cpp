#include "engine/worker_pool.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

namespace hb {
namespace {

// Fewer items than this run on the calling thread: handing out a task costs about a
// microsecond, a narrow-phase pair about as much.
constexpr std::size_t kSerialBelow = 16;
// Items per task: small enough that the workers share uneven items (a deep pair's EPA costs a
// hundred shallow ones), large enough that handing them out stays cheap.
constexpr std::size_t kGrain = 8;

}  // namespace

struct WorkerPool::Arena {
  explicit Arena(int threads) : arena(threads) {}
  tbb::task_arena arena;
};

WorkerPool::WorkerPool(int threads) {
  if (threads < 0) {
    throw std::invalid_argument("threads: " + std::to_string(threads) +
                                " is negative (0: one per core)");
  }
  threads_ = threads == 0 ? machineThreads() : threads;
  if (threads_ > 1) arena_ = std::make_unique<Arena>(threads_);
}

WorkerPool::~WorkerPool() = default;
WorkerPool::WorkerPool(WorkerPool&&) noexcept = default;
WorkerPool& WorkerPool::operator=(WorkerPool&&) noexcept = default;

int WorkerPool::machineThreads() {
  return std::max(1, tbb::info::default_concurrency());
}

void WorkerPool::forEach(std::size_t count, const std::function<void(std::size_t)>& item) {
  if (!arena_ || count < kSerialBelow) {
    for (std::size_t i = 0; i < count; ++i) item(i);
    return;
  }
  run(count, kGrain, item);
}

void WorkerPool::runTasks(std::size_t count, const std::function<void(std::size_t)>& task) {
  if (!arena_ || count < 2) {
    for (std::size_t i = 0; i < count; ++i) task(i);
    return;
  }
  run(count, 1, task);
}

void WorkerPool::run(std::size_t count, std::size_t grain,
                     const std::function<void(std::size_t)>& item) {
  // More workers than cores (to show that the count does not change results) need the
  // process's worker limit raised while they run.
  std::optional<tbb::global_control> limit;
  if (threads_ > machineThreads()) {
    limit.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads_));
  }
  arena_->arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, grain),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i != range.end(); ++i) item(i);
                      });
  });
}

}  // namespace hb
