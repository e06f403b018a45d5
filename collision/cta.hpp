#pragma once
// Collision translations of convex polyhedra by incremental convex minimisation: CTA, the
// algorithm of D. Mirolo, S. Carpin and E. Pagello ("Incremental convex minimization for
// computing collision translations of convex polyhedra", IEEE T-RO 2007).
//
// Slice P by the planes rho(x) normal to one of its axes and Q by sigma(y) normal to one of
// its own: phi(x, y), the collision translation along d of the sections P n rho(x) and
// Q n sigma(y), is convex, and its minimum is the collision translation of P and Q. CTA
// minimises phi over the rectangle of all section pairs by the method of centres of gravity:
// each step solves one pair of sections (section_pair.hpp), cuts the search region with a line
// through the region's centroid (a subgradient of phi where the sections collide, the shadow of
// a separating plane where they do not) and, where two side faces of the drums touch, first
// shifts the cut to the least translation of those two faces, which proves the whole cell
// useless. A contact is accepted when a plane through it separates the touching bodies, with
// d pointing from P to Q: then no smaller translation collides. With the previous solution of
// the same pair, the search starts there and stays in a square around it (the focus
// neighbourhood, sized by how far P's contact point moved across d) while the centroid allows.
//
// Answers the same question as castShape (shape_cast.hpp) on polyhedra: boxes and hulls.

#include <Eigen/Core>
#include <array>
#include <memory>
#include <mutex>

#include "collision/pose.hpp"
#include "collision/section_stack.hpp"
#include "collision/shape.hpp"
#include "collision/shape_cast.hpp"

namespace hb {

/// A polyhedron prepared for CTA: its hull and, built on first use, its section stacks along
/// the three axes of its frame and, for configurations where those are parallel to the
/// direction or to the other body's, the four diagonals of its frame. Thread-safe.
class CtaPolyhedron {
 public:
  /// Throws std::invalid_argument for shapes other than boxes and hulls without a convex radius.
  explicit CtaPolyhedron(const Shape& shape);
  explicit CtaPolyhedron(std::shared_ptr<const ConvexHull> hull);
  CtaPolyhedron(const CtaPolyhedron&) = delete;
  CtaPolyhedron& operator=(const CtaPolyhedron&) = delete;

  const ConvexHull& hull() const { return *hull_; }
  const std::shared_ptr<const ConvexHull>& hullPtr() const { return hull_; }
  static constexpr int kAxes = 7;
  /// Axis i of the frame: x, y, z, then the diagonals (+-1, +-1, 1) / sqrt(3).
  static Eigen::Vector3d axis(int i);
  /// The stack normal to axis(i).
  const SectionStack& stack(int i) const;
  /// The size of the stack along axis(i) (crossings stored), known before it is built.
  std::size_t stackSize(int i) const { return stackSizes_[i]; }
  /// Whether the stack along axis(i) may be built: it holds at most
  /// max(kCrossingBudgetFloor, kCrossingsPerVertex n) crossings (n vertices, 80 bytes each).
  /// A round hull's stacks hold about 3 n^1.5 (3k vertices: 166 per vertex); without a bound,
  /// CTA's memory would grow with them (10k vertices: 0.4 GB, 100k: tens of GB). Queries whose
  /// polyhedra have no buildable pair of stacks are answered by the GJK cast
  /// (CtaStats::largeHullCasts), so a polyhedron's memory is O(n).
  bool isBuildable(int i) const;
  static constexpr std::size_t kCrossingBudgetFloor = std::size_t{1} << 18;  // 21 MB
  static constexpr std::size_t kCrossingsPerVertex = 16;
  /// Whether queries use the stack along axis(i) when it is well conditioned: buildable and not
  /// many times larger than the smallest (a lattice's diagonals hold O(n^1.5) crossings, its
  /// axis O(n)).
  bool isSmallStack(int i) const;
  /// Builds every small stack now (else each is built by the first query that needs it).
  void prepare() const;
  /// Largest distance of a vertex from the frame's origin (sets the tolerances' scale).
  double radius() const { return radius_; }

 private:
  std::shared_ptr<const ConvexHull> hull_;
  std::array<std::size_t, kAxes> stackSizes_{};
  double radius_ = 0.0;
  mutable std::array<std::unique_ptr<SectionStack>, kAxes> stacks_;
  mutable std::array<std::once_flag, kAxes> built_;
};

struct CtaOptions {
  /// Metres: contacts are certified, and the search region is dropped, to this accuracy.
  double tolerance = 1e-9;
  /// Cap on minimisation steps (each solves one or two section pairs) per direction searched.
  int maxSteps = 100;
  /// Use the focus neighbourhood of a warm start.
  bool focus = true;
};

/// The previous query of a pair, to start the next one from its solution.
struct CtaWarmStart {
  bool valid = false;
  int axisA = -1, axisB = -1;
  Eigen::Vector2d solution = Eigen::Vector2d::Zero();    ///< (x, y) of the last minimum
  Eigen::Vector3d contactOnA = Eigen::Vector3d::Zero();  ///< A's contact point, A's frame
  Pose poseA, poseB;
  SupportHints hints;
};

/// What a query cost.
struct CtaStats {
  int steps = 0;           ///< minimisation steps (both directions searched, when two are)
  int sectionPairs = 0;    ///< pairs of sections solved
  int chordSearches = 0;   ///< binary searches for chords inside them
  int supportQueries = 0;  ///< hull support queries of the certificates and of a miss's plane
  /// Queries answered by the GJK cast instead (castShape): grazing contacts, where A's shadow
  /// along the direction only touches B's and no plane certifies the minimisation's contact.
  int gjkCasts = 0;
  /// Queries answered by the GJK cast because a polyhedron's stacks are too large to build
  /// (CtaPolyhedron::isBuildable).
  int largeHullCasts = 0;
};

/// The collision translation of A along `direction` against B (CastResult as castShape's; a
/// grazing contact, which CTA cannot certify, is answered by castShape: CtaStats::gjkCasts, and
/// so are polyhedra too large for their stacks: CtaStats::largeHullCasts).
/// `warm`, when given, starts from and is updated to this query's solution.
CastResult castCta(const CtaPolyhedron& a, const Pose& poseA, const CtaPolyhedron& b,
                   const Pose& poseB, const Eigen::Vector3d& direction,
                   const CtaOptions& options = {}, CtaWarmStart* warm = nullptr,
                   CtaStats* stats = nullptr);

}  // namespace hb
