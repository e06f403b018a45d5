// Silhouette loops of convex hulls, walked over half-edges built once per hull.

#include "collision/silhouette.hpp"

#include <algorithm>
#include <span>

namespace hb {

using Eigen::Vector3d;

SilhouetteTracer::SilhouetteTracer(const ConvexHull& hull) : hull_(hull) {
  const int numVertices = hull.numVertices();
  // Slot of directed edge (a, b): a's start in the vertex adjacency lists plus b's index in
  // a's list, so twins are found without a search over all edges.
  std::vector<int> slotStart(numVertices + 1, 0);
  for (int v = 0; v < numVertices; ++v) {
    slotStart[v + 1] = slotStart[v] + static_cast<int>(hull.neighbours(v).size());
  }
  const auto slot = [&](int a, int b) {
    const std::span<const int> around = hull.neighbours(a);
    const auto it = std::find(around.begin(), around.end(), b);
    return it == around.end() ? -1 : slotStart[a] + static_cast<int>(it - around.begin());
  };
  std::vector<int> halfEdgeAt(slotStart[numVertices], -1);
  outgoing_.assign(numVertices, -1);
  for (int f = 0; f < hull.numFaces(); ++f) {
    const std::span<const int> corners = hull.face(f);
    const int first = static_cast<int>(halfEdges_.size());
    const int count = static_cast<int>(corners.size());
    for (int i = 0; i < count; ++i) {
      const int s = slot(corners[i], corners[i + 1 < count ? i + 1 : 0]);
      if (s < 0 || halfEdgeAt[s] >= 0) return;  // not a closed surface: unusable
      halfEdgeAt[s] = first + i;
      HalfEdge h;
      h.origin = corners[i];
      h.next = i + 1 < count ? first + i + 1 : first;
      h.face = f;
      halfEdges_.push_back(h);
      outgoing_[corners[i]] = first + i;
    }
  }
  for (HalfEdge& h : halfEdges_) {
    const int s = slot(halfEdges_[h.next].origin, h.origin);
    if (s < 0 || halfEdgeAt[s] < 0) return;
    const HalfEdge& twin = halfEdges_[halfEdgeAt[s]];
    h.twinNormal = hull.faceNormal(twin.face);
    h.around = twin.next;
  }
  usable_ = true;
}

bool SilhouetteTracer::trace(const Vector3d& n, int near, std::vector<int>& loop) const {
  loop.clear();
  if (!usable_ || near < 0 || near >= static_cast<int>(outgoing_.size())) return false;
  const int numHalfEdges = static_cast<int>(halfEdges_.size());
  // A start: a half-edge of a face that faces n, with a face on its other side that does not;
  // first among those leaving `near`, else among all.
  int start = -1;
  for (int h = outgoing_[near], turns = 0; turns < numHalfEdges; ++turns) {
    if (onBoundary(n, h)) {
      start = h;
      break;
    }
    h = halfEdges_[h].around;
    if (h == outgoing_[near]) break;
  }
  for (int h = 0; h < numHalfEdges && start < 0; ++h) {
    if (onBoundary(n, h)) start = h;
  }
  if (start < 0) return false;
  // The boundary edge after h leaves h's end: turn round that vertex through faces facing n
  // until the face on the other side does not. No half-edge is passed twice in one loop,
  // which caps the walk.
  int steps = 0;
  int h = start;
  do {
    loop.push_back(halfEdges_[h].origin);
    int g = halfEdges_[h].next;
    while (n.dot(halfEdges_[g].twinNormal) > 0.0) {
      g = halfEdges_[g].around;
      if (++steps > numHalfEdges) return false;
    }
    h = g;
    if (++steps > numHalfEdges) return false;
  } while (h != start);
  return true;
}

bool SilhouetteTracer::onBoundary(const Vector3d& n, int h) const {
  return n.dot(hull_.faceNormal(halfEdges_[h].face)) > 0.0 &&
         !(n.dot(halfEdges_[h].twinNormal) > 0.0);
}

}  // namespace hb
