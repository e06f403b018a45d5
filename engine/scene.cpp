#include "engine/scene.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <system_error>
#include <type_traits>

#include "engine/asset_library.hpp"
#include "engine/input_file.hpp"
#include "engine/json_read.hpp"
#include "engine/scene_parsers.hpp"

namespace hb {
namespace {

using namespace json_read;
namespace fs = std::filesystem;

/// A number in [lo, hi], or in (lo, hi] when `openLow`.
double numberIn(const json& value, const std::string& where, double lo, double hi,
                bool openLow = false) {
  const double x = finiteNumber(value, where);
  if ((openLow ? !(x > lo) : !(x >= lo)) || !(x <= hi)) {
    std::ostringstream range;
    range << (openLow ? "(" : "[") << lo << ", " << hi << "]";
    fail(where, "expected a number in " + range.str() + ", got " + value.dump());
  }
  return x;
}

/// Where an asset's mesh is; the World loads it from there.
fs::path assetMesh(const fs::path& assetDir, const std::string& name) {
  return assetDir / name / "textured.obj";
}

std::string assetName(const json& value, const std::string& where, const fs::path& assetDir) {
  const std::string name = stringValue(value, where);
  if (name.empty()) fail(where, "empty asset name");
  const fs::path mesh = assetMesh(assetDir, name);
  std::error_code error;
  if (!fs::is_regular_file(mesh, error)) fail(where, "no such asset: " + mesh.string());
  return name;
}

bool hasAnyAsset(const fs::path& assetDir) {
  std::error_code error;
  for (fs::directory_iterator it(assetDir, error), end; !error && it != end; it.increment(error)) {
    if (fs::is_regular_file(assetMesh(assetDir, it->path().filename().string()), error)) {
      return true;
    }
  }
  return false;
}

}  // namespace

Material scene_parsers::parseMaterial(const json& value, const std::string& where) {
  requireObject(value, where);
  rejectUnknownKeys(value, where, {"friction", "restitution"});
  Material material;
  if (const json* v = find(value, "friction")) {
    material.friction = nonNegativeNumber(*v, child(where, "friction"));
  }
  if (const json* v = find(value, "restitution")) {
    material.restitution = numberIn(*v, child(where, "restitution"), 0.0, 1.0);
  }
  return material;
}

namespace {

using scene_parsers::parseMaterial;

FunnelDescription parseFunnel(const json& value, const std::string& where) {
  FunnelDescription funnel;
  const auto positive = [&](std::string_view key, double& out) {
    if (const json* v = find(value, key)) out = positiveNumber(*v, child(where, key));
  };
  positive("top_radius", funnel.topRadius);
  positive("bottom_radius", funnel.bottomRadius);
  positive("height", funnel.height);
  positive("wall_thickness", funnel.wallThickness);
  if (const json* v = find(value, "bottom_z")) {
    funnel.bottomZ = finiteNumber(*v, child(where, "bottom_z"));
  }
  if (const json* v = find(value, "panels")) {
    funnel.panels = static_cast<int>(integer(*v, child(where, "panels"), 3, 1024));
  }
  if (!(funnel.bottomRadius < funnel.topRadius)) {
    fail(child(where, "bottom_radius"),
         "must be smaller than top_radius (" + std::to_string(funnel.topRadius) + " m)");
  }
  return funnel;
}

StaticDescription parseStatic(const json& value, const std::string& where, MeshHullCache& meshes,
                              const fs::path& baseDir) {
  requireObject(value, where);
  StaticDescription s;
  const std::string typeKey = child(where, "type");
  const std::string type = stringValue(required(value, where, "type"), typeKey);
  if (type == "ground") {
    rejectUnknownKeys(value, where, {"type", "height", "material"});
    s.kind = StaticDescription::Kind::Ground;
    if (const json* v = find(value, "height")) {
      s.groundHeight = finiteNumber(*v, child(where, "height"));
    }
  } else if (type == "funnel") {
    rejectUnknownKeys(value, where,
                      {"type", "top_radius", "bottom_radius", "height", "bottom_z",
                       "wall_thickness", "panels", "material"});
    s.kind = StaticDescription::Kind::Funnel;
    s.funnel = parseFunnel(value, where);
  } else if (type == "shape") {
    rejectUnknownKeys(value, where, {"type", "shape", "pose", "material"});
    s.kind = StaticDescription::Kind::Shape;
    s.shape = parseShape(required(value, where, "shape"), child(where, "shape"), meshes, baseDir);
    if (const json* v = find(value, "pose")) s.pose = parsePose(*v, child(where, "pose"));
  } else {
    fail(typeKey, "unknown static type '" + type + "' (expected ground, funnel or shape)");
  }
  if (const json* v = find(value, "material")) {
    s.material = parseMaterial(*v, child(where, "material"));
  }
  return s;
}

/// A "collision" key: true for "parts", false for "hull".
bool collidesAsParts(const json& value, const std::string& where) {
  const std::string mode = stringValue(value, where);
  if (mode != "hull" && mode != "parts") {
    fail(where,
         "expected \"hull\" (the scan's convex hull) or \"parts\" (one hull per piece of "
         "its convex_parts.obj), got \"" +
             mode + "\"");
  }
  return mode == "parts";
}

void requireParts(const std::string& asset, const fs::path& assetDir, const std::string& where) {
  const fs::path parts = assetPartsPath(assetDir, asset);
  if (!fs::exists(parts)) fail(where, "no " + parts.string());
}

/// One of a joint's "bodies": "world", or an index into the scene's "bodies" (as a World body
/// index: the scene's bodies follow the world's body 0).
BodyDescription parseBody(const json& value, const std::string& where, MeshHullCache& meshes,
                          const fs::path& baseDir, const fs::path& assetDir) {
  requireObject(value, where);
  rejectUnknownKeys(value, where,
                    {"asset", "collision", "shape", "pose", "linear_velocity", "angular_velocity",
                     "material", "mass", "density"});
  BodyDescription body;
  const json* asset = find(value, "asset");
  const json* shape = find(value, "shape");
  if ((asset == nullptr) == (shape == nullptr)) {
    fail(where, "expected exactly one of \"asset\" (a folder name) and \"shape\" (a shape object)");
  }
  if (asset) body.shape.asset = assetName(*asset, child(where, "asset"), assetDir);
  if (shape) body.shape.shape = parseShape(*shape, child(where, "shape"), meshes, baseDir);
  if (const json* v = find(value, "collision")) {
    const std::string key = child(where, "collision");
    if (!asset) fail(key, "only for an \"asset\" body");
    body.shape.parts = collidesAsParts(*v, key);
    if (body.shape.parts) requireParts(body.shape.asset, assetDir, key);
  }
  if (const json* v = find(value, "pose")) body.pose = parsePose(*v, child(where, "pose"));
  if (const json* v = find(value, "linear_velocity")) {
    body.linearVelocity = finiteVector3(*v, child(where, "linear_velocity"));
  }
  if (const json* v = find(value, "angular_velocity")) {
    body.angularVelocity = finiteVector3(*v, child(where, "angular_velocity"));
  }
  if (const json* v = find(value, "material")) {
    body.material = parseMaterial(*v, child(where, "material"));
  }
  const json* mass = find(value, "mass");
  const json* density = find(value, "density");
  // Mass overrides density, so giving both would silently ignore one.
  if (mass && density) fail(child(where, "density"), "give either mass or density, not both");
  if (mass) body.mass = positiveNumber(*mass, child(where, "mass"));
  if (density) body.density = positiveNumber(*density, child(where, "density"));
  return body;
}

SpawnerDescription parseSpawner(const json& value, const std::string& where,
                                const fs::path& assetDir, MeshHullCache& meshes,
                                const fs::path& baseDir) {
  requireObject(value, where);
  rejectUnknownKeys(value, where,
                    {"assets", "shapes", "count", "seed", "center", "radius", "height",
                     "max_linear_speed", "max_angular_speed", "interval", "material", "collision"});
  SpawnerDescription spawner;
  if (const json* v = find(value, "count")) {
    spawner.count = static_cast<int>(integer(*v, child(where, "count"), 0, kMaxSpawnCount));
  }
  const std::string assetsKey = child(where, "assets");
  if (const json* v = find(value, "assets")) {
    requireArray(*v, assetsKey);
    for (size_t i = 0; i < v->size(); ++i) {
      spawner.assets.push_back(assetName((*v)[i], indexed(assetsKey, i), assetDir));
    }
  }
  if (const json* v = find(value, "shapes")) {
    const std::string shapesKey = child(where, "shapes");
    requireArray(*v, shapesKey);
    for (size_t i = 0; i < v->size(); ++i) {
      spawner.shapes.push_back(parseShape((*v)[i], indexed(shapesKey, i), meshes, baseDir));
    }
  }
  if (spawner.assets.empty() && spawner.shapes.empty() && spawner.count > 0 &&
      !hasAnyAsset(assetDir)) {
    fail(assetsKey,
         "no list given and no asset folder (<name>/textured.obj) in " + assetDir.string());
  }
  if (const json* v = find(value, "collision")) {
    const std::string key = child(where, "collision");
    spawner.parts = collidesAsParts(*v, key);
    if (spawner.parts) {
      const bool everyAsset = spawner.assets.empty() && spawner.shapes.empty();
      for (const std::string& name : everyAsset ? AssetLibrary(assetDir).names() : spawner.assets) {
        requireParts(name, assetDir, key);
      }
    }
  }
  if (const json* v = find(value, "seed")) {
    spawner.seed = static_cast<unsigned>(
        integer(*v, child(where, "seed"), 0, std::numeric_limits<unsigned>::max()));
  }
  if (const json* v = find(value, "center")) {
    spawner.center = finiteVector3(*v, child(where, "center"));
  }
  if (const json* v = find(value, "radius")) {
    spawner.radius = nonNegativeNumber(*v, child(where, "radius"));
  }
  if (const json* v = find(value, "height")) {
    spawner.height = nonNegativeNumber(*v, child(where, "height"));
  }
  if (const json* v = find(value, "max_linear_speed")) {
    spawner.maxLinearSpeed = nonNegativeNumber(*v, child(where, "max_linear_speed"));
  }
  if (const json* v = find(value, "max_angular_speed")) {
    spawner.maxAngularSpeed = nonNegativeNumber(*v, child(where, "max_angular_speed"));
  }
  if (const json* v = find(value, "interval")) {
    spawner.interval = nonNegativeNumber(*v, child(where, "interval"));
  }
  if (const json* v = find(value, "material")) {
    spawner.material = parseMaterial(*v, child(where, "material"));
  }
  return spawner;
}

SolverDescription parseSolver(const json& value, const std::string& where,
                              SolverDescription solver = {}) {
  requireObject(value, where);
  rejectUnknownKeys(value, where,
                    {"gjk_variant",
                     "momentum_schedule",
                     "warm_start",
                     "gjk_tolerance",
                     "gjk_max_iterations",
                     "velocity_iterations",
                     "manifold_iterations",
                     "shock_iterations",
                     "position_iterations",
                     "tolerance",
                     "speculative_margin",
                     "convex_radius",
                     "restitution_threshold",
                     "sleeping",
                     "continuous_collision",
                     "warm_simplex",
                     "max_substeps",
                     "max_contact_turn",
                     "joint_rate",
                     "max_pairs_per_piece",
                     "soft_substeps",
                     "contact_hertz",
                     "contact_damping_ratio"});
  // Sets `out` from `key`, when the object has it, by `parse(value, where)`.
  const auto set = [&](std::string_view key, auto& out, const auto& parse) {
    if (const json* v = find(value, key)) {
      out = static_cast<std::decay_t<decltype(out)>>(parse(*v, child(where, key)));
    }
  };
  const auto count = [](long long lo, long long hi) {
    return [=](const json& v, const std::string& w) { return integer(v, w, lo, hi); };
  };
  set("gjk_variant", solver.gjkVariant, parseGjkVariant);
  set("warm_start", solver.warmStart, parseWarmStart);
  set("momentum_schedule", solver.momentumSchedule, parseMomentumSchedule);
  set("gjk_tolerance", solver.gjkTolerance, positiveNumber);
  set("gjk_max_iterations", solver.gjkMaxIterations, count(1, kMaxIterationsSetting));
  set("velocity_iterations", solver.velocityIterations, count(1, kMaxIterationsSetting));
  set("manifold_iterations", solver.manifoldIterations, count(1, kMaxIterationsSetting));
  set("shock_iterations", solver.shockIterations, count(1, kMaxIterationsSetting));
  set("position_iterations", solver.positionIterations, count(1, kMaxIterationsSetting));
  set("max_substeps", solver.maxSubsteps, count(1, kMaxSubsteps));
  set("max_pairs_per_piece", solver.maxPairsPerPiece, count(1, kMaxPairsPerPieceSetting));
  set("soft_substeps", solver.softSubsteps, count(0, kMaxSubsteps));
  set("contact_hertz", solver.contactHertz, positiveNumber);
  set("contact_damping_ratio", solver.contactDampingRatio, nonNegativeNumber);
  set("max_contact_turn", solver.maxContactTurn, positiveNumber);
  set("joint_rate", solver.jointRate, nonNegativeNumber);
  set("tolerance", solver.solverTolerance, nonNegativeNumber);
  set("speculative_margin", solver.speculativeMargin, nonNegativeNumber);
  set("convex_radius", solver.convexRadius, [](const json& v, const std::string& w) {
    return numberIn(v, w, 0.0, defaults::kMaxSceneConvexRadius);
  });
  set("restitution_threshold", solver.restitutionThreshold, nonNegativeNumber);
  set("sleeping", solver.sleeping, boolean);
  set("continuous_collision", solver.continuousCollision, boolean);
  set("warm_simplex", solver.warmSimplex, boolean);
  return solver;
}

void parseBounds(const json& value, const std::string& where, SceneDescription& scene) {
  requireObject(value, where);
  rejectUnknownKeys(value, where, {"min", "max"});
  if (const json* v = find(value, "min")) scene.boundsMin = finiteVector3(*v, child(where, "min"));
  if (const json* v = find(value, "max")) scene.boundsMax = finiteVector3(*v, child(where, "max"));
  if (!(scene.boundsMin.array() < scene.boundsMax.array()).all()) {
    fail(where, "expected min < max in every coordinate");
  }
}

}  // namespace

SceneDescription parseScene(const std::string& jsonText, const fs::path& baseDir) {
  json root;
  try {
    root = parseUniqueKeys(jsonText);
  } catch (const json::exception& e) {
    // Syntax errors (with line and column) and numbers too large for a double.
    throw JsonError(std::string("invalid JSON: ") + e.what());
  }
  if (!root.is_object()) throw JsonError("expected a JSON object at the top level");
  rejectUnknownKeys(
      root, "",
      {"name", "asset_dir", "gravity", "dt", "default_density", "hull_tolerance", "bounds",
       "statics", "bodies", "spawner", "solver", "joints", "articulations", "joint_targets"});

  const fs::path base = fs::absolute(baseDir);
  SceneDescription scene;
  if (const json* v = find(root, "name")) scene.name = stringValue(*v, "name");
  fs::path assetDir = "../ycb";
  if (const json* v = find(root, "asset_dir")) {
    const std::string dir = stringValue(*v, "asset_dir");
    if (dir.empty()) fail("asset_dir", "empty path");
    assetDir = dir;
  }
  scene.assetDir = (base / assetDir).lexically_normal();  // an absolute dir replaces the base
  if (const json* v = find(root, "gravity")) scene.gravity = finiteVector3(*v, "gravity");
  // Longer steps let bodies pass through thin walls; 120 Hz is the intended rate.
  if (const json* v = find(root, "dt")) scene.dt = numberIn(*v, "dt", kMinTimeStep, 0.1);
  if (const json* v = find(root, "default_density")) {
    scene.defaultDensity = positiveNumber(*v, "default_density");
  }
  if (const json* v = find(root, "hull_tolerance")) {
    scene.hullTolerance = numberIn(*v, "hull_tolerance", 0.0, kMaxHullTolerance);
  }
  if (const json* v = find(root, "bounds")) parseBounds(*v, "bounds", scene);

  MeshHullCache meshes;
  if (const json* v = find(root, "statics")) {
    requireArray(*v, "statics");
    for (size_t i = 0; i < v->size(); ++i) {
      scene.statics.push_back(parseStatic((*v)[i], indexed("statics", i), meshes, base));
    }
  }
  if (const json* v = find(root, "bodies")) {
    requireArray(*v, "bodies");
    for (size_t i = 0; i < v->size(); ++i) {
      scene.bodies.push_back(
          parseBody((*v)[i], indexed("bodies", i), meshes, base, scene.assetDir));
    }
  }
  if (const json* v = find(root, "spawner")) {
    scene.spawner = parseSpawner(*v, "spawner", scene.assetDir, meshes, base);
  }
  if (const json* v = find(root, "solver")) scene.solver = parseSolver(*v, "solver");
  if (const json* v = find(root, "joints")) {
    requireArray(*v, "joints");
    for (size_t i = 0; i < v->size(); ++i) {
      scene.joints.push_back(
          scene_parsers::parseJoint((*v)[i], indexed("joints", i), scene.bodies.size()));
    }
  }
  if (const json* v = find(root, "articulations")) {
    requireArray(*v, "articulations");
    for (size_t i = 0; i < v->size(); ++i) {
      scene_parsers::parseArticulation((*v)[i], indexed("articulations", i), base, meshes, scene);
    }
  }
  scene_parsers::requireUniqueJointNames(scene, "joints");
  if (const json* v = find(root, "joint_targets")) {
    scene.jointTargets = scene_parsers::parseJointTargets(*v, "joint_targets", scene);
  }
  return scene;
}

BodyDescription parseBodyText(const std::string& jsonText, const std::string& where,
                              const fs::path& baseDir, const fs::path& assetDir) {
  json value;
  try {
    value = parseUniqueKeys(jsonText);
  } catch (const json::exception& e) {
    throw JsonError(std::string("invalid JSON: ") + e.what());
  }
  MeshHullCache meshes;
  return parseBody(value, where, meshes, fs::absolute(baseDir), assetDir);
}

SolverDescription parseSolverText(const std::string& jsonText, const SolverDescription& base,
                                  const std::string& where) {
  json value;
  try {
    value = parseUniqueKeys(jsonText);
  } catch (const json::exception& e) {
    throw JsonError(std::string("invalid JSON: ") + e.what());
  }
  return parseSolver(value, where, base);
}

std::string solverText(const SolverDescription& s) {
  const json out = {
      {"gjk_variant", toString(s.gjkVariant)},
      {"momentum_schedule", toString(s.momentumSchedule)},
      {"warm_start", toString(s.warmStart)},
      {"gjk_tolerance", s.gjkTolerance},
      {"gjk_max_iterations", s.gjkMaxIterations},
      {"velocity_iterations", s.velocityIterations},
      {"manifold_iterations", s.manifoldIterations},
      {"shock_iterations", s.shockIterations},
      {"position_iterations", s.positionIterations},
      {"tolerance", s.solverTolerance},
      {"speculative_margin", s.speculativeMargin},
      {"convex_radius", s.convexRadius},
      {"restitution_threshold", s.restitutionThreshold},
      {"sleeping", s.sleeping},
      {"continuous_collision", s.continuousCollision},
      {"warm_simplex", s.warmSimplex},
      {"max_substeps", s.maxSubsteps},
      {"max_contact_turn", s.maxContactTurn},
      {"joint_rate", s.jointRate},
      {"max_pairs_per_piece", s.maxPairsPerPiece},
      {"soft_substeps", s.softSubsteps},
      {"contact_hertz", s.contactHertz},
      {"contact_damping_ratio", s.contactDampingRatio},
  };
  return out.dump();
}

SceneDescription loadScene(const fs::path& file) {
  std::string text;
  try {
    text = readInputFile(file);
  } catch (const InputFileError& e) {
    throw JsonError(e.what());
  }
  try {
    SceneDescription scene = parseScene(text, fs::absolute(file).parent_path());
    if (scene.name.empty()) scene.name = file.stem().string();
    return scene;
  } catch (const JsonError& e) {
    throw JsonError(file.string() + ": " + e.what());
  }
}

long stepsFor(double seconds, double dt) {
  if (!isSimulatedTime(seconds)) {
    std::ostringstream what;
    what << "simulated time must be a number of seconds in (0, " << kMaxSimulatedSeconds
         << "], got " << seconds;
    throw std::invalid_argument(what.str());
  }
  if (!(std::isfinite(dt) && dt > 0.0)) {
    throw std::invalid_argument("time step must be positive, got " + std::to_string(dt));
  }
  return std::max(1L, std::lround(seconds / dt));
}

}  // namespace hb
