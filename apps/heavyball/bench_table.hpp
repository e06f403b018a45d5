#pragma once
// Statistics and plain-text tables of `heavyball bench gjk`, printed to stdout.

#include "apps/heavyball/bench_results.hpp"

namespace hb::bench {

/// Per signed-distance bucket and mode: median time and iterations of every method, and the median
/// per-problem speed-up time_gjk / time_method.
void printBucketTables(const BenchResults& results);

/// The paper's Fig. 12 split (distant >= 1 m, close 0..0.1 m, overlapping < 0): per mode, median
/// time of every method and median per-problem time ratio method / gjk.
void printPeerTables(const BenchResults& results);

/// Agreement on collide between methods and with the placement, convergence, distance errors.
void printSanityChecks(const BenchResults& results);

}  // namespace hb::bench
