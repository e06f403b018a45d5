// The step's workers (engine/worker_pool.hpp): every item runs exactly once, on any count.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/worker_pool.hpp"

namespace hb {
namespace {

TEST(WorkerPool, RunsEveryItemOnceOnAnyCount) {
  for (const int threads : {1, 2, 4, 7}) {
    WorkerPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (const std::size_t count : {0, 1, 15, 16, 17, 1000, 100000}) {
      std::vector<std::atomic<int>> runs(count);
      pool.forEach(count, [&](std::size_t i) { runs[i].fetch_add(1); });
      for (std::size_t i = 0; i < count; ++i) {
        ASSERT_EQ(runs[i].load(), 1)
            << "threads " << threads << ", count " << count << ", item " << i;
      }
    }
  }
}

TEST(WorkerPool, ZeroMeansOnePerCore) {
  EXPECT_GE(WorkerPool::machineThreads(), 1);
  EXPECT_EQ(WorkerPool(0).threads(), WorkerPool::machineThreads());
}

TEST(WorkerPool, RefusesANegativeCount) {
  EXPECT_THROW(WorkerPool(-1), std::invalid_argument);
}

TEST(WorkerPool, ManyShortJobsInARowRunEachItemOnce) {
  // Jobs follow each other faster than a worker wakes: each must still run every item once,
  // whether a worker joins it early, late or not at all.
  for (const int threads : {2, 4}) {
    WorkerPool pool(threads);
    std::vector<std::atomic<int>> runs(64);
    constexpr int kJobs = 20000;
    for (int job = 0; job < kJobs; ++job) {
      const std::size_t count = 16 + static_cast<std::size_t>(job % 49);
      pool.forEach(count, [&](std::size_t i) { runs[i].fetch_add(1); });
    }
    int expected[64] = {};
    for (int job = 0; job < kJobs; ++job) {
      for (int i = 0; i < 16 + job % 49; ++i) ++expected[i];
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
      ASSERT_EQ(runs[i].load(), expected[i]) << "threads " << threads << ", item " << i;
    }
  }
}

TEST(WorkerPool, WorkersThatFellAsleepWakeForTheNextJob) {
  WorkerPool pool(2);
  for (int round = 0; round < 5; ++round) {
    // Longer than the workers spin before they sleep.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::atomic<int> total{0};
    pool.runTasks(2, [&](std::size_t) { total.fetch_add(1); });
    EXPECT_EQ(total.load(), 2);
  }
}

TEST(WorkerPool, AnItemsExceptionReachesTheCaller) {
  WorkerPool pool(2);
  EXPECT_THROW(pool.forEach(1000,
                            [](std::size_t i) {
                              if (i == 500) throw std::runtime_error("item 500");
                            }),
               std::runtime_error);
  // The pool still works afterwards.
  std::atomic<int> total{0};
  pool.forEach(100, [&](std::size_t) { total.fetch_add(1); });
  EXPECT_EQ(total.load(), 100);
}

}  // namespace
}  // namespace hb
