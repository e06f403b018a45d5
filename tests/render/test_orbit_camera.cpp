// The orbit camera: the view matrix puts the target straight ahead at its distance, the ray
// through the viewport centre points at the target, and zoom, orbit and pan keep their meaning.

#include <gtest/gtest.h>

#include "render/orbit_camera.hpp"

namespace hb {
namespace {

OrbitCamera camera() {
  OrbitCamera c;
  OrbitView v;
  v.target = {0.1, -0.2, 0.4};
  v.distance = 2.0;
  v.yaw = -1.1;
  v.pitch = 0.4;
  c.setHome(v);
  return c;
}

TEST(OrbitCamera, TargetIsStraightAhead) {
  const OrbitCamera c = camera();
  const Eigen::Vector4f target(0.1f, -0.2f, 0.4f, 1.0f);
  const Eigen::Vector4f eye = c.viewMatrix() * target;
  EXPECT_NEAR(eye.x(), 0.0f, 1e-5f);
  EXPECT_NEAR(eye.y(), 0.0f, 1e-5f);
  EXPECT_NEAR(eye.z(), -2.0f, 1e-5f);
  EXPECT_NEAR((c.position() - c.view().target).norm(), 2.0, 1e-12);
}

TEST(OrbitCamera, CentreRayHitsTarget) {
  const OrbitCamera c = camera();
  const Ray r = c.rayThrough(640.0, 360.0, 1280.0, 720.0);
  EXPECT_NEAR((r.at(2.0) - c.view().target).norm(), 0.0, 1e-9);
}

TEST(OrbitCamera, CornerRayProjectsToCorner) {
  const OrbitCamera c = camera();
  const Ray r = c.rayThrough(0.0, 0.0, 1280.0, 720.0);  // top-left pixel corner
  const Eigen::Vector3d p = r.at(3.0);
  const Eigen::Vector4f clip = c.projectionMatrix(1280.0 / 720.0) * c.viewMatrix() *
                               Eigen::Vector4f(p.x(), p.y(), p.z(), 1.0f);
  EXPECT_NEAR(clip.x() / clip.w(), -1.0f, 1e-4f);
  EXPECT_NEAR(clip.y() / clip.w(), 1.0f, 1e-4f);
}

TEST(OrbitCamera, ZoomOrbitPan) {
  OrbitCamera c = camera();
  c.zoom(3.0);
  EXPECT_LT(c.view().distance, 2.0);
  const double pitch = c.view().pitch;
  c.orbit(0.0, 10000.0);  // clamped short of the pole
  EXPECT_LT(c.view().pitch, 1.571);
  EXPECT_GT(c.view().pitch, pitch);
  const Eigen::Vector3d before = c.view().target;
  c.pan(100.0, 0.0, 720.0);
  // Dragging right moves the target left in the view, in the horizontal plane.
  EXPECT_NEAR(c.view().target.z(), before.z(), 1e-12);
  EXPECT_GT((c.view().target - before).norm(), 0.0);
}

TEST(OrbitCamera, GlidesToFramedObject) {
  OrbitCamera c = camera();
  c.frame({1.0, 1.0, 0.2}, 0.1);
  for (int i = 0; i < 200; ++i) c.update(1.0 / 60.0);
  EXPECT_NEAR((c.view().target - Eigen::Vector3d(1.0, 1.0, 0.2)).norm(), 0.0, 1e-6);
  c.reset();
  for (int i = 0; i < 200; ++i) c.update(1.0 / 60.0);
  EXPECT_NEAR(c.view().distance, 2.0, 1e-6);
}

}  // namespace
}  // namespace hb
