// Runs a PlainPeer as a benchmark Method, and a PlainCastPeer as a CastPeer: converts shapes and
// problems to plain data, untimed for the shapes (the peer converts the plain poses to its
// library's types in its timed call).

#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "apps/bench/peers/collision/cast_peer.hpp"
#include "apps/bench/peers/collision/peer.hpp"
#include "apps/bench/peers/collision/penetration_peer.hpp"
#include "apps/bench/peers/collision/plain_peer.hpp"

namespace hb::bench::peers {

namespace {

PlainShape toPlain(const Shape& shape) {
  PlainShape out;
  if (shape.type() == ShapeType::Ellipsoid) {
    out.isEllipsoid = true;
    out.radii = {shape.radii().x(), shape.radii().y(), shape.radii().z()};
  } else if (shape.type() == ShapeType::ConvexHull) {
    const ConvexHull& hull = shape.hull();
    for (const Eigen::Vector3d& v : hull.vertices()) out.vertices.push_back({v.x(), v.y(), v.z()});
    for (int f = 0; f < hull.numFaces(); ++f) {
      const std::span<const int> face = hull.face(f);
      out.faces.push_back(static_cast<int>(face.size()));
      out.faces.insert(out.faces.end(), face.begin(), face.end());
    }
    out.numFaces = hull.numFaces();
  } else {
    throw std::invalid_argument("peer: unsupported shape type " +
                                std::string(toString(shape.type())));
  }
  return out;
}

PlainPose toPlain(const Pose& pose) {
  PlainPose out;
  out.quaternion = {pose.q.w(), pose.q.x(), pose.q.y(), pose.q.z()};
  for (int i = 0; i < 3; ++i) out.position[i] = pose.p[i];
  return out;
}

class PlainPeerMethod final : public Method {
 public:
  explicit PlainPeerMethod(std::unique_ptr<PlainPeer> peer) : peer_(std::move(peer)) {}

  std::string_view name() const override { return peer_->name(); }
  bool supports(GjkMode mode) const override {
    return mode == GjkMode::Boolean || peer_->supportsDistance();
  }
  void prepare(std::span<const BenchShape> shapes) override {
    std::vector<PlainShape> plain;
    for (const BenchShape& s : shapes) plain.push_back(toPlain(s.shape));
    peer_->prepare(plain);
  }
  void setProblem(const Problem& p) override {
    PlainProblem plain;
    plain.a = p.a;
    plain.b = p.b;
    plain.poseA = toPlain(p.poseA);
    plain.poseB = toPlain(p.poseB);
    plain.x0 = {p.x0.x(), p.x0.y(), p.x0.z()};
    peer_->setProblem(plain);
  }
  Answer solve(GjkMode mode) override {
    const PlainAnswer a = peer_->solve(mode == GjkMode::Distance);
    Answer answer;
    answer.collide = a.collide;
    answer.distance = a.distance;
    return answer;
  }

 private:
  std::unique_ptr<PlainPeer> peer_;
};

class PlainCastAdapter final : public CastPeer {
 public:
  explicit PlainCastAdapter(std::unique_ptr<PlainCastPeer> peer) : peer_(std::move(peer)) {}

  std::string_view name() const override { return peer_->name(); }
  void prepare(std::span<const Shape> shapes) override {
    std::vector<PlainShape> plain;
    for (const Shape& s : shapes) plain.push_back(toPlain(s));
    peer_->prepare(plain);
  }
  PeerCast cast(int a, const Pose& poseA, int b, const Pose& poseB,
                const Eigen::Vector3d& direction, double length) override {
    const PlainCast c = peer_->cast(a, toPlain(poseA), b, toPlain(poseB),
                                    {direction.x(), direction.y(), direction.z()}, length);
    return {c.hit, c.distance};
  }

 private:
  std::unique_ptr<PlainCastPeer> peer_;
};

/// A PlainPenetrationPeer as a PenetrationPeer: each hull converted once (untimed), on first use.
class PlainPenetrationAdapter final : public PenetrationPeer {
 public:
  explicit PlainPenetrationAdapter(std::unique_ptr<PlainPenetrationPeer> peer)
      : peer_(std::move(peer)) {}

  std::string_view name() const override { return peer_->name(); }
  bool handles(const Shape& s) const override {
    return s.type() == ShapeType::ConvexHull || s.type() == ShapeType::Ellipsoid;
  }
  PeerPenetration solve(const Shape& a, const Pose& poseA, const Shape& b,
                        const Pose& poseB) override {
    const PlainPenetration p = peer_->solve(index(a), toPlain(poseA), index(b), toPlain(poseB));
    return {p.collide, p.depth, Eigen::Vector3d(p.normal[0], p.normal[1], p.normal[2])};
  }
  /// Converts the shape before a timed call.
  int index(const Shape& s) {
    const void* key = s.type() == ShapeType::ConvexHull ? static_cast<const void*>(&s.hull())
                                                        : static_cast<const void*>(&s);
    const auto found = indices_.find(key);
    if (found != indices_.end()) return found->second;
    return indices_[key] = peer_->add(toPlain(s));
  }

 private:
  std::unique_ptr<PlainPenetrationPeer> peer_;
  std::map<const void*, int> indices_;
};

}  // namespace

std::unique_ptr<PenetrationPeer> makeFclPenetration() {
  return std::make_unique<PlainPenetrationAdapter>(makeFclPenetrationPlain());
}

std::unique_ptr<CastPeer> makeFclCast() {
  return std::make_unique<PlainCastAdapter>(makeFclCastPlain());
}

std::unique_ptr<Method> makeFclLibccd() {
  return std::make_unique<PlainPeerMethod>(makeFclLibccdPlain());
}
std::unique_ptr<Method> makeFclIndep() {
  return std::make_unique<PlainPeerMethod>(makeFclIndepPlain());
}

}  // namespace hb::bench::peers
