#include "apps/viewer/dropper.hpp"

#include <cmath>
#include <filesystem>
#include <numbers>

#include "engine/drop_clearance.hpp"

namespace hb::viewer {
namespace {

/// Primitive shapes of characteristic half size s, in proportions that tumble interestingly.
Shape primitive(ShapeType type, double s) {
  switch (type) {
    case ShapeType::Box:
      return Shape::box({1.2 * s, 0.8 * s, 0.6 * s});
    case ShapeType::Sphere:
      return Shape::sphere(s);
    case ShapeType::Capsule:
      return Shape::capsule(0.6 * s, s);
    case ShapeType::Cylinder:
      return Shape::cylinder(0.8 * s, s);
    case ShapeType::Cone:
      return Shape::cone(s, s);
    case ShapeType::Ellipsoid:
      return Shape::ellipsoid({1.3 * s, 0.9 * s, 0.65 * s});
    case ShapeType::ConvexHull:
    case ShapeType::Superquadric:
    case ShapeType::SupportPoints:
      break;
  }
  return Shape::box(Eigen::Vector3d::Constant(s));
}

Eigen::Vector3d inDisk(std::mt19937& rng, double radius) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double angle = 2.0 * std::numbers::pi * unit(rng);
  const double r = radius * std::sqrt(unit(rng));
  return {r * std::cos(angle), r * std::sin(angle), 0.0};
}

Eigen::Vector3d inBall(std::mt19937& rng, double radius) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (;;) {
    const Eigen::Vector3d v(u(rng), u(rng), u(rng));
    if (v.squaredNorm() <= 1.0) return radius * v;
  }
}

}  // namespace

void Dropper::setWorld(const World& world, const Eigen::Vector3d& sceneCenter, double sceneRadius) {
  rainDue_ = 0.0;
  for (const StaticDescription& s : world.scene().statics) {
    if (s.kind != StaticDescription::Kind::Funnel) continue;
    // Just above the rim, inside the mouth.
    mouth_ = {0.0, 0.0, s.funnel.bottomZ + s.funnel.height + 0.12};
    mouthRadius_ = s.funnel.topRadius;
    return;
  }
  mouth_ = sceneCenter + Eigen::Vector3d(0.0, 0.0, 0.5 * sceneRadius + 0.3);
  mouthRadius_ = 0.25 * sceneRadius;
}

BodyDescription Dropper::describe(World& world, const DropControls& c) {
  BodyDescription body;
  body.material = c.material;
  Eigen::Vector3d centerOfMass = Eigen::Vector3d::Zero();  // in the shape's frame
  if (c.kind == DropKind::Primitive) {
    body.shape.shape = primitive(c.primitive, c.primitiveSize);
  } else {
    std::string name = c.asset;
    if (c.kind == DropKind::RandomAsset) {
      const std::vector<std::string> names = c.assets.empty() ? world.assets().names() : c.assets;
      if (names.empty()) throw std::runtime_error("the scene's asset folder has no assets");
      name = names[std::uniform_int_distribution<size_t>(0, names.size() - 1)(rng_)];
    }
    body.shape.asset = name;
    // Parts where the asset has a decomposition; its hull otherwise.
    body.shape.parts =
        c.parts && std::filesystem::exists(assetPartsPath(world.scene().assetDir, name));
    const double density = world.scene().defaultDensity;
    centerOfMass = (body.shape.parts ? world.assets().getParts(name, density)
                                     : world.assets().get(name, density))
                       ->massProperties.centerOfMass;
  }

  Eigen::Quaterniond q;
  if (c.randomOrientation) {
    std::normal_distribution<double> n(0.0, 1.0);
    q = Eigen::Quaterniond(n(rng_), n(rng_), n(rng_), n(rng_)).normalized();
  } else {
    const Eigen::Vector3d e = c.eulerDegrees.cast<double>() * std::numbers::pi / 180.0;
    q = Eigen::AngleAxisd(e.x(), Eigen::Vector3d::UnitZ()) *
        Eigen::AngleAxisd(e.y(), Eigen::Vector3d::UnitY()) *
        Eigen::AngleAxisd(e.z(), Eigen::Vector3d::UnitX());
  }
  // The centre of mass lands on a random point of the mouth (kept off the rim).
  const Eigen::Vector3d point = mouth_ + inDisk(rng_, 0.7 * c.spread * mouthRadius_);
  body.pose.q = q;
  body.pose.p = point - q * centerOfMass;
  body.linearVelocity = inDisk(rng_, c.lateralSpeed) - c.downwardSpeed * Eigen::Vector3d::UnitZ();
  body.angularVelocity = inBall(rng_, c.spin);
  return body;
}

int Dropper::drop(World& world, const DropControls& controls) {
  BodyDescription body = describe(world, controls);
  if (body.shape.shape) {
    liftClearOfBodies(world, body, *body.shape.shape, localObb(*body.shape.shape),
                      DropClearance::Boxes);
  } else {
    const auto asset = world.assets().get(body.shape.asset, world.scene().defaultDensity);
    liftClearOfBodies(world, body, asset->shape, asset->localObb, DropClearance::Boxes);
  }
  return world.addBody(body);
}

int Dropper::rain(World& world, const DropControls& controls, double seconds) {
  if (!controls.rain) {
    rainDue_ = 0.0;
    return 0;
  }
  rainDue_ += controls.rainRate * seconds;
  int dropped = 0;
  while (rainDue_ >= 1.0) {
    drop(world, controls);
    rainDue_ -= 1.0;
    ++dropped;
  }
  return dropped;
}

}  // namespace hb::viewer
