#pragma once
// A scene: what a World is built from. Read from JSON files (assets/scenes/*.json, documented in
// docs/scenes.md) shared by the CLI, the viewer, the benchmarks and the tests.

#include <Eigen/Core>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "collision/defaults.hpp"
#include "collision/gjk.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "collision/warm_start.hpp"
#include "dynamics/contact_solver_options.hpp"
#include "dynamics/integrator.hpp"
#include "dynamics/joint.hpp"
#include "dynamics/mass_properties.hpp"

namespace hb {

struct Material {
  double friction = 0.5;
  double restitution = 0.0;
};

/// A funnel as in the GJK++ paper's Fig. 14: slanted wall panels (boxes) around the z axis
/// forming a truncated cone open at both ends.
struct FunnelDescription {
  double topRadius = 0.35;      ///< m, inner radius at the top rim
  double bottomRadius = 0.08;   ///< m, inner radius at the bottom opening
  double height = 0.4;          ///< m, from the bottom opening to the top rim
  double bottomZ = 0.3;         ///< m, height of the bottom opening above the world origin
  double wallThickness = 0.02;  ///< m
  int panels = 16;
};

/// The body's collision shape: a YCB asset by name, or a primitive.
/// One convex piece of a compound body, posed in the body's shape frame.
struct ShapePiece {
  Shape shape;
  Pose pose;
};

struct BodyShapeDescription {
  std::string asset;           ///< folder name under the scene's asset directory, e.g. "025_mug"
  std::optional<Shape> shape;  ///< a primitive (or mesh) given inline instead of an asset
  /// Convex pieces given inline instead of either (a URDF link of several collision geometries,
  /// or a mesh of several objects): the body collides as each, and its mass properties at its
  /// density are theirs together (overlaps count twice).
  std::vector<ShapePiece> pieces;
  /// An asset collides as its convex hull (false) or as the pieces of its convex decomposition.
  bool parts = false;
};

struct StaticDescription {
  enum class Kind { Ground, Funnel, Shape } kind = Kind::Ground;
  double groundHeight = 0.0;   ///< Ground: the plane z = groundHeight (a large thin box)
  FunnelDescription funnel;    ///< Funnel
  std::optional<Shape> shape;  ///< Shape: a static convex shape at `pose`
  Pose pose;
  Material material;
};

struct BodyDescription {
  BodyShapeDescription shape;
  Pose pose;  ///< pose of the shape's own frame (for assets: the OBJ file's frame)
  Eigen::Vector3d linearVelocity = Eigen::Vector3d::Zero();
  Eigen::Vector3d angularVelocity = Eigen::Vector3d::Zero();
  Material material;
  std::optional<double> mass;     ///< kg; default: masses.csv for YCB assets, else density
  std::optional<double> density;  ///< kg/m^3; default: SceneDescription::defaultDensity
  /// Mass, centre of mass and inertia given outright (a URDF link's inertial), in the shape's
  /// own frame, in place of the shape's at its density (`mass` and `density` then unused).
  std::optional<MassProperties> inertial;
};

/// The most bodies a spawner drops (the scene's `count`, and `--objects`).
inline constexpr int kMaxSpawnCount = 1'000'000;
/// The shortest time step a scene may set, s (the longest is 0.1 s).
inline constexpr double kMinTimeStep = 1e-5;
/// The longest simulated time a run may ask for, s (~116 days).
inline constexpr double kMaxSimulatedSeconds = 1e7;
/// The fastest a body may be set moving (World::addBody), m/s and rad/s.
inline constexpr double kMaxBodySpeed = 1e4;
inline constexpr double kMaxBodyAngularSpeed = 1e5;

/// Drops random assets with random poses and velocities over a region (above the funnel).
struct SpawnerDescription {
  std::vector<std::string> assets;  ///< candidate asset names; empty = every asset in the dir
  /// Candidate shapes, drawn with the assets (with none of either: every asset in the dir).
  std::vector<Shape> shapes;
  int count = 0;
  unsigned seed = 1;
  Eigen::Vector3d center = {0.0, 0.0, 1.0};  ///< m, centre of the drop region
  double radius = 0.15;                      ///< m, horizontal radius of the drop region
  double height = 0.5;                       ///< m, vertical extent (bodies stacked upward)
  double maxLinearSpeed = 0.5;               ///< m/s, uniform in a ball
  double maxAngularSpeed = 3.0;              ///< rad/s, uniform in a ball
  double interval = 0.0;  ///< s between drops (0: all at start, spread over the height)
  Material material;
  bool parts = false;  ///< the assets collide as their convex decompositions' pieces
  /// Raise a drop that would start inside a body already there until it clears it (not a scene
  /// key: off only to replay the raw random draws, as the simulation benchmark does).
  bool liftClear = true;
};

struct SolverDescription {
  GjkVariant gjkVariant = GjkVariant::Nesterov;
  /// delta_k of the momentum variants (GjkOptions::schedule).
  MomentumSchedule momentumSchedule = MomentumSchedule::Paper;
  WarmStart warmStart = WarmStart::TransformedPrevious;
  /// GJK starts a pair's query from its last simplex (collision/warm_simplex.hpp) when the
  /// previous narrow phase saw the pair; warm_start's x0 then serves only the pairs without one.
  bool warmSimplex = true;
  double gjkTolerance = defaults::kGjkTolerance;
  int gjkMaxIterations = defaults::kGjkMaxIterations;
  int velocityIterations = ContactSolverOptions{}.velocityIterations;
  /// Gauss–Seidel passes over a manifold's own points per visit of the sweeps (1: point by
  /// point) and in the shock pass (see ContactSolverOptions).
  int manifoldIterations = ContactSolverOptions{}.manifoldIterations;
  int shockIterations = ContactSolverOptions{}.shockIterations;
  int positionIterations = ContactSolverOptions{}.positionIterations;
  /// m/s (see ContactSolverOptions::tolerance)
  double solverTolerance = ContactSolverOptions{}.tolerance;
  double speculativeMargin = 0.01;  ///< m: pairs closer than this produce (speculative) contacts
  /// m: boxes and hulls collide with their edges and corners rounded by this radius (clamped to
  /// Shape::maxConvexRadius()), so that resting contacts are GJK distances between their cores
  /// rather than EPA depths. Applies to bodies and statics added afterwards.
  double convexRadius = defaults::kSceneConvexRadius;
  double restitutionThreshold = ContactSolverOptions{}.restitutionThreshold;  ///< m/s
  bool sleeping = true;
  /// Continuous collision: fast bodies are swept against what does not move this step and put
  /// back before they pass through it or sink in by more than 3 mm (1% of the thinner piece for
  /// large bodies; sweepFastBodies; docs/physics.md says what it gains and costs).
  bool continuousCollision = true;
  /// A step whose contacts involve a body turning fast is split into up to this many substeps,
  /// each with its own narrow phase, solve and integration (substepCount): contacts are
  /// linear in their (sub)step, and a body turning 40 degrees in one sinks into its neighbours.
  /// 1: every step is one.
  int maxSubsteps = 4;
  /// rad: the most a body with contacts turns in one substep; a faster spin is slowed to it and
  /// counted (StepStatistics::limitedBodies). Free bodies turn at any speed. Steps are split
  /// further so that it binds only past kMaxSubsteps substeps (substepCount), or with
  /// maxSubsteps 1 past one turn of it per step.
  double maxContactTurn = RigidBodyIntegrator::kDefaultTurnLimit;
  /// Hz: a step in which a joint holds an awake body is split into substeps of at most
  /// 1 / joint_rate (two at 120 Hz; more when the contacts ask for more, or while a jointed body
  /// turns fast: substepCount): a joint's rows are linear in the (sub)step, and the error they
  /// leave grows with its square. At 240 a double pendulum keeps its energy to 0.65%, not 1.4%
  /// (120 Hz), and a heavy body swung on light links (100:1) stays on them. A rate, not one that
  /// follows the bodies' spin alone: a step length that changes with the motion pumps energy in
  /// (a double pendulum split only while it turned fast gained 4.5%). 0: joints do not split
  /// steps.
  double jointRate = 240.0;
  /// A step stops with an error (World::PairLimitError) when the broad phase finds more
  /// candidate pairs than this many per collision piece (each convex piece of a body or a
  /// static counts once): every pair costs the step some kilobytes, and bodies placed inside
  /// one another (coincident, say) make pairs with the square of their count. Ordinary scenes
  /// stay below 8 per piece (docs/scenes.md).
  int maxPairsPerPiece = 64;
  /// The soft step (ContactSolver::solveSoftStep): each (sub)step's solve cut into this many
  /// substeps of one soft sweep and one relax sweep, in place of the sweeps to convergence, the
  /// shock pass and the split impulses. 0: off.
  int softSubsteps = ContactSolverOptions{}.softSubsteps;
  /// Hz: a soft contact's stiffness, and its damping ratio (ContactSolverOptions).
  double contactHertz = ContactSolverOptions{}.contactHertz;
  double contactDampingRatio = ContactSolverOptions{}.contactDampingRatio;
};

/// The largest max_pairs_per_piece.
inline constexpr int kMaxPairsPerPieceSetting = 1'000'000;

/// More substeps than this is a step length to change instead.
inline constexpr int kMaxSubsteps = 64;
/// m: the default hull_tolerance, within the noise of a scanned surface.
inline constexpr double kDefaultHullTolerance = 5e-4;
/// m: the largest hull_tolerance a scene may ask for.
inline constexpr double kMaxHullTolerance = 0.01;

/// The largest iteration count of a solver key (gjk_max_iterations, velocity_iterations, ...).
inline constexpr int kMaxIterationsSetting = 100'000;

/// A joint of a scene file (docs/scenes.md, docs/joints.md), given in the world at the bodies'
/// initial poses: the World places its frames in the two bodies.
struct JointDescription {
  std::string name;  ///< optional (a URDF joint's name); unique within a scene when given
  JointType type = JointType::Spherical;
  int bodyA = 0;  ///< World body index: 0 the world, k the scene's k-th body (from 1)
  int bodyB = 0;
  Eigen::Vector3d anchor = Eigen::Vector3d::Zero();  ///< m, world
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();   ///< unit, world (revolute, prismatic)
  JointLimit limit;
  JointLimit twist;  ///< a spherical joint's (dynamics/joint.hpp)
  JointMotor motor;
  JointSpring spring;
  double friction = 0.0;  ///< N m or N
};

/// A joint's motor targets over time (a scene's "joint_targets"): the position target at time t
/// (s from the start) interpolates the keys (t, position) linearly and holds the last one; the
/// velocity target is the interpolation's slope. The World sets them before each step.
struct JointTargetSchedule {
  std::string joint;  ///< the joint's name
  /// (time, position) of a revolute or prismatic joint.
  std::vector<std::pair<double, double>> keys;
  /// (time, turn) of a spherical joint: B's frame's orientation from A's, a rotation vector.
  std::vector<std::pair<double, Eigen::Vector3d>> turnKeys;
  /// The targets at time t: (position, velocity), interpolated linearly.
  std::pair<double, double> at(double t) const;
  /// A spherical joint's targets at time t, (turn, spin): the orientations between two keys
  /// turn at a constant rate about one axis (the shorter way), which is the spin.
  std::pair<Eigen::Vector3d, Eigen::Vector3d> turnAt(double t) const;
};

struct SceneDescription {
  std::string name;
  std::filesystem::path assetDir;  ///< absolute; where asset folders (<name>/textured.obj) are
  Eigen::Vector3d gravity = {0.0, 0.0, -9.81};
  double dt = 1.0 / 120.0;
  double defaultDensity = 500.0;  ///< kg/m^3
  /// m: how far outside an asset's collision hull its mesh's points may stay (ConvexHull::build);
  /// a scan's thousands of hull vertices become a few hundred. 0: the exact hulls.
  double hullTolerance = kDefaultHullTolerance;
  /// Dynamic bodies outside this box have escaped (left the scene or fell through the ground).
  Eigen::Vector3d boundsMin = {-2.0, -2.0, -0.5};
  Eigen::Vector3d boundsMax = {2.0, 2.0, 5.0};
  std::vector<StaticDescription> statics;
  std::vector<BodyDescription> bodies;
  std::optional<SpawnerDescription> spawner;
  SolverDescription solver;
  std::vector<JointDescription> joints;
  std::vector<JointTargetSchedule> jointTargets;
};

/// Reads a scene file. Throws JsonError (engine/json_read.hpp) naming the file and the JSON path
/// for unknown keys, wrong types and out-of-range values, and MeshLoadError for bad meshes.
SceneDescription loadScene(const std::filesystem::path& file);
/// Same from JSON text; relative paths resolve against `baseDir`.
SceneDescription parseScene(const std::string& jsonText, const std::filesystem::path& baseDir);
/// One entry of a scene's "bodies" as JSON text (to add to a running World); relative mesh
/// paths resolve against `baseDir`, assets are folders of `assetDir`. Errors name `where`.
BodyDescription parseBodyText(const std::string& jsonText, const std::string& where,
                              const std::filesystem::path& baseDir,
                              const std::filesystem::path& assetDir);

/// A scene's "solver" object as JSON text, over `base`: the keys it has replace base's values,
/// with the scene file's checks and messages (errors name `where`).
SolverDescription parseSolverText(const std::string& jsonText, const SolverDescription& base,
                                  const std::string& where = "solver");
/// Every solver setting as a JSON object in the scene file's keys (parseSolverText reads it).
std::string solverText(const SolverDescription& solver);

/// A simulated time a run may ask for: finite and in (0, kMaxSimulatedSeconds].
inline bool isSimulatedTime(double seconds) {
  return seconds > 0.0 && seconds <= kMaxSimulatedSeconds;  // false for NaN
}
/// The steps of `dt` that make `seconds` of simulated time (rounded to the nearest). Throws
/// std::invalid_argument unless isSimulatedTime(seconds).
long stepsFor(double seconds, double dt);

}  // namespace hb
