#pragma once
// Collision translation of two planar sections (Mirolo, Carpin and Pagello, Sec. III-B): the
// section R of P at height x along P's slicing axis a, translated along d, against the section S
// of Q at height y along Q's axis b. R's points reach S's plane at a time that is affine over
// that plane, so the question is a linear objective over the intersection of R's shadow R'
// (cast along d onto S's plane) with S. Both polygons are read lazily from their section stacks:
// the extreme vertices and the chords at a level of the objective are binary searches, and a
// bisection on the level stops as soon as the bracket lies on one edge of every chain, so a pair
// costs O(log^2 m) for sections of m vertices.
//
// The answer is either a contact (the least time, the touching point and the features that
// touch, from which the time's gradient in (x, y) follows) or a separation construction: a
// plane parallel to d with R on one side and S on the other, through a vertex of each.

#include <Eigen/Core>

#include "collision/section_stack.hpp"

namespace hb {

/// A section stack placed in the world: rotation and translation of its hull's frame.
struct PlacedStack {
  const ConvexHull* hull = nullptr;
  const SectionStack* stack = nullptr;
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();
  /// The slicing axis in the world.
  Eigen::Vector3d axis() const { return rotation * stack->axis(); }
  /// World height offset: a section at stack height h lies in axis() . x = h + offset().
  double offset() const { return axis().dot(translation); }
};

enum class SectionContactKind {
  Edge,     ///< an edge of R' crosses an edge of S: a side face of P meets a side face of Q
  VertexP,  ///< a vertex of R (on a crossing edge of P) lands inside S
  VertexQ,  ///< a vertex of S (on a crossing edge of Q) is reached inside R'
};

struct SectionPairAnswer {
  bool collide = false;
  int slabP = 0, slabQ = 0;
  // Contact: the least time and the touching points (world; pointQ = pointP + time d).
  double time = 0.0;
  Eigen::Vector3d pointP = Eigen::Vector3d::Zero(), pointQ = Eigen::Vector3d::Zero();
  SectionContactKind kind = SectionContactKind::Edge;
  /// Hull faces of the constraints that hold at the contact: faceP[0..1] of P, faceQ[0..1] of Q
  /// (-1 when unused; Edge uses one of each, VertexP two of P, VertexQ two of Q).
  int faceP[2] = {-1, -1}, faceQ[2] = {-1, -1};
  /// Edge contact: the side of each slab that touches (the hull face between the side's
  /// crossing edge and the next, SectionStack::sideFace).
  int sideP = -1, sideQ = -1;
  // Separation: every point of R has normal . x <= supportP, every point of S normal . x >=
  // supportQ, supportQ > supportP; normal is a unit vector perpendicular to d. crossingP and
  // crossingQ are the crossing edges (of slabP, slabQ) through the two supporting vertices.
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();
  double supportP = 0.0, supportQ = 0.0;
  int crossingP = 0, crossingQ = 0;
  /// Chord evaluations spent (each a binary search): the pair's work.
  int chordSearches = 0;
};

/// The collision translation along unit d of P's section at stack height x with Q's at height y
/// (both clamped into their stacks). The axes and d must be pairwise far from parallel.
SectionPairAnswer collideSections(const PlacedStack& p, double x, const PlacedStack& q, double y,
                                  const Eigen::Vector3d& d);

}  // namespace hb
