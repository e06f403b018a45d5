#pragma once
// Statistics and tables of `heavyball bench gjk`, printed to stdout as text or gathered as JSON
// rows (BenchReport).

#include "apps/bench/common/bench_report.hpp"
#include "apps/bench/common/bench_results.hpp"

namespace hb::bench {

/// Per signed-distance bucket and mode: median time and iterations of every method, and the median
/// per-problem speed-up time_gjk / time_method.
void printBucketTables(const BenchResults& results, BenchReport& report);

/// The paper's Fig. 12 split (distant >= 1 m, close 0..0.1 m, overlapping < 0): per mode run,
/// problems per category, median time of every method, median per-problem time ratio
/// method / gjk, and ratio of the median times.
void printPeerTables(const BenchResults& results, BenchReport& report);

/// Table II of the RSS 2022 paper: per mode run and distance category (overlapping < 0, close
/// 0..0.1 m, distant >= 1 m), mean and standard deviation of every method's iterations, and how
/// many runs did not converge (iteration cap).
void printIterationTable(const BenchResults& results, BenchReport& report);

/// Table I of the T-RO paper: per mode run and pair of meshes (labelled with their hull vertex
/// counts), mean and standard deviation of every method's time over the problems with
/// -0.01 <= d <= 0.01 m.
void printMeshPairTable(const BenchResults& results, BenchReport& report);

/// Agreement on collide between methods and with the placement, convergence, distance errors.
void printSanityChecks(const BenchResults& results, BenchReport& report);

}  // namespace hb::bench
