#pragma once
// Interpenetration of a SimScene's bodies at given poses, measured with heavyball's own narrow
// phase (collide(): GJK, then EPA for the depth) on the exact shapes, whatever engine produced
// the poses: the same ruler for every engine, independent of what each reports of its contacts.
//
// A spawner may drop a body into one that is already there. Such an overlap is the scene's, the
// same for every engine: excludeDropOverlaps() leaves those pairs out of the statistics until
// they first come apart.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "apps/bench/sim/sim_scene.hpp"
#include "collision/broad_phase.hpp"
#include "collision/obb.hpp"

namespace hb::sim {

struct PenetrationStats {
  long samples = 0;        ///< measure() calls
  long overlaps = 0;       ///< overlapping pairs, summed over samples
  double sumDepth = 0.0;   ///< m
  double maxDepth = 0.0;   ///< m
  long failedQueries = 0;  ///< narrow-phase queries that did not converge (counted, not used)
  int dropOverlaps = 0;    ///< pairs a drop created overlapping (left out until apart)
  double dropOverlapMaxDepth = 0.0;  ///< m, the deepest of them at its drop

  /// Mean depth over every overlapping pair of every sample (m); 0 without overlaps.
  double meanDepth() const { return overlaps > 0 ? sumDepth / overlaps : 0.0; }
  double overlapsPerSample() const {
    return samples > 0 ? static_cast<double>(overlaps) / samples : 0.0;
  }
};

class PenetrationMeter {
 public:
  /// Keeps `scene` by reference.
  explicit PenetrationMeter(const SimScene& scene);

  /// One sample: bodies 0 .. poses.size() - 1 of the scene at these poses (heavyball body
  /// frames). Every pair of pieces whose shapes overlap (signed distance < 0) counts, body-body
  /// and body-static alike, with its penetration depth.
  void measure(std::span<const Pose> poses);

  /// Called right after bodies firstNew .. poses.size() - 1 were dropped, before the next step:
  /// their pairs that overlap now are left out of measure() until they first separate.
  void excludeDropOverlaps(std::span<const Pose> poses, int firstNew);

  const PenetrationStats& stats() const { return stats_; }

 private:
  void place(std::span<const Pose> poses);
  /// Signed distance of two pieces, or nullopt when the query did not converge.
  std::optional<double> signedDistance(int a, int b) const;

  const SimScene& scene_;
  // The bodies' pieces, body by body: their shapes, boxes in their own frames, placement.
  struct Piece {
    Shape shape;
    Obb box;
    Pose inBody;
    int body;
  };
  std::vector<Piece> pieces_;
  std::vector<int> firstPiece_;  // per body, its first piece's index in pieces_
  std::vector<Obb> boxes_;       // world boxes: statics, then the bodies' pieces
  std::vector<int> owners_;
  std::vector<std::uint8_t> isStatic_;
  std::vector<Pose> piecePoses_;
  BroadPhase broadPhase_;
  std::map<ProxyPair, long> excluded_;  // drop overlaps, with the last sample they overlapped
  PenetrationStats stats_;
};

}  // namespace hb::sim
