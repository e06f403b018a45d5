// Render meshes of shapes and their simplification: closed, outward-wound, on the surface.

#include <gtest/gtest.h>

#include <map>

#include "render/mesh_simplify.hpp"
#include "render/ray_cast.hpp"
#include "render/shape_mesh.hpp"

namespace hb {
namespace {

Eigen::Vector3d at(const RenderVertex& v) {
  return {v.position[0], v.position[1], v.position[2]};
}

/// Signed volume by the divergence theorem: positive when the triangles wind outward.
double volume(const RenderMesh& m) {
  double v = 0.0;
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    v += at(m.vertices[m.indices[t]])
             .dot(at(m.vertices[m.indices[t + 1]]).cross(at(m.vertices[m.indices[t + 2]])));
  }
  return v / 6.0;
}

TEST(ShapeMesh, VolumesApproachTheShapes) {
  const double pi = 3.14159265358979;
  const struct {
    Shape shape;
    double volume;
  } cases[] = {
      {Shape::box({0.3, 0.2, 0.1}), 8 * 0.3 * 0.2 * 0.1},
      {Shape::sphere(0.2), 4.0 / 3.0 * pi * 0.008},
      {Shape::ellipsoid({0.3, 0.2, 0.1}), 4.0 / 3.0 * pi * 0.006},
      {Shape::cylinder(0.2, 0.3), pi * 0.04 * 0.6},
      {Shape::cone(0.2, 0.3), pi * 0.04 * 0.6 / 3.0},
      {Shape::capsule(0.2, 0.3), pi * 0.04 * 0.6 + 4.0 / 3.0 * pi * 0.008},
  };
  for (const auto& c : cases) {
    const RenderMesh m = shapeMesh(c.shape, 64);
    // Inscribed tessellations are a little smaller; never larger, never inside out.
    EXPECT_GT(volume(m), 0.97 * c.volume) << toString(c.shape.type());
    EXPECT_LT(volume(m), 1.0001 * c.volume) << toString(c.shape.type());
  }
}

TEST(ShapeMesh, VerticesLieOnTheSurface) {
  for (const Shape& s :
       {Shape::sphere(0.2), Shape::capsule(0.1, 0.2), Shape::ellipsoid({0.3, 0.2, 0.1})}) {
    for (const RenderVertex& v : shapeMesh(s).vertices) {
      const Eigen::Vector3d p = at(v);
      const Eigen::Vector3d n(v.normal[0], v.normal[1], v.normal[2]);
      // Just outside along the normal is outside; just inside is inside.
      EXPECT_FALSE(rayCast(s, Ray{p + 1e-4 * n, n}).has_value()) << toString(s.type());
      EXPECT_EQ(rayCast(s, Ray{p - 1e-4 * n, n}).value_or(1.0), 0.0) << toString(s.type());
    }
  }
}

/// A finely tessellated sphere with a texture seam, like a scanned asset.
RenderMesh fineSphere() {
  RenderMesh m = shapeMesh(Shape::sphere(0.1), 160);
  for (RenderVertex& v : m.vertices) {
    const double u = std::atan2(v.position[1], v.position[0]) / (2 * 3.14159265358979) + 0.5;
    v.uv = {float(u), float(v.position[2] / 0.2 + 0.5)};
  }
  return m;
}

TEST(MeshSimplify, ReachesTheTargetAndKeepsTheShape) {
  const RenderMesh fine = fineSphere();
  const RenderMesh coarse = simplifyMesh(fine, 3000);
  EXPECT_LE(coarse.indices.size() / 3, 3000u);
  EXPECT_GT(coarse.indices.size() / 3, 500u);
  EXPECT_NEAR(volume(coarse), volume(fine), 0.05 * volume(fine));
  for (const RenderVertex& v : coarse.vertices) EXPECT_NEAR(at(v).norm(), 0.1, 0.003);
}

TEST(MeshSimplify, SmallMeshesStayAsTheyAre) {
  const RenderMesh box = shapeMesh(Shape::box({0.1, 0.1, 0.1}));
  EXPECT_EQ(simplifyMesh(box, 3000).indices, box.indices);
}

}  // namespace
}  // namespace hb
