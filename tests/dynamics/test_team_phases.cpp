// runTeamPhase (dynamics/team_phases.hpp): a team works through phases of items, each worker
// claiming from its own range first and then from the others'. Every item of every phase runs
// exactly once and no item of a phase starts before the one before it is done, whether the
// workers run at once on threads or one after the other (a worker that never starts leaves
// nothing undone); a worker begins with its own range; a claim of the whole phase keeps it on
// one worker, in order.

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "dynamics/team_phases.hpp"

namespace hb {
namespace {

struct Visits {
  explicit Visits(int phases, int items) : count(phases * items) {
    for (auto& c : count) c.store(0);
  }
  std::vector<std::atomic<int>> count;
};

/// Runs `phases` phases of `items` items on `workers` workers, at once on threads or one after
/// the other, and checks each item ran once, after every item of the phase before.
void runAndCheck(int workers, int phases, int items, int claim, bool together) {
  TeamPhases team;
  team.ready(static_cast<std::size_t>(phases), workers);
  Visits visits(phases, items);
  std::atomic<int> finished{0};  // items of all phases so far
  std::atomic<bool> outOfOrder{false};
  const auto worker = [&](int w) {
    for (int p = 0; p < phases; ++p) {
      runTeamPhase(team, static_cast<std::size_t>(p), w, items, claim, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
          if (finished.load() < p * items) outOfOrder = true;
          visits.count[p * items + i].fetch_add(1);
          finished.fetch_add(1);
        }
      });
    }
  };
  if (together) {
    std::vector<std::jthread> threads;
    for (int w = 0; w < workers; ++w) threads.emplace_back(worker, w);
  } else {
    for (int w = workers - 1; w >= 0; --w) worker(w);
  }
  for (int i = 0; i < phases * items; ++i) {
    ASSERT_EQ(visits.count[i].load(), 1) << "item " << i % items << " of phase " << i / items;
  }
  EXPECT_FALSE(outOfOrder);
}

TEST(TeamPhases, EveryItemRunsOnceAfterThePhaseBefore) {
  for (const int workers : {1, 2, 3, 4}) {
    for (const int items : {1, 2, 5, 37, 200}) {
      for (const int claim : {1, 3, 16, items}) {
        SCOPED_TRACE(testing::Message()
                     << workers << " workers, " << items << " items, claims of " << claim);
        runAndCheck(workers, 20, items, claim, /*together=*/true);
        runAndCheck(workers, 20, items, claim, /*together=*/false);
      }
    }
  }
}

TEST(TeamPhases, AWorkerBeginsWithItsOwnRange) {
  // Alone, worker 2 of 4 takes items [50, 75) of 100 first, then 75..99, then 0..49.
  TeamPhases team;
  team.ready(1, 4);
  std::vector<int> order;
  runTeamPhase(team, 0, 2, 100, 5, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) order.push_back(i);
  });
  ASSERT_EQ(order.size(), 100u);
  EXPECT_EQ(order.front(), 50);
  EXPECT_EQ(order[24], 74);
  EXPECT_EQ(order[25], 75);
  EXPECT_EQ(order[50], 0);
}

TEST(TeamPhases, AWholeClaimKeepsThePhaseOnOneWorkerInOrder) {
  // Items that may not run at once (the leftover colour's manifolds share bodies).
  TeamPhases team;
  team.ready(1, 4);
  std::mutex mutex;
  std::vector<std::pair<int, int>> claims;  // (worker, first item)
  std::vector<std::jthread> threads;
  for (int w = 0; w < 4; ++w) {
    threads.emplace_back([&, w] {
      runTeamPhase(team, 0, w, 30, 30, [&](int begin, int end) {
        std::lock_guard lock(mutex);
        claims.emplace_back(w, begin);
        EXPECT_EQ(end - begin, 30);
      });
    });
  }
  threads.clear();  // joins
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].second, 0);
}

}  // namespace
}  // namespace hb
