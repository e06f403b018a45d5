// heavyball's GJK variants as benchmark methods, and the table of every method of the build.

#include <stdexcept>
#include <string>

#include "apps/bench/common/bench_frank_wolfe_method.hpp"
#include "apps/bench/common/bench_method.hpp"
#include "apps/bench/peers/collision/peer.hpp"

namespace hb::bench {

namespace {

class HeavyballGjk final : public Method {
 public:
  HeavyballGjk(std::string_view name, GjkVariant variant,
               MomentumSchedule schedule = MomentumSchedule::Paper)
      : name_(name), variant_(variant), schedule_(schedule) {}

  std::string_view name() const override { return name_; }
  bool supports(GjkMode) const override { return true; }
  void prepare(std::span<const BenchShape> shapes) override { shapes_ = shapes; }
  void setProblem(const Problem& problem) override { problem_ = problem; }

  Answer solve(GjkMode mode) override {
    GjkOptions options;
    options.variant = variant_;
    options.mode = mode;
    options.schedule = schedule_;
    // The public entry point, pose checks and support dispatch included, as an engine calls it;
    // default (zero) hints, as the paper solves every problem cold.
    const GjkResult r = gjk(shapes_[problem_.a].shape, problem_.poseA, shapes_[problem_.b].shape,
                            problem_.poseB, problem_.x0, options);
    Answer a;
    a.collide = r.collide();
    a.distance = r.distance;
    a.iterations = r.iterations;
    a.converged = r.status == GjkStatus::Separated || r.status == GjkStatus::Intersecting;
    return a;
  }

 private:
  std::string_view name_;
  GjkVariant variant_;
  MomentumSchedule schedule_;
  std::span<const BenchShape> shapes_;
  Problem problem_;
};

using Factory = std::unique_ptr<Method> (*)(const MethodSettings&);

struct Entry {
  std::string_view name;
  Factory make;           // null when the build has no such method
  bool byDefault = true;  // false: run only when named
};

template <GjkVariant V, MomentumSchedule Schedule = MomentumSchedule::Paper>
std::unique_ptr<Method> makeHeavyball(std::string_view name) {
  return std::make_unique<HeavyballGjk>(name, V, Schedule);
}

const std::vector<Entry>& entries() {
  using S = const MethodSettings&;
  static const std::vector<Entry> table = {
      {"gjk", [](S) { return makeHeavyball<GjkVariant::Vanilla>("gjk"); }},
      {"polyak", [](S) { return makeHeavyball<GjkVariant::Polyak>("polyak"); }},
      {"nesterov", [](S) { return makeHeavyball<GjkVariant::Nesterov>("nesterov"); }},
      {"auto", [](S) { return makeHeavyball<GjkVariant::Auto>("auto"); }},
      // delta_k = (k+2)/(k+3): run when named (`--methods polyak_late,nesterov_late`).
      {"polyak_late",
       [](S) { return makeHeavyball<GjkVariant::Polyak, MomentumSchedule::Late>("polyak_late"); },
       false},
      {"nesterov_late",
       [](S) {
         return makeHeavyball<GjkVariant::Nesterov, MomentumSchedule::Late>("nesterov_late");
       },
       false},
#ifdef HB_HAVE_CCD
      {"ccd_gjk", [](S) { return peers::makeCcdGjk(); }},
      {"ccd_mpr", [](S) { return peers::makeCcdMpr(); }},
#else
      {"ccd_gjk", nullptr},
      {"ccd_mpr", nullptr},
#endif
#ifdef HB_HAVE_FCL
      {"fcl_gjk", [](S) { return peers::makeFclLibccd(); }},
      {"fcl_indep", [](S) { return peers::makeFclIndep(); }},
#else
      {"fcl_gjk", nullptr},
      {"fcl_indep", nullptr},
#endif
#ifdef HB_HAVE_BULLET
      {"bullet_gjk", [](S) { return peers::makeBulletGjk(); }},
#else
      {"bullet_gjk", nullptr},
#endif
      {"fw",
       [](S s) {
         return makeFrankWolfeMethod("fw", FrankWolfeStep::OpenLoop, s.frankWolfeMaxIterations);
       },
       false},
      {"fw_active_set",
       [](S s) {
         return makeFrankWolfeMethod("fw_active_set", FrankWolfeStep::LineSearch,
                                     s.frankWolfeMaxIterations);
       },
       false},
  };
  return table;
}

}  // namespace

std::vector<std::string> availableMethods() {
  std::vector<std::string> names;
  for (const Entry& e : entries()) {
    if (e.make) names.emplace_back(e.name);
  }
  return names;
}

std::vector<std::string> defaultMethods() {
  std::vector<std::string> names;
  for (const Entry& e : entries()) {
    if (e.make && e.byDefault) names.emplace_back(e.name);
  }
  return names;
}

bool isRunOnlyWhenNamed(std::string_view name) {
  for (const Entry& e : entries()) {
    if (e.name == name) return !e.byDefault;
  }
  return false;
}

std::vector<std::string> unavailableMethods() {
  std::vector<std::string> names;
  for (const Entry& e : entries()) {
    if (!e.make) names.emplace_back(e.name);
  }
  return names;
}

std::unique_ptr<Method> makeMethod(std::string_view name, const MethodSettings& settings) {
  for (const Entry& e : entries()) {
    if (e.name != name) continue;
    if (!e.make) {
      throw std::invalid_argument("method '" + std::string(name) +
                                  "' is not in this build (its library was not found, or "
                                  "HB_WITH_PEERS is OFF)");
    }
    return e.make(settings);
  }
  std::string known;
  for (const Entry& e : entries()) known += (known.empty() ? "" : ", ") + std::string(e.name);
  throw std::invalid_argument("unknown method '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace hb::bench
