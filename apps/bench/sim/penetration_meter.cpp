#include "apps/bench/sim/penetration_meter.hpp"

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
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    firstPiece_.push_back(static_cast<int>(pieces_.size()));
    for (const SimPiece& piece : scene.bodies[i].collisionPieces()) {
      Obb box;
      if (piece.shape.type() == ShapeType::ConvexHull) {
        const ConvexHull* hull = piece.shape.hullPtr().get();
        auto it = hullBoxes.find(hull);
        if (it == hullBoxes.end()) it = hullBoxes.emplace(hull, localObb(piece.shape)).first;
        box = it->second;
      } else {
        box = localObb(piece.shape);
      }
      pieces_.push_back({piece.shape, box, piece.inBody, static_cast<int>(i)});
    }
  }
  firstPiece_.push_back(static_cast<int>(pieces_.size()));
}

void PenetrationMeter::place(std::span<const Pose> poses) {
  // The pieces of bodies 0 .. poses.size() - 1, after the statics.
  const size_t statics = scene_.statics.size();
  const size_t count = statics + firstPiece_[poses.size()];
  boxes_.resize(count);
  owners_.resize(count);
  isStatic_.resize(count);
  piecePoses_.resize(count);
  for (size_t k = statics; k < count; ++k) {
    const Piece& piece = pieces_[k - statics];
    const Pose pose = poses[piece.body] * piece.inBody;
    boxes_[k] = piece.box.transformed(pose);
    owners_[k] = piece.body + 1;
    isStatic_[k] = 0;
    piecePoses_[k] = pose;
  }
}

std::optional<double> PenetrationMeter::signedDistance(int a, int b) const {
  const int statics = static_cast<int>(scene_.statics.size());
  auto shapeOf = [&](int proxy) -> const Shape& {
    return proxy < statics ? scene_.statics[proxy].shape : pieces_[proxy - statics].shape;
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
  const int firstNewProxy = static_cast<int>(scene_.statics.size()) + firstPiece_[firstNew];
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
