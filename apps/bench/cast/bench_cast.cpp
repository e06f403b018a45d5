#include "apps/bench/cast/bench_cast.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <random>
#include <stdexcept>

#include "apps/bench/common/bench_problems.hpp"
#include "apps/bench/common/bench_report.hpp"
#include "apps/bench/common/bench_timer.hpp"
#include "apps/bench/peers/collision/cast_peer.hpp"
#include "apps/cli/cli_checks.hpp"
#include "apps/cli/name_list.hpp"
#include "collision/collide.hpp"
#include "collision/convex_hull.hpp"
#include "collision/cta.hpp"
#include "collision/shape_cast.hpp"

namespace hb::bench {

using Eigen::Vector3d;

std::vector<Vector3d> ellipsoidLattice(int vertices, const Vector3d& radii, bool stretched) {
  if (vertices < 8) throw std::invalid_argument("ellipsoidLattice: at least 8 vertices");
  // Rings r = 1..R at polar angles pi r / (R + 1), meridians m = 0..M-1 at longitudes
  // 2 pi m / M: on the unit sphere the spacings are pi / (R + 1) and 2 pi / M, equal when
  // M = 2 (R + 1), eight times as far apart along the rings when M = (R + 1) / 4.
  const double ratio = stretched ? 0.25 : 2.0;  // M / (R + 1)
  const int rings = std::max(2, static_cast<int>(std::lround(std::sqrt((vertices - 2) / ratio))));
  const int meridians = std::max(3, static_cast<int>(std::lround(ratio * (rings + 1))));
  std::vector<Vector3d> points;
  points.reserve(static_cast<size_t>(rings) * meridians + 2);
  points.emplace_back(0.0, 0.0, radii.z());
  points.emplace_back(0.0, 0.0, -radii.z());
  for (int r = 1; r <= rings; ++r) {
    const double polar = std::numbers::pi * r / (rings + 1);
    for (int m = 0; m < meridians; ++m) {
      const double longitude = 2.0 * std::numbers::pi * m / meridians;
      points.emplace_back(radii.x() * std::sin(polar) * std::cos(longitude),
                          radii.y() * std::sin(polar) * std::sin(longitude),
                          radii.z() * std::cos(polar));
    }
  }
  return points;
}

namespace {

/// One cast, as each method answered it.
struct Query {
  Pose poseA, poseB;
  Vector3d direction;
};

struct Sample {
  CastStatus status = CastStatus::InvalidInput;
  double distance = 0.0;
  int iterations = 0;
  double microseconds = 0.0;
};

/// What a row of the table gathers: per method, the samples of its queries.
struct CastRow {
  std::string caseName;
  std::vector<Query> queries;
  std::vector<Sample> cold, warm;        // the GJK ray cast
  std::vector<Sample> ctaCold, ctaWarm;  // CTA
  std::vector<std::vector<peers::PeerCast>> peerAnswers;
  std::vector<std::vector<double>> peerMicroseconds;
};

struct Pair {
  Shape a, b;
  double radiusA = 0.0, radiusB = 0.0;  // bounding
  double innerA = 0.0, innerB = 0.0;    // smallest semi-axis
  int vertices = 0;                     // of each
  std::shared_ptr<const CtaPolyhedron> ctaA, ctaB;
};

/// What a sequence carries from one query to the next.
struct Coherence {
  SupportHints hints;
  CtaWarmStart cta;
};

Pair makePair(int vertices, bool stretched) {
  const Vector3d ra(1.0, 0.75, 0.5), rb(0.9, 0.7, 0.55);
  const auto hull = [&](const Vector3d& radii) {
    const std::vector<Vector3d> points = ellipsoidLattice(vertices, radii, stretched);
    return Shape::convexHull(std::make_shared<const ConvexHull>(ConvexHull::build(points)));
  };
  Pair p{hull(ra), hull(rb), ra.maxCoeff(), rb.maxCoeff(), ra.minCoeff(), rb.minCoeff(), 0, {}, {}};
  p.vertices = p.a.hull().numVertices();
  // CTA's section stacks are preprocessing, as the hulls are: built before any timing.
  p.ctaA = std::make_shared<const CtaPolyhedron>(p.a);
  p.ctaB = std::make_shared<const CtaPolyhedron>(p.b);
  p.ctaA->prepare();
  p.ctaB->prepare();
  return p;
}

/// A unit vector perpendicular to d, uniformly around it.
Vector3d perpendicular(const Vector3d& d, std::mt19937_64& rng) {
  Vector3d e;
  do {
    e = uniformDirection(rng);
    e -= e.dot(d) * d;
  } while (e.norm() < 1e-3);
  return e.normalized();
}

/// A configuration whose translation runs into B (lateral offset within the two inner radii).
Query collidingQuery(const Pair& pair, std::mt19937_64& rng) {
  Query q;
  q.direction = uniformDirection(rng);
  const double travel = 3.0 * (pair.radiusA + pair.radiusB);
  std::uniform_real_distribution<double> lateral(0.0, 0.8 * (pair.innerA + pair.innerB));
  q.poseA = {uniformRotation(rng), Vector3d::Zero()};
  q.poseB = {uniformRotation(rng),
             travel * q.direction + lateral(rng) * perpendicular(q.direction, rng)};
  return q;
}

/// A configuration that misses B by `clearance` metres beyond grazing, sideways: the grazing
/// offset found by bisection with the GJK cast.
Query missingQuery(const Pair& pair, double clearance, std::mt19937_64& rng) {
  Query q = collidingQuery(pair, rng);
  const Vector3d centre = 3.0 * (pair.radiusA + pair.radiusB) * q.direction;
  const Vector3d side = perpendicular(q.direction, rng);
  double hit = 0.0, miss = pair.radiusA + pair.radiusB;
  for (int i = 0; i < 50; ++i) {
    const double mid = 0.5 * (hit + miss);
    q.poseB.p = centre + mid * side;
    const CastResult r = castShape(pair.a, q.poseA, pair.b, q.poseB, q.direction);
    (r.status == CastStatus::Hit ? hit : miss) = mid;
  }
  q.poseB.p = centre + (miss + clearance) * side;
  return q;
}

bool isHit(CastStatus s) {
  return s == CastStatus::Hit || s == CastStatus::Overlapping;
}

/// The referee, independent of every cast: the signed distance (GJK, EPA) of the shapes once A
/// has translated s along the direction.
double signedDistanceAt(const Pair& pair, const Query& q, double s) {
  const Pose moved{q.poseA.q, q.poseA.p + s * q.direction};
  CollisionOptions options;
  options.gjk.tolerance = 1e-18;  // squared: the distance to 1e-9 m
  options.gjk.maxIterations = 1000;
  options.epa.tolerance = 1e-9;
  return collide(pair.a, moved, pair.b, q.poseB, moved.p - q.poseB.p, options).distance;
}

/// A hit at s is right when the shapes touch there (within 0.1 mm) and were apart 0.1 mm before;
/// then its error is |signed distance at s|.
constexpr double kRefereeTolerance = 1e-4;
std::optional<double> rightHitError(const Pair& pair, const Query& q, double s) {
  const double error = std::abs(signedDistanceAt(pair, q, s));
  const bool right =
      error <= kRefereeTolerance &&
      (s <= kRefereeTolerance || signedDistanceAt(pair, q, s - kRefereeTolerance) > 0.0);
  return right ? std::optional<double>(error) : std::nullopt;
}

}  // namespace

std::vector<std::string> castPeerNames() {
  std::vector<std::string> names;
#ifdef HB_HAVE_BULLET
  names.insert(names.end(), {"bullet", "bullet_ca"});
#endif
#ifdef HB_HAVE_FCL
  names.push_back("fcl");
#endif
  return names;
}

namespace {

class CastBench {
 public:
  explicit CastBench(const CastBenchConfig& config) : config_(config), rng_(config.seed) {
    for ([[maybe_unused]] const std::string& name : config.peers) {
#ifdef HB_HAVE_FCL
      if (name == "fcl") peers_.push_back(peers::makeFclCast());
#endif
#ifdef HB_HAVE_BULLET
      if (name == "bullet") peers_.push_back(peers::makeBulletSubsimplexCast());
      if (name == "bullet_ca") peers_.push_back(peers::makeBulletGjkCast());
#endif
    }
    if (!config.csv.empty()) {
      csv_ = std::fopen(config.csv.c_str(), "w");
      if (!csv_) throw std::runtime_error("cannot write " + config.csv.string());
      std::fprintf(csv_, "vertices,case,query,method,status,distance,iterations,time_us\n");
    }
  }
  ~CastBench() {
    if (csv_) std::fclose(csv_);
  }
  CastBench(const CastBench&) = delete;
  CastBench& operator=(const CastBench&) = delete;

  void run() {
    report_.text(
        "heavyball bench cast: polyhedra of rings and meridians on ellipsoids (semi-axes 1, "
        "0.75, 0.5 and 0.9, 0.7, 0.55 m; %s faces), %d configurations per case, %d sequences "
        "of %d per coherence; D = sum of the bounding radii = 1.9 m; time: fastest of %d runs "
        "per query (%s clock), then the median over the queries\n",
        config_.stretched ? "thin, stretched" : "balanced", config_.configurations,
        config_.sequences, config_.sequenceLength, config_.repeats, clock_.source());
    printHeader();
    for (const int size : config_.sizes) runSize(size);
    printGrowth();
    report_["configurations"] = config_.configurations;
    report_["repeats"] = config_.repeats;
    report_["clock"] = clock_.source();
    report_.finish();
    if (csv_ && std::fflush(csv_) != 0) throw std::runtime_error("cannot write the CSV file");
  }

 private:
  void runSize(int size) {
    const Pair pair = makePair(size, config_.stretched);
    std::vector<Shape> shapes = {pair.a, pair.b};
    for (auto& peer : peers_) peer->prepare(shapes);
    const double D = pair.radiusA + pair.radiusB;
    std::vector<CastRow> rows;
    {
      CastRow row;
      row.caseName = "collide";
      for (int i = 0; i < config_.configurations; ++i)
        measure(pair, collidingQuery(pair, rng_), row, nullptr);
      rows.push_back(std::move(row));
    }
    for (const double fraction : {0.005, 0.05, 0.5, 1.5}) {
      char name[32];
      std::snprintf(name, sizeof name, "miss %gD", fraction);
      CastRow row;
      row.caseName = name;
      for (int i = 0; i < config_.configurations; ++i) {
        measure(pair, missingQuery(pair, fraction * D, rng_), row, nullptr);
      }
      rows.push_back(std::move(row));
    }
    for (const double delta : config_.sequences > 0 ? config_.deltas : std::vector<double>{}) {
      char name[32];
      std::snprintf(name, sizeof name, "seq %g%%D", 100.0 * delta);
      CastRow row;
      row.caseName = name;
      for (int s = 0; s < config_.sequences; ++s) runSequence(pair, delta * D, row);
      rows.push_back(std::move(row));
    }
    for (const CastRow& row : rows) printRow(pair, row);
    std::fflush(stdout);  // a size at a time: the largest take minutes
  }

  void runSequence(const Pair& pair, double step, CastRow& row) {
    Query q = collidingQuery(pair, rng_);
    const Vector3d velocity = step * uniformDirection(rng_);
    const Eigen::Quaterniond turn(Eigen::AngleAxisd(step / pair.radiusA, uniformDirection(rng_)));
    Coherence coherence;
    for (int k = 0; k < config_.sequenceLength; ++k) {
      measure(pair, q, row, &coherence);
      q.poseA.p += velocity;
      q.poseA.q = (turn * q.poseA.q).normalized();
    }
  }

  /// Casts one query with every method; with `coherence`, heavyball's also warm-started from
  /// the sequence's previous query (and updates it).
  void measure(const Pair& pair, const Query& q, CastRow& row, Coherence* coherence) {
    const int index = static_cast<int>(row.cold.size());
    row.queries.push_back(q);
    row.cold.push_back(castTimed(pair, q, SupportHints{}));
    CtaWarmStart scratch;
    row.ctaCold.push_back(ctaTimed(pair, q, scratch, false));
    if (coherence) {
      SupportHints used = coherence->hints;
      row.warm.push_back(castTimed(pair, q, used));
      coherence->hints = lastHints_;
      row.ctaWarm.push_back(ctaTimed(pair, q, coherence->cta, true));
    }
    const double length = 6.0 * (pair.radiusA + pair.radiusB) + q.poseB.p.norm();
    row.peerAnswers.resize(peers_.size());
    row.peerMicroseconds.resize(peers_.size());
    for (size_t m = 0; m < peers_.size(); ++m) {
      peers::PeerCast answer;
      double best = std::numeric_limits<double>::infinity();
      for (int r = 0; r < config_.repeats; ++r) {
        const std::uint64_t start = TickClock::now();
        answer = peers_[m]->cast(0, q.poseA, 1, q.poseB, q.direction, length);
        const std::uint64_t stop = TickClock::now();
        doNotOptimize(answer);
        best = std::min(best, clock_.microseconds(start, stop));
      }
      row.peerAnswers[m].push_back(answer);
      row.peerMicroseconds[m].push_back(best);
      writeCsv(pair.vertices, row.caseName, index, peers_[m]->name(), answer.hit ? "hit" : "miss",
               answer.hit ? answer.distance : NAN, -1, best);
    }
    writeCsv(pair.vertices, row.caseName, index, "gjk_cast", toString(row.cold.back().status),
             row.cold.back().distance, row.cold.back().iterations, row.cold.back().microseconds);
    writeCsv(pair.vertices, row.caseName, index, "cta", toString(row.ctaCold.back().status),
             row.ctaCold.back().distance, row.ctaCold.back().iterations,
             row.ctaCold.back().microseconds);
    if (coherence) {
      writeCsv(pair.vertices, row.caseName, index, "gjk_cast_warm",
               toString(row.warm.back().status), row.warm.back().distance,
               row.warm.back().iterations, row.warm.back().microseconds);
      writeCsv(pair.vertices, row.caseName, index, "cta_warm", toString(row.ctaWarm.back().status),
               row.ctaWarm.back().distance, row.ctaWarm.back().iterations,
               row.ctaWarm.back().microseconds);
    }
  }

  /// CTA's cast, from `warm` when `useWarm` (each timing from the same state; `warm` ends as
  /// the query leaves it). Iterations: minimisation steps.
  Sample ctaTimed(const Pair& pair, const Query& q, CtaWarmStart& warm, bool useWarm) {
    Sample sample;
    CastResult r;
    const CtaWarmStart before = warm;
    CtaStats stats;
    sample.microseconds = clock_.fastest(config_.repeats, [&] {
      warm = before;
      r = castCta(*pair.ctaA, q.poseA, *pair.ctaB, q.poseB, q.direction, CtaOptions{},
                  useWarm ? &warm : nullptr, &stats);
      doNotOptimize(r);
    });
    sample.status = r.status;
    sample.distance = r.distance;
    sample.iterations = stats.steps;
    return sample;
  }

  Sample castTimed(const Pair& pair, const Query& q, const SupportHints& hints) {
    Sample sample;
    CastResult r;
    sample.microseconds = clock_.fastest(config_.repeats, [&] {
      r = castShape(pair.a, q.poseA, pair.b, q.poseB, q.direction, CastOptions{}, hints);
      doNotOptimize(r);
    });
    sample.status = r.status;
    sample.distance = r.distance;
    sample.iterations = r.iterations;
    lastHints_ = r.hints;
    return sample;
  }

  void writeCsv(int vertices, const std::string& caseName, int query, std::string_view method,
                std::string_view status, double distance, int iterations, double us) {
    if (!csv_) return;
    std::fprintf(csv_, "%d,%s,%d,%.*s,%.*s,%.10g,%d,%.4f\n", vertices, caseName.c_str(), query,
                 static_cast<int>(method.size()), method.data(), static_cast<int>(status.size()),
                 status.data(), distance, iterations, us);
  }

  void printHeader() const {
    report_.text("\n%8s  %-11s %5s %5s  %9s %9s %5s %8s  %9s %9s  %9s %9s %6s %5s %8s  %9s %9s",
                 "vertices", "case", "casts", "hits", "gjk iter", "gjk us", "wrong", "error",
                 "warm iter", "warm us", "cta steps", "cta us", "/ gjk", "wrong", "error",
                 "warm stp", "warm us");
    for (const auto& peer : peers_) {
      report_.text("  %11.*s %7s %5s %8s", static_cast<int>(peer->name().size()),
                   peer->name().data(), "/ gjk", "wrong", "error");
    }
    report_.text("\n");
  }

  /// Per method (heavyball's cold GJK cast, its CTA, then the peers): answers the referee
  /// contradicts, and the largest |signed distance| at a hit it confirms.
  struct Verdict {
    int wrong = 0;
    double largestError = 0.0;
  };
  std::vector<Verdict> judge(const Pair& pair, const CastRow& row) const {
    std::vector<Verdict> verdicts(2 + peers_.size());
    for (size_t i = 0; i < row.cold.size(); ++i) {
      const Query& q = row.queries[i];
      std::vector<bool> hit = {isHit(row.cold[i].status), isHit(row.ctaCold[i].status)};
      std::vector<double> at = {row.cold[i].distance, row.ctaCold[i].distance};
      for (size_t m = 0; m < peers_.size(); ++m) {
        hit.push_back(row.peerAnswers[m][i].hit);
        at.push_back(row.peerAnswers[m][i].distance);
      }
      std::vector<bool> right(hit.size(), false);
      bool someHitRight = false;
      for (size_t m = 0; m < hit.size(); ++m) {
        if (!hit[m]) continue;
        const std::optional<double> error = rightHitError(pair, q, at[m]);
        right[m] = error.has_value();
        someHitRight = someHitRight || right[m];
        if (error) verdicts[m].largestError = std::max(verdicts[m].largestError, *error);
      }
      for (size_t m = 0; m < hit.size(); ++m) {
        verdicts[m].wrong += hit[m] ? !right[m] : someHitRight;
      }
    }
    return verdicts;
  }

  void printRow(const Pair& pair, const CastRow& row) {
    const int vertices = pair.vertices;
    const std::vector<Verdict> verdicts = judge(pair, row);
    std::vector<double> iterations, times, warmIterations, warmTimes;
    int hits = 0;
    for (const Sample& s : row.cold) {
      iterations.push_back(s.iterations);
      times.push_back(s.microseconds);
      hits += isHit(s.status);
    }
    for (const Sample& s : row.warm) {
      warmIterations.push_back(s.iterations);
      warmTimes.push_back(s.microseconds);
    }
    const double gjkTime = median(times);
    nlohmann::json json = {{"vertices", vertices},
                           {"case", row.caseName},
                           {"casts", row.cold.size()},
                           {"hits", hits},
                           {"gjk_iterations", mean(iterations)},
                           {"gjk_us", gjkTime},
                           {"gjk_wrong", verdicts[0].wrong},
                           {"gjk_error_mm", 1e3 * verdicts[0].largestError}};
    if (!row.warm.empty()) {
      json["gjk_warm_iterations"] = mean(warmIterations);
      json["gjk_warm_us"] = median(warmTimes);
    }
    report_.text("%8d  %-11s %5zu %5d  %9.2f %9.2f %5d %6.3gmm", vertices, row.caseName.c_str(),
                 row.cold.size(), hits, mean(iterations), gjkTime, verdicts[0].wrong,
                 1e3 * verdicts[0].largestError);
    if (row.warm.empty()) {
      report_.text("  %9s %9s", "-", "-");
    } else {
      report_.text("  %9.2f %9.2f", mean(warmIterations), median(warmTimes));
    }
    std::vector<double> ctaSteps, ctaTimes, ctaWarmSteps, ctaWarmTimes;
    for (const Sample& s : row.ctaCold) {
      ctaSteps.push_back(s.iterations);
      ctaTimes.push_back(s.microseconds);
    }
    for (const Sample& s : row.ctaWarm) {
      ctaWarmSteps.push_back(s.iterations);
      ctaWarmTimes.push_back(s.microseconds);
    }
    const double ctaTime = median(ctaTimes);
    json.update({{"cta_steps", mean(ctaSteps)},
                 {"cta_us", ctaTime},
                 {"cta_wrong", verdicts[1].wrong},
                 {"cta_error_mm", 1e3 * verdicts[1].largestError}});
    if (!row.ctaWarm.empty()) {
      json["cta_warm_steps"] = mean(ctaWarmSteps);
      json["cta_warm_us"] = median(ctaWarmTimes);
    }
    report_.text("  %9.2f %9.2f %6.2f %5d %6.3gmm", mean(ctaSteps), ctaTime, ctaTime / gjkTime,
                 verdicts[1].wrong, 1e3 * verdicts[1].largestError);
    if (row.ctaWarm.empty()) {
      report_.text("  %9s %9s", "-", "-");
    } else {
      report_.text("  %9.2f %9.2f", mean(ctaWarmSteps), median(ctaWarmTimes));
    }
    growth_[row.caseName]["cta"].emplace_back(vertices, ctaTime);
    if (!row.ctaWarm.empty()) {
      growth_[row.caseName]["cta_warm"].emplace_back(vertices, median(ctaWarmTimes));
    }
    for (size_t m = 0; m < peers_.size(); ++m) {
      const double peerTime = median(row.peerMicroseconds[m]);
      report_.text("  %11.2f %7.2f %5d %6.3gmm", peerTime, peerTime / gjkTime,
                   verdicts[m + 2].wrong, 1e3 * verdicts[m + 2].largestError);
      const std::string name(peers_[m]->name());
      growth_[row.caseName][name].emplace_back(vertices, peerTime);
      json[name + "_us"] = peerTime;
      json[name + "_wrong"] = verdicts[m + 2].wrong;
      json[name + "_error_mm"] = 1e3 * verdicts[m + 2].largestError;
    }
    report_.text("\n");
    report_.row("casts", std::move(json));
    growth_[row.caseName]["gjk_cast"].emplace_back(vertices, gjkTime);
    if (!row.warm.empty()) {
      growth_[row.caseName]["gjk_cast_warm"].emplace_back(vertices, median(warmTimes));
    }
  }

  /// Least-squares slope of log(time) against log(vertices): time ~ vertices^slope.
  void printGrowth() {
    if (config_.sizes.size() < 2) return;
    report_.text(
        "\ngrowth of the median time with the vertex count, fitted as vertices^k over "
        "all sizes:\n");
    for (const auto& [caseName, methods] : growth_) {
      report_.text("  %-10s", caseName.c_str());
      for (const auto& [method, points] : methods) {
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        const double n = static_cast<double>(points.size());
        for (const auto& [v, t] : points) {
          const double x = std::log(v), y = std::log(t);
          sx += x;
          sy += y;
          sxx += x * x;
          sxy += x * y;
        }
        const double k = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        report_.text("  %s k = %.2f", method.c_str(), k);
        report_.row("growth", {{"case", caseName}, {"method", method}, {"exponent", k}});
      }
      report_.text("\n");
    }
  }

  const CastBenchConfig& config_;
  BenchReport report_{"cast", config_.json};
  std::mt19937_64 rng_;
  TickClock clock_;
  std::vector<std::unique_ptr<peers::CastPeer>> peers_;
  std::FILE* csv_ = nullptr;
  SupportHints lastHints_;
  std::map<std::string, std::map<std::string, std::vector<std::pair<double, double>>>> growth_;
};

}  // namespace

void checkCastBenchConfig(const CastBenchConfig& config) {
  const std::vector<std::string> available = castPeerNames();
  for (const std::string& name : config.peers) {
    if (std::find(available.begin(), available.end(), name) == available.end()) {
      std::string list;
      for (const std::string& a : available) list += (list.empty() ? "" : ", ") + a;
      throw std::invalid_argument("bench cast: peer '" + name + "' is not built in (available: " +
                                  (list.empty() ? "none" : list) + ")");
    }
  }
  if (config.sizes.empty()) throw std::invalid_argument("bench cast: no sizes");
  for (const int size : config.sizes) {
    if (size < 8 || size > 2'000'000) {
      throw std::invalid_argument("bench cast: sizes must be in [8, 2000000] vertices");
    }
  }
  if (config.configurations < 1 || config.sequenceLength < 1 || config.sequences < 0 ||
      config.repeats < 1) {
    throw std::invalid_argument("bench cast: counts must be positive");
  }
}

void runCastBench(const CastBenchConfig& config) {
  checkCastBenchConfig(config);
  CastBench(config).run();
}

}  // namespace hb::bench

namespace hb::cli {

void addBenchCastCommand(CLI::App& bench) {
  auto config = std::make_shared<bench::CastBenchConfig>();
  auto peers = std::make_shared<std::string>("all");
  CLI::App* command = bench.add_subcommand(
      "cast",
      "Collision translations (shape casts) on polyhedra of 200 to 200,000 vertices on "
      "ellipsoids: colliding, close and far misses, coherent sequences; heavyball's GJK ray cast "
      "and CTA, cold and warm-started, against Bullet's convex casts and FCL's continuous "
      "collision");
  command->add_option("--sizes", config->sizes, "Vertices per polyhedron (about)")
      ->delimiter(',')
      ->capture_default_str();
  command
      ->add_option("--configurations", config->configurations,
                   "Random configurations per size and case")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--sequences", config->sequences, "Sequences per size and coherence")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--sequence-length", config->sequenceLength, "Configurations per sequence")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command
      ->add_option("--deltas", config->deltas,
                   "Motion per sequence step, as fractions of D (coherence)")
      ->delimiter(',')
      ->check(finitePositive())
      ->capture_default_str();
  command->add_option("--repeats", config->repeats, "Timings per query; the fastest counts")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_flag("--stretched", config->stretched,
                    "Thin, stretched faces (meridians eight times as far apart as rings)");
  command
      ->add_option("--peers", *peers,
                   "Other libraries, comma-separated (bullet: btSubsimplexConvexCast; bullet_ca: "
                   "btGjkConvexCast; fcl: continuousCollide with conservative advancement; all: "
                   "every one built; empty: none)")
      ->capture_default_str();
  command->add_option("--seed", config->seed, "Random seed")->capture_default_str();
  command->add_option("--csv", config->csv, "Also write one row per query and method here");
  command->add_flag("--json", config->json,
                    "Print one JSON object (the tables' rows by name) instead of the tables");
  command->callback([config, peers] {
    config->peers = *peers == "all" ? bench::castPeerNames() : splitNames(*peers);
    try {
      bench::checkCastBenchConfig(*config);
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError("bench cast", e.what());
    }
    bench::runCastBench(*config);
  });
}

}  // namespace hb::cli
