#pragma once
// A run summary as JSON: the object `heavyball simulate --json` prints and every batch run file
// holds. Wall-clock fields vary between identical runs; kWallClockFields names them so bit-identity
// checks can leave them out.

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <string_view>

namespace hb {

struct RunSummary;
struct SceneDescription;

/// Keys whose values depend on timing, not on the simulation.
inline constexpr std::array<std::string_view, 5> kWallClockFields = {
    "wall_s", "steps_per_s", "real_time_factor", "stage_ms", "setup_wall_s"};

nlohmann::json runSummaryJson(const RunSummary& summary, const SceneDescription& scene);

}  // namespace hb
