#include "apps/heavyball/sim/penetration_meter.hpp"

#include <algorithm>
#include <cmath>

#include "collision/collide.hpp"
#include "collision/warm_start.hpp"

namespace hb::sim {

PenetrationMeter::PenetrationMeter(const SimScene& scene) : scene_(scene) {
  for (const SimStatic& s : scene.statics) {
    boxes_.push_back(localObb(s.shape).transformed(s.pose));
    owners_.push_back(0);
    isStatic_.push_back(1);
    piecePoses_.push_back(s.pose);
  }
  // Fitting a hull's box takes milliseconds: once per asset.
  std::map<const ConvexHull*, Obb> hullBoxes;
  for (const SimBody& b : scene.bodies) {
    if (b.shape.type() == ShapeType::ConvexHull) {
      const ConvexHull* hull = b.shape.hullPtr().get();
      auto it = hullBoxes.find(hull);
      if (it == hullBoxes.end()) it = hullBoxes.emplace(hull, localObb(b.shape)).first;
      localBoxes_.push_back(it->second);
    } else {
      localBoxes_.push_back(localObb(b.shape));
    }
  }
}

void PenetrationMeter::place(std::span<const Pose> poses) {
  const size_t statics = scene_.statics.size();
  boxes_.resize(statics + poses.size());
  owners_.resize(statics + poses.size());
  isStatic_.resize(statics + poses.size());
  piecePoses_.resize(statics + poses.size());
  for (size_t i = 0; i < poses.size(); ++i) {
    const Pose piece = poses[i] * scene_.bodies[i].shapeInBody;
    boxes_[statics + i] = localBoxes_[i].transformed(piece);
    owners_[statics + i] = static_cast<int>(i) + 1;
    isStatic_[statics + i] = 0;
    piecePoses_[statics + i] = piece;
  }
}

std::optional<double> PenetrationMeter::signedDistance(int a, int b) const {
  const int statics = static_cast<int>(scene_.statics.size());
  auto shapeOf = [&](int proxy) -> const Shape& {
    return proxy < statics ? scene_.statics[proxy].shape : scene_.bodies[proxy - statics].shape;
  };
  const Eigen::Vector3d guess = initialGuess(WarmStart::ObbCenters, boxes_[a], boxes_[b],
                                             piecePoses_[a], piecePoses_[b], std::nullopt);
  const CollisionOptions options;  // vanilla GJK to the paper's tolerance, EPA for depths
  const CollisionResult r =
      collide(shapeOf(a), piecePoses_[a], shapeOf(b), piecePoses_[b], guess, options);
  if (!r.ok() || !std::isfinite(r.distance)) return std::nullopt;
  return r.distance;
}

void PenetrationMeter::measure(std::span<const Pose> poses) {
  place(poses);
  ++stats_.samples;
  for (const ProxyPair& pair : broadPhase_.update({boxes_, owners_, isStatic_})) {
    const std::optional<double> distance = signedDistance(pair.first, pair.second);
    if (!distance) {
      ++stats_.failedQueries;
      continue;
    }
    if (auto it = excluded_.find(pair); it != excluded_.end()) {
      if (*distance < 0.0) {
        it->second = stats_.samples;
        continue;
      }
      excluded_.erase(it);  // apart: from now on it counts like any other pair
    }
    if (*distance < 0.0) {
      ++stats_.overlaps;
      stats_.sumDepth += -*distance;
      stats_.maxDepth = std::max(stats_.maxDepth, -*distance);
    }
  }
  // Excluded pairs whose boxes no longer overlap are apart too.
  std::erase_if(excluded_, [&](const auto& entry) { return entry.second != stats_.samples; });
}

void PenetrationMeter::excludeDropOverlaps(std::span<const Pose> poses, int firstNew) {
  place(poses);
  const int firstNewProxy = static_cast<int>(scene_.statics.size()) + firstNew;
  for (const ProxyPair& pair : bruteForcePairs({boxes_, owners_, isStatic_})) {
    if (pair.second < firstNewProxy) continue;  // pairs are (lower, higher) proxy index
    const std::optional<double> distance = signedDistance(pair.first, pair.second);
    if (distance && *distance < 0.0) {
      excluded_[pair] = stats_.samples;
      ++stats_.dropOverlaps;
      stats_.dropOverlapMaxDepth = std::max(stats_.dropOverlapMaxDepth, -*distance);
    }
  }
}

}  // namespace hb::sim
