#pragma once
// One collision solver as `heavyball bench gjk` drives it: heavyball's GJK variants and other
// libraries' solvers ("peers") behind the same calls, so every method is timed the same way.

#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "apps/bench/common/bench_problems.hpp"
#include "apps/bench/common/bench_shapes.hpp"
#include "apps/bench/common/frank_wolfe.hpp"
#include "collision/gjk.hpp"

namespace hb::bench {

struct Answer {
  bool collide = false;
  /// Signed distance reported by the method (a lower bound for Boolean queries that stop early,
  /// 0 when the method only knows the shapes overlap); NaN when it reports none.
  double distance = std::numeric_limits<double>::quiet_NaN();
  int iterations = -1;    ///< -1 when the method does not report them
  bool converged = true;  ///< false when the method hit an iteration cap or reported a failure
};

class Method {
 public:
  virtual ~Method() = default;
  virtual std::string_view name() const = 0;
  /// Every method answers Boolean queries; Distance only where the library offers one.
  virtual bool supports(GjkMode mode) const = 0;
  /// Converts the benchmark's shapes into the method's own representation. Untimed, once.
  virtual void prepare(std::span<const BenchShape> shapes) = 0;
  /// Chooses the problem the next solve() calls answer. Untimed.
  virtual void setProblem(const Problem& problem) = 0;
  /// Answers the current problem from scratch: nothing learnt by an earlier call (support hints,
  /// cached guesses) is reused, so repeated calls measure the same work. Timed.
  virtual Answer solve(GjkMode mode) = 0;
};

/// Settings of the methods that have any (untimed choices, fixed for a whole run).
struct MethodSettings {
  /// Iteration cap of the Frank–Wolfe baselines "fw" and "fw_active_set".
  int frankWolfeMaxIterations = kFrankWolfeMaxIterations;
};

/// Names of all methods this build knows, heavyball's first, in table order.
std::vector<std::string> availableMethods();
/// The methods a run uses when none are named: all of the build except the Frank–Wolfe
/// baselines, which take up to their iteration cap per problem, and the late momentum schedules.
std::vector<std::string> defaultMethods();
/// True for the methods defaultMethods() leaves out.
bool isRunOnlyWhenNamed(std::string_view name);
/// Names of the peers the build left out (library not found, or HB_WITH_PEERS off).
std::vector<std::string> unavailableMethods();
/// Throws std::invalid_argument for an unknown name or a peer that was not built.
std::unique_ptr<Method> makeMethod(std::string_view name, const MethodSettings& settings = {});

/// The reference every speed-up is measured against.
inline constexpr std::string_view kBaselineMethod = "gjk";

}  // namespace hb::bench
