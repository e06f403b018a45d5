#include "apps/bench/smooth/bench_smooth.hpp"

#include <CLI/CLI.hpp>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>

#include "apps/bench/common/bench_problems.hpp"
#include "apps/bench/common/bench_report.hpp"
#include "apps/bench/common/bench_timer.hpp"
#include "apps/bench/peers/collision/penetration_peer.hpp"
#include "apps/cli/cli_checks.hpp"
#include "apps/cli/name_list.hpp"
#include "collision/collide.hpp"
#include "collision/rtr.hpp"
#include "collision/support.hpp"
#include "collision/support_points.hpp"
#include "collision/support_points_fit.hpp"
#include "engine/asset_library.hpp"
#include "engine/shipped_assets.hpp"

namespace hb::bench {

namespace {

using Eigen::Vector3d;

struct NamedShape {
  std::string name;
  Shape shape;
};

/// An et al.'s Table I. The cubes' corners are at +-0.5 m, the cylinder's radius and half
/// height 0.5 m (the paper gives their sharpness, not their size).
std::vector<NamedShape> tableOneShapes() {
  std::vector<Vector3d> corners;
  for (int k = 0; k < 8; ++k)
    corners.emplace_back(k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.5 : -0.5);
  const auto cube = [&](double beta) {
    return Shape::supportPoints(std::make_shared<const SupportPoints>(corners, beta));
  };
  return {
      {"ellipsoid", Shape::superquadric({0.5, 0.5, 0.7}, 1.0, 1.0)},
      {"superellipsoid", Shape::superquadric({0.7, 0.7, 0.35}, 1.0, 1.5)},
      {"double cone", Shape::superquadric({0.5, 0.5, 0.7}, 1.5, 1.0)},
      {"double pyramid", Shape::superquadric({0.6, 0.6, 0.6}, 1.5, 1.5)},
      {"cube 1", cube(5.0)},
      {"cube 2", cube(10.0)},
      {"cube 3", cube(50.0)},
      {"cylinder", Shape::supportPoints(std::make_shared<const SupportPoints>(
                       SupportPoints::revolution({{0.5, 0.5}, {0.5, -0.5}}, 40.0, 1e-3)))},
  };
}

/// One method's answer to a pose, judged by the same support functions.
struct Sample {
  double microseconds = 0.0;
  int iterations = -1;  // -1: not reported
  double depth = 0.0;
  double optimality = 0.0;
  bool ok = false;
};

/// Eq. 20 for a normal n (A towards B): with x = -n, the support points s_B(x) and s_A(-x),
/// |x cross (s_B - s_A)| / |s_B - s_A|: 0 when n is the separating direction.
double optimality(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                  const Vector3d& n) {
  int hint = -1;
  const Vector3d x = -n;
  const Vector3d sb = pb.apply(support(b, pb.q.conjugate() * x, hint));
  const Vector3d sa = pa.apply(support(a, pa.q.conjugate() * -x, hint));
  const Vector3d v = sb - sa;
  return v.norm() > 0.0 ? x.cross(v).norm() / v.norm() : 0.0;
}

class SmoothBench {
 public:
  explicit SmoothBench(const SmoothBenchConfig& config) : config_(config), rng_(config.seed) {
    for ([[maybe_unused]] const std::string& name : config.peers) {
#ifdef HB_HAVE_CCD
      if (name == "ccd_epa") peers_.push_back(peers::makeCcdPenetration());
#endif
#ifdef HB_HAVE_FCL
      if (name == "fcl_epa") peers_.push_back(peers::makeFclPenetration());
#endif
    }
    if (!config.csv.empty()) {
      csv_ = std::fopen(config.csv.c_str(), "w");
      if (!csv_) throw std::runtime_error("cannot write " + config.csv.string());
      std::fprintf(csv_, "a,b,pose,method,time_us,iterations,depth,optimality\n");
    }
  }
  ~SmoothBench() {
    if (csv_) std::fclose(csv_);
  }
  SmoothBench(const SmoothBench&) = delete;
  SmoothBench& operator=(const SmoothBench&) = delete;

  void run() {
    const std::vector<NamedShape> shapes = tableOneShapes();
    report_.text(
        "heavyball bench smooth: An et al.'s Table I shapes, %d poses per pair pushed into each "
        "other by 1 mm to %g mm from touching; time: fastest of %d runs per query (%s clock), "
        "then the mean; optimality: eq. 20, median\n\n",
        config_.poses, 1e3 * config_.maxDepth, config_.repeats, clock_.source());
    report_.text("%-15s %-15s  %8s %8s %8s  %8s %8s %8s", "A", "B", "rtr us", "iter", "optim",
                 "epa us", "iter", "optim");
    for (const auto& peer : peers_)
      report_.text("  %8.*s %8s", static_cast<int>(peer->name().size()), peer->name().data(),
                   "optim");
    report_.text("  %9s %9s %6s\n", "depth mm", "rtr-epa", "rtr ok");
    for (size_t i = 0; i < shapes.size(); ++i)
      for (size_t j = i; j < shapes.size(); ++j) runPair(shapes[i], shapes[j]);
    if (config_.ycbPoses > 0) runYcb();
    report_["poses"] = config_.poses;
    report_["repeats"] = config_.repeats;
    report_["clock"] = clock_.source();
    report_.finish();
    if (csv_ && std::fflush(csv_) != 0) throw std::runtime_error("cannot write the CSV file");
  }

 private:
  /// A pose in contact: random orientations, B along a random direction at the distance where
  /// the two touch (bisection on GJK's distance), then pushed in by 1 mm to maxDepth.
  std::pair<Pose, Pose> contactPose(const Shape& a, const Shape& b) {
    return contactPose(a, b, config_.maxDepth);
  }
  std::pair<Pose, Pose> contactPose(const Shape& a, const Shape& b, double maxDepth) {
    const Pose pa{uniformRotation(rng_), Vector3d::Zero()};
    Pose pb{uniformRotation(rng_), Vector3d::Zero()};
    const Vector3d u = uniformDirection(rng_);
    double lo = 0.0, hi = 4.0;  // metres: beyond any two of the shapes' reach
    CollisionOptions options;
    options.depthMethod = DepthMethod::Epa;
    options.computePenetration = false;
    for (int k = 0; k < 50; ++k) {
      const double mid = 0.5 * (lo + hi);
      pb.p = mid * u;
      (collide(a, pa, b, pb, pa.p - pb.p, options).collide ? lo : hi) = mid;
    }
    const double push = std::uniform_real_distribution<double>(1e-3, maxDepth)(rng_);
    pb.p = (hi - push) * u;
    return {pa, pb};
  }

  /// The paper's YCB experiment (their Fig. 8): prescribed support functions of 20 points fitted
  /// to the hulls of five smooth-surfaced objects, RTR on the fits against GJK + EPA (and
  /// libccd's) on the hulls themselves, in the same poses (in contact by the hulls).
  void runYcb() {
    const std::filesystem::path dir = shippedYcbDir();
    if (dir.empty()) throw std::runtime_error(kShippedDataMissing);
    AssetLibrary library(dir);
    struct Fitted {
      std::string name;
      Shape hull, smooth;
      Pose offset;  // the fit's frame in the hull's
      int vertices = 0;
    };
    std::vector<Fitted> objects;
    report_.text("\nYCB: prescribed support functions of %d points (beta %g) fitted to the hulls\n",
                 kYcbPoints, kYcbBeta);
    report_.text("%-22s %8s %10s %10s %6s\n", "object", "vertices", "rms mm", "max mm", "steps");
    for (const char* name : {"005_tomato_soup_can", "006_mustard_bottle", "011_banana", "013_apple",
                             "021_bleach_cleanser"}) {
      const auto asset = library.get(name, 500.0);
      const SupportPointsFit fit = fitSupportPoints(asset->shape.hull(), kYcbPoints, kYcbBeta);
      objects.push_back(
          {name, asset->shape,
           Shape::supportPoints(std::make_shared<const SupportPoints>(fit.points, kYcbBeta)),
           Pose::translation(fit.origin), asset->shape.hull().numVertices()});
      report_.text("%-22s %8d %10.2f %10.2f %6d\n", name, objects.back().vertices,
                   1e3 * fit.rmsError, 1e3 * fit.maxError, fit.iterations);
      report_.row("ycb_fits", {{"object", name},
                               {"vertices", objects.back().vertices},
                               {"rms_mm", 1e3 * fit.rmsError},
                               {"max_mm", 1e3 * fit.maxError},
                               {"steps", fit.iterations}});
    }
    report_.text("\n%-22s %-22s %9s  %8s %8s", "A", "B", "vertices", "rtr us", "epa us");
    for (const auto& peer : peers_)
      report_.text(" %8.*s", static_cast<int>(peer->name().size()), peer->name().data());
    report_.text("\n");
    for (size_t i = 0; i < objects.size(); ++i)
      for (size_t j = i; j < objects.size(); ++j) {
        const Fitted& a = objects[i];
        const Fitted& b = objects[j];
        std::vector<double> rtrTimes, epaTimes;
        std::vector<std::vector<double>> peerTimes(peers_.size());
        for (int k = 0; k < config_.ycbPoses; ++k) {
          const std::pair<Pose, Pose> poses = contactPose(a.hull, b.hull, 0.01);
          const Pose &pa = poses.first, &pb = poses.second;
          const Pose sa = pa * a.offset, sb = pb * b.offset;
          RtrResult r;
          rtrTimes.push_back(fastest([&] {
            r = minimumTranslationalDistance(a.smooth, sa, b.smooth, sb);
            doNotOptimize(r);
          }));
          CollisionOptions options;
          options.depthMethod = DepthMethod::Epa;
          CollisionResult e;
          epaTimes.push_back(fastest([&] {
            e = collide(a.hull, pa, b.hull, pb, pa.p - pb.p, options);
            doNotOptimize(e);
          }));
          for (size_t m = 0; m < peers_.size(); ++m) {
            peers::PeerPenetration answer;
            peerTimes[m].push_back(fastest([&] {
              answer = peers_[m]->solve(a.hull, pa, b.hull, pb);
              doNotOptimize(answer);
            }));
          }
        }
        report_.text("%-22s %-22s %9d  %8.2f %8.2f", a.name.c_str(), b.name.c_str(),
                     a.vertices + b.vertices, mean(rtrTimes), mean(epaTimes));
        nlohmann::json row = {{"a", a.name},
                              {"b", b.name},
                              {"vertices", a.vertices + b.vertices},
                              {"rtr_us", mean(rtrTimes)},
                              {"epa_us", mean(epaTimes)}};
        for (size_t m = 0; m < peers_.size(); ++m) {
          report_.text(" %8.2f", mean(peerTimes[m]));
          row[std::string(peers_[m]->name()) + "_us"] = mean(peerTimes[m]);
        }
        report_.text("\n");
        report_.row("ycb", std::move(row));
      }
  }

  static constexpr int kYcbPoints = 20;
  static constexpr double kYcbBeta = 20.0;

  template <class F>
  double fastest(F&& f) {
    return clock_.fastest(config_.repeats, f);
  }

  void runPair(const NamedShape& a, const NamedShape& b) {
    std::vector<std::vector<Sample>> samples(2 + peers_.size());
    std::vector<double> depths, gaps;
    int rtrOk = 0;
    for (int k = 0; k < config_.poses; ++k) {
      const std::pair<Pose, Pose> poses = contactPose(a.shape, b.shape);
      const Pose &pa = poses.first, &pb = poses.second;
      RtrResult r;
      Sample rtr;
      rtr.microseconds = fastest([&] {
        r = minimumTranslationalDistance(a.shape, pa, b.shape, pb);
        doNotOptimize(r);
      });
      rtr.iterations = r.iterations;
      rtr.depth = -r.distance;
      rtr.optimality = optimality(a.shape, pa, b.shape, pb, r.normal);
      rtr.ok = r.status == RtrStatus::Converged;
      rtrOk += rtr.ok;
      CollisionOptions options;
      options.depthMethod = DepthMethod::Epa;
      CollisionResult e;
      Sample epa;
      epa.microseconds = fastest([&] {
        e = collide(a.shape, pa, b.shape, pb, pa.p - pb.p, options);
        doNotOptimize(e);
      });
      epa.iterations = e.gjkIterations + e.epaIterations;
      epa.depth = -e.distance;
      epa.optimality = optimality(a.shape, pa, b.shape, pb, e.normal);
      epa.ok = e.ok();
      samples[0].push_back(rtr);
      samples[1].push_back(epa);
      depths.push_back(rtr.depth);
      gaps.push_back(rtr.depth - epa.depth);
      for (size_t m = 0; m < peers_.size(); ++m) {
        if (!peers_[m]->handles(a.shape) || !peers_[m]->handles(b.shape)) continue;
        peers::PeerPenetration answer;
        Sample s;
        s.microseconds = fastest([&] {
          answer = peers_[m]->solve(a.shape, pa, b.shape, pb);
          doNotOptimize(answer);
        });
        s.depth = answer.depth;
        s.optimality = optimality(a.shape, pa, b.shape, pb, answer.normal);
        s.ok = answer.collide;
        samples[2 + m].push_back(s);
      }
      writeCsv(a.name, b.name, k, "rtr", rtr);
      writeCsv(a.name, b.name, k, "gjk_epa", epa);
      for (size_t m = 0; m < peers_.size(); ++m)
        if (!samples[2 + m].empty())
          writeCsv(a.name, b.name, k, peers_[m]->name(), samples[2 + m].back());
    }
    const auto column = [&](size_t m, auto field) {
      std::vector<double> v;
      for (const Sample& s : samples[m]) v.push_back(field(s));
      return v;
    };
    const auto time = [](const Sample& s) { return s.microseconds; };
    const auto iterations = [](const Sample& s) { return static_cast<double>(s.iterations); };
    const auto optim = [](const Sample& s) { return s.optimality; };
    report_.text("%-15s %-15s  %8.2f %8.2f %8.1e  %8.2f %8.2f %8.1e", a.name.c_str(),
                 b.name.c_str(), mean(column(0, time)), mean(column(0, iterations)),
                 median(column(0, optim)), mean(column(1, time)), mean(column(1, iterations)),
                 median(column(1, optim)));
    nlohmann::json row = {{"a", a.name},
                          {"b", b.name},
                          {"rtr_us", mean(column(0, time))},
                          {"rtr_iterations", mean(column(0, iterations))},
                          {"rtr_optimality", median(column(0, optim))},
                          {"epa_us", mean(column(1, time))},
                          {"epa_iterations", mean(column(1, iterations))},
                          {"epa_optimality", median(column(1, optim))},
                          {"depth_mm", 1e3 * mean(depths)},
                          {"rtr_minus_epa", median(gaps)},
                          {"rtr_ok", rtrOk}};
    for (size_t m = 0; m < peers_.size(); ++m) {
      const std::string name(peers_[m]->name());
      if (samples[2 + m].empty()) {
        report_.text("  %8s %8s", "-", "-");  // shapes it cannot take
      } else {
        report_.text("  %8.2f %8.1e", mean(column(2 + m, time)), median(column(2 + m, optim)));
        row[name + "_us"] = mean(column(2 + m, time));
        row[name + "_optimality"] = median(column(2 + m, optim));
      }
    }
    report_.text("  %9.2f %9.1e %6d\n", 1e3 * mean(depths), median(gaps), rtrOk);
    report_.row("table_one", std::move(row));
  }

  void writeCsv(const std::string& a, const std::string& b, int pose, std::string_view method,
                const Sample& s) {
    if (!csv_) return;
    std::fprintf(csv_, "%s,%s,%d,%.*s,%.4f,%d,%.12g,%.6g\n", a.c_str(), b.c_str(), pose,
                 static_cast<int>(method.size()), method.data(), s.microseconds, s.iterations,
                 s.depth, s.optimality);
  }

  const SmoothBenchConfig& config_;
  BenchReport report_{"smooth", config_.json};
  std::mt19937_64 rng_;
  TickClock clock_;
  std::vector<std::unique_ptr<peers::PenetrationPeer>> peers_;
  std::FILE* csv_ = nullptr;
};

}  // namespace

std::vector<std::string> smoothPeerNames() {
  std::vector<std::string> names;
#ifdef HB_HAVE_CCD
  names.push_back("ccd_epa");
#endif
#ifdef HB_HAVE_FCL
  names.push_back("fcl_epa");
#endif
  return names;
}

void runSmoothBench(const SmoothBenchConfig& config) {
  const std::vector<std::string> available = smoothPeerNames();
  for (const std::string& name : config.peers) {
    if (std::find(available.begin(), available.end(), name) == available.end()) {
      throw std::invalid_argument("bench smooth: peer '" + name + "' is not built in");
    }
  }
  if (config.poses < 1 || config.repeats < 1) {
    throw std::invalid_argument("bench smooth: counts must be positive");
  }
  if (!(config.maxDepth >= 2e-3 && config.maxDepth <= 0.3)) {
    throw std::invalid_argument("bench smooth: --max-depth must be in [0.002, 0.3] m");
  }
  SmoothBench(config).run();
}

}  // namespace hb::bench

namespace hb::cli {

void addBenchSmoothCommand(CLI::App& bench) {
  auto config = std::make_shared<bench::SmoothBenchConfig>();
  auto peers = std::make_shared<std::string>("all");
  CLI::App* command = bench.add_subcommand(
      "smooth",
      "Penetration of smooth convex bodies (superquadrics, prescribed support functions) in "
      "contact: RTR against GJK + EPA and libccd's GJK-EPA, time, iterations and optimality");
  command->add_option("--poses", config->poses, "Random poses in contact per pair of shapes")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--max-depth", config->maxDepth, "Deepest push from touching (m)")
      ->check(finitePositive())
      ->capture_default_str();
  command
      ->add_option("--ycb-poses", config->ycbPoses,
                   "Poses per pair of the YCB experiment (fitted prescribed support functions "
                   "against the hulls); 0 skips it")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--repeats", config->repeats, "Timings per query; the fastest counts")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command
      ->add_option("--peers", *peers,
                   "Other libraries, comma-separated (ccd_epa: libccd's ccdGJKPenetration; "
                   "fcl_epa: FCL's GJKSolver_libccd, hulls only; all: every one built; empty: "
                   "none)")
      ->capture_default_str();
  command->add_option("--seed", config->seed, "Random seed")->capture_default_str();
  command->add_option("--csv", config->csv, "Also write one row per query and method here");
  command->add_flag("--json", config->json,
                    "Print one JSON object (the tables' rows by name) instead of the tables");
  command->callback([config, peers] {
    config->peers = *peers == "all" ? bench::smoothPeerNames() : splitNames(*peers);
    try {
      bench::runSmoothBench(*config);
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError("bench smooth", e.what());
    }
  });
}

}  // namespace hb::cli
