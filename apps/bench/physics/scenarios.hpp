#pragma once
// The physics scenarios, one factory each (physics_scenario.cpp lists them in table order), and
// what their files share.

#include <memory>
#include <string_view>

#include "apps/bench/physics/physics_scenario.hpp"

namespace hb::physics {

/// A box thrown and spinning under gravity: its centre of mass follows the parabola.
std::unique_ptr<PhysicsScenario> makeFreeFlight();
/// A box tumbling without gravity: angular momentum and energy stay constant.
std::unique_ptr<PhysicsScenario> makeFreeRotation();
/// Boxes spinning at 150 rad/s without gravity keep their spin, momentum and energy.
std::unique_ptr<PhysicsScenario> makeFastSpin();
/// A thin box spun about its intermediate axis flips as Euler's equations say (Dzhanibekov).
std::unique_ptr<PhysicsScenario> makeIntermediateAxis();
/// Spheres and cubes with restitution e dropped on the ground rebound to e^2 h, without spin.
std::unique_ptr<PhysicsScenario> makeBounce();
/// A ball's first three rebounds reach e^2 h, e^4 h, e^6 h.
std::unique_ptr<PhysicsScenario> makeBounceApexes();
/// Cubes dropped flat from 39 heights bounce without picking up spin.
std::unique_ptr<PhysicsScenario> makeFlatBounces();
/// Head-on sphere collisions from an arbitrary gap: momentum conserved, relative velocity -e.
std::unique_ptr<PhysicsScenario> makeHeadOn();
/// Oblique collisions of frictionless balls: the struck one leaves at asin(b / 2r).
std::unique_ptr<PhysicsScenario> makeObliqueImpacts();

enum class SlopeCase { Sticking, Sliding };
/// A box on a 20 degree ramp: sticks when mu > tan 20, else slides at g (sin - mu cos).
std::unique_ptr<PhysicsScenario> makeSlope(SlopeCase which);
/// A ball rolls down a 45 degree ramp at 5/7 g sin 45 t, without slipping.
std::unique_ptr<PhysicsScenario> makeRollingBall();
/// Boxes launched along the ground in eight directions stop after v^2 / (2 mu g), straight.
std::unique_ptr<PhysicsScenario> makeSlidingStop();
/// A ball and a capsule at rest on the ground stay where they are.
std::unique_ptr<PhysicsScenario> makeRestingRound();
/// A stack of `boxes` cubes on the ground stands still.
std::unique_ptr<PhysicsScenario> makeStack(int boxes);
/// A tower of cubes each shifted along x: stands while the weight above every face lies inside
/// it (4 mm steps), falls when it does not (6 mm, `topples`).
std::unique_ptr<PhysicsScenario> makeLeaningTower(bool topples);
/// A pyramid of cubes (rows of 10 down to 1) stands still.
std::unique_ptr<PhysicsScenario> makePyramid();

/// A ball on a ball joint swinging from 5 deg (or released level) at its exact period.
std::unique_ptr<PhysicsScenario> makePendulum(bool level);
/// A double pendulum released level keeps its energy.
std::unique_ptr<PhysicsScenario> makeDoublePendulum();
/// Ten links hanging at rest stay together (or a heavy link on four light ones, released
/// level, `heavyEnd`).
std::unique_ptr<PhysicsScenario> makeChain(bool heavyEnd);
/// Hinge motors: one lifts its load at its target rate, one below its load stalls at its limit.
std::unique_ptr<PhysicsScenario> makeHingeMotor();
/// A hinge driven into its limit stops there.
std::unique_ptr<PhysicsScenario> makeHingeLimit();

/// The downhill direction of the scene's tilted static (its box's x axis, pointing down), and
/// its angle from the horizontal (rad). Throws std::runtime_error when there is none.
struct Ramp {
  Eigen::Vector3d downhill = Eigen::Vector3d::UnitX();
  double angle = 0.0;
};
Ramp findRamp(const sim::SimScene& scene, std::string_view scenario);

/// Throws std::runtime_error unless the scene has `count` bodies (the scenario's scene file was
/// edited into another experiment).
void requireBodies(const sim::SimScene& scene, int count, std::string_view scenario);

}  // namespace hb::physics
