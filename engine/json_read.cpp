#include "engine/json_read.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <sstream>
#include <vector>

#include "collision/defaults.hpp"
#include "collision/support_points.hpp"
#include "engine/obj_mesh.hpp"

namespace hb {

const MeshHullCache::Hulls& MeshHullCache::cached(const std::filesystem::path& file,
                                                  bool perObject) {
  const std::filesystem::path resolved = std::filesystem::absolute(file).lexically_normal();
  const std::string key = (perObject ? "parts:" : "hull:") + resolved.string();
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    std::string object = "convex hull";
    try {
      const ObjMesh mesh = loadObjMesh(resolved, ObjFaces::Optional);  // the hull of its vertices
      Hulls hulls;
      if (perObject && mesh.objects.size() > 1) {
        for (std::size_t k = 0; k < mesh.objects.size(); ++k) {
          object = "object " + std::to_string(k) + ": convex hull";
          std::vector<Eigen::Vector3d> points;
          for (const int v : mesh.objects[k]) points.push_back(mesh.vertices[v]);
          hulls.push_back(std::make_shared<const ConvexHull>(ConvexHull::build(points)));
        }
      } else {
        hulls.push_back(std::make_shared<const ConvexHull>(ConvexHull::build(mesh.vertices)));
      }
      it = entries_.emplace(key, std::move(hulls)).first;
    } catch (const HullError& e) {
      it = entries_.emplace(key, resolved.string() + ": " + object + ": " + e.what()).first;
    } catch (const MeshLoadError& e) {
      it = entries_.emplace(key, std::string(e.what())).first;
    }
  }
  if (const auto* error = std::get_if<std::string>(&it->second)) throw MeshLoadError(*error);
  return std::get<Hulls>(it->second);
}

std::shared_ptr<const ConvexHull> MeshHullCache::hull(const std::filesystem::path& file) {
  return cached(file, false).front();
}

std::vector<std::shared_ptr<const ConvexHull>> MeshHullCache::parts(
    const std::filesystem::path& file) {
  return cached(file, true);
}

namespace json_read {

const json* find(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string indexed(const std::string& where, std::size_t i) {
  return where + "[" + std::to_string(i) + "]";
}

void requireArray(const json& value, const std::string& where) {
  if (!value.is_array()) fail(where, "expected an array");
}

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw JsonError(where + ": " + what);
}

std::string child(const std::string& where, std::string_view key) {
  return where.empty() ? std::string(key) : where + "." + std::string(key);
}

json parseUniqueKeys(const std::string& text) {
  // The containers open at the parser's position, outermost first: an object's keys so far and
  // the key being read, or an array's index.
  struct Open {
    bool array = false;
    size_t index = 0;
    std::set<std::string, std::less<>> keys;
    std::string key;
  };
  std::vector<Open> open;
  const auto path = [&open] {
    std::string where;
    for (size_t i = 0; i + 1 < open.size(); ++i) {
      where = open[i].array ? where + "[" + std::to_string(open[i].index) + "]"
                            : child(where, open[i].key);
    }
    return where;
  };
  const auto elementDone = [&open] {
    if (!open.empty() && open.back().array) ++open.back().index;
  };
  using Event = json::parse_event_t;
  return json::parse(text, [&](int, Event event, json& parsed) {
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        open.push_back({event == Event::array_start, 0, {}, {}});
        break;
      case Event::key: {
        const std::string& key = parsed.get_ref<const std::string&>();
        if (!open.back().keys.insert(key).second) fail(child(path(), key), "duplicate key");
        open.back().key = key;
        break;
      }
      case Event::object_end:
      case Event::array_end:
        open.pop_back();
        elementDone();
        break;
      case Event::value:
        elementDone();
        break;
    }
    return true;
  });
}

void requireObject(const json& value, const std::string& where) {
  if (!value.is_object()) fail(where, "expected an object");
}

void rejectUnknownKeys(const json& object, const std::string& where,
                       std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (std::string_view k : allowed) list += (list.empty() ? "" : ", ") + std::string(k);
      fail(child(where, key), "unknown key (expected one of: " + list + ")");
    }
  }
}

const json& required(const json& object, const std::string& where, std::string_view key) {
  const auto it = object.find(key);
  if (it == object.end()) fail(child(where, key), "missing required key");
  return *it;
}

double finiteNumber(const json& value, const std::string& where) {
  if (!value.is_number()) fail(where, "expected a number");
  const double x = value.get<double>();
  // JSON has no NaN, but overflowing literals such as 1e999 parse to infinity.
  if (!std::isfinite(x)) fail(where, "not a finite number");
  return x;
}

double positiveNumber(const json& value, const std::string& where) {
  const double x = finiteNumber(value, where);
  if (!(x > 0.0)) fail(where, "expected a positive number");
  return x;
}

namespace {

template <int N>
Eigen::Matrix<double, N, 1> finiteVector(const json& value, const std::string& where) {
  if (!value.is_array() || value.size() != N ||
      !std::all_of(value.begin(), value.end(), [](const json& x) { return x.is_number(); })) {
    fail(where, "expected array of " + std::to_string(N) + " numbers");
  }
  Eigen::Matrix<double, N, 1> v;
  for (int i = 0; i < N; ++i) v[i] = finiteNumber(value[i], where + "[" + std::to_string(i) + "]");
  return v;
}

}  // namespace

Eigen::Vector3d finiteVector3(const json& value, const std::string& where) {
  return finiteVector<3>(value, where);
}

Eigen::Vector4d finiteVector4(const json& value, const std::string& where) {
  return finiteVector<4>(value, where);
}

double nonNegativeNumber(const json& value, const std::string& where) {
  const double x = finiteNumber(value, where);
  if (!(x >= 0.0)) fail(where, "expected a number >= 0");
  return x;
}

long long integer(const json& value, const std::string& where, long long lo, long long hi) {
  if (!value.is_number_integer() || value.get<long long>() < lo || value.get<long long>() > hi) {
    fail(where, "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return value.get<long long>();
}

bool boolean(const json& value, const std::string& where) {
  if (!value.is_boolean()) fail(where, "expected true or false");
  return value.get<bool>();
}

Eigen::Vector3d positiveVector3(const json& value, const std::string& where) {
  const Eigen::Vector3d v = finiteVector<3>(value, where);
  if (!(v.array() > 0.0).all()) fail(where, "expected 3 positive numbers");
  return v;
}

std::string stringValue(const json& value, const std::string& where) {
  if (!value.is_string()) fail(where, "expected a string");
  std::string text = value.get<std::string>();
  // Paths and names go to the file system and HDF5 as C strings, which a NUL would cut short.
  if (text.find('\0') != std::string::npos) fail(where, "contains a NUL character (\\u0000)");
  return text;
}

namespace {

/// A length in heavyball's range, [kMinLength, kMaxLength] metres (collision/defaults.hpp): the
/// squares and products of lengths that GJK forms must stay far from overflow and underflow
/// (docs/query.md).
double lengthIn(double x, const std::string& where) {
  if (!(x >= defaults::kMinLength && x <= defaults::kMaxLength)) {
    std::ostringstream what;
    what << "expected a length in [" << defaults::kMinLength << ", " << defaults::kMaxLength
         << "] m, got " << x;
    fail(where, what.str());
  }
  return x;
}

/// A shape's length `key` (m), positive and in range.
double lengthOf(const json& value, const std::string& where, std::string_view key) {
  return lengthIn(positiveNumber(required(value, where, key), child(where, key)),
                  child(where, key));
}

/// A shape's three lengths `key` (m), positive and in range.
Eigen::Vector3d lengthsOf(const json& value, const std::string& where, std::string_view key) {
  const Eigen::Vector3d v = positiveVector3(required(value, where, key), child(where, key));
  for (int i = 0; i < 3; ++i) lengthIn(v[i], child(where, key));
  return v;
}

Shape parseSuperquadric(const json& value, const std::string& where) {
  rejectUnknownKeys(value, where, {"type", "radii", "exponents"});
  const std::string key = child(where, "exponents");
  const json& exponents = required(value, where, "exponents");
  if (!exponents.is_array() || exponents.size() != 2) fail(key, "expected [alpha1, alpha2]");
  const double alpha1 = finiteNumber(exponents[0], key + "[0]");
  const double alpha2 = finiteNumber(exponents[1], key + "[1]");
  try {
    return Shape::superquadric(lengthsOf(value, where, "radii"), alpha1, alpha2);
  } catch (const std::invalid_argument& e) {
    fail(key, e.what());
  }
}

Shape parseSupportPoints(const json& value, const std::string& where) {
  rejectUnknownKeys(value, where, {"type", "points", "profile", "beta", "gamma"});
  const double beta = finiteNumber(required(value, where, "beta"), child(where, "beta"));
  const bool profile = value.contains("profile");
  if (profile == value.contains("points")) {
    fail(where, "expected either \"points\" ([[x, y, z], ...]) or \"profile\" ([[r, z], ...])");
  }
  const std::string key = child(where, profile ? "profile" : "points");
  const json& list = value.at(profile ? "profile" : "points");
  if (!list.is_array()) fail(key, "expected an array of points");
  try {
    if (profile) {
      const double gamma = positiveNumber(required(value, where, "gamma"), child(where, "gamma"));
      std::vector<Eigen::Vector2d> points;
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = key + "[" + std::to_string(i) + "]";
        if (!list[i].is_array() || list[i].size() != 2) fail(at, "expected [r, z]");
        points.emplace_back(finiteNumber(list[i][0], at), finiteNumber(list[i][1], at));
      }
      return Shape::supportPoints(
          std::make_shared<const SupportPoints>(SupportPoints::revolution(points, beta, gamma)));
    }
    if (value.contains("gamma")) fail(child(where, "gamma"), "only with \"profile\"");
    std::vector<Eigen::Vector3d> points;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = key + "[" + std::to_string(i) + "]";
      points.push_back(finiteVector3(list[i], at));
      if (points.back().cwiseAbs().maxCoeff() > defaults::kMaxLength) {
        fail(at, "a coordinate beyond " + std::to_string(defaults::kMaxLength) + " m");
      }
    }
    return Shape::supportPoints(std::make_shared<const SupportPoints>(std::move(points), beta));
  } catch (const std::invalid_argument& e) {
    fail(key, e.what());
  }
}

Shape parseMesh(const json& value, const std::string& where, MeshHullCache& meshes,
                const std::filesystem::path& baseDir) {
  rejectUnknownKeys(value, where, {"type", "path"});
  const std::string pathKey = child(where, "path");
  const std::string file = stringValue(required(value, where, "path"), pathKey);
  if (file.empty()) fail(pathKey, "empty path");
  try {
    const std::filesystem::path path(file);
    return Shape::convexHull(
        meshes.hull(path.is_absolute() || baseDir.empty() ? path : baseDir / path));
  } catch (const MeshLoadError& e) {
    fail(pathKey, e.what());
  }
}

}  // namespace

Shape parseShape(const json& value, const std::string& where, MeshHullCache& meshes,
                 const std::filesystem::path& baseDir) {
  requireObject(value, where);
  const std::string type = stringValue(required(value, where, "type"), child(where, "type"));
  const auto length = [&](std::string_view key) { return lengthOf(value, where, key); };
  if (type == "sphere") {
    rejectUnknownKeys(value, where, {"type", "radius"});
    return Shape::sphere(length("radius"));
  }
  if (type == "box") {
    rejectUnknownKeys(value, where, {"type", "half_extents"});
    return Shape::box(lengthsOf(value, where, "half_extents"));
  }
  if (type == "capsule" || type == "cylinder" || type == "cone") {
    rejectUnknownKeys(value, where, {"type", "radius", "half_length"});
    const double radius = length("radius");
    const double halfLength = length("half_length");
    if (type == "capsule") return Shape::capsule(radius, halfLength);
    if (type == "cylinder") return Shape::cylinder(radius, halfLength);
    return Shape::cone(radius, halfLength);
  }
  if (type == "ellipsoid") {
    rejectUnknownKeys(value, where, {"type", "radii"});
    return Shape::ellipsoid(lengthsOf(value, where, "radii"));
  }
  if (type == "superquadric") return parseSuperquadric(value, where);
  if (type == "support_points") return parseSupportPoints(value, where);
  if (type == "mesh") return parseMesh(value, where, meshes, baseDir);
  fail(child(where, "type"), "unknown shape type '" + type +
                                 "' (expected sphere, box, capsule, cylinder, cone, ellipsoid, "
                                 "superquadric, support_points or mesh)");
}

bool withinRange(const Eigen::Vector3d& p) {
  return p.cwiseAbs().maxCoeff() <= defaults::kMaxLength;
}

void requireWithinRange(const Eigen::Vector3d& p, const std::string& where) {
  if (!withinRange(p)) {
    std::ostringstream what;
    what << "expected coordinates within " << defaults::kMaxLength << " m of the origin";
    fail(where, what.str());
  }
}

Pose parsePose(const json& value, const std::string& where) {
  requireObject(value, where);
  rejectUnknownKeys(value, where, {"p", "q"});
  Pose pose;
  if (const auto p = value.find("p"); p != value.end()) {
    pose.p = finiteVector<3>(*p, child(where, "p"));
    requireWithinRange(pose.p, child(where, "p"));
  }
  if (const auto q = value.find("q"); q != value.end()) {
    pose.q = unitQuaternion(finiteVector<4>(*q, child(where, "q")), child(where, "q"));
  }
  return pose;
}

Eigen::Quaterniond unitQuaternion(const Eigen::Vector4d& wxyz, const std::string& where) {
  const double norm = wxyz.norm();
  if (!(std::abs(norm - 1.0) <= 1e-6)) {
    fail(where, "expected a unit quaternion [w, x, y, z], norm is " + std::to_string(norm));
  }
  return Eigen::Quaterniond(wxyz[0], wxyz[1], wxyz[2], wxyz[3]).normalized();
}

GjkVariant parseGjkVariant(const json& value, const std::string& where) {
  const std::string name = stringValue(value, where);
  if (name == "gjk" || name == "vanilla") return GjkVariant::Vanilla;
  if (name == "polyak") return GjkVariant::Polyak;
  if (name == "nesterov") return GjkVariant::Nesterov;
  if (name == "auto") return GjkVariant::Auto;
  fail(where, "unknown variant '" + name + "' (expected gjk, vanilla, polyak, nesterov or auto)");
}

MomentumSchedule parseMomentumSchedule(const json& value, const std::string& where) {
  const std::string name = stringValue(value, where);
  if (const auto schedule = momentumScheduleNamed(name)) return *schedule;
  fail(where, "unknown momentum schedule '" + name + "' (expected paper or late)");
}

WarmStart parseWarmStart(const json& value, const std::string& where) {
  const std::string name = stringValue(value, where);
  if (name == "none") return WarmStart::None;
  if (name == "obb") return WarmStart::ObbCenters;
  if (name == "previous") return WarmStart::PreviousSolution;
  if (name == "transformed") return WarmStart::TransformedPrevious;
  fail(where, "unknown warm start '" + name + "' (expected none, obb, previous or transformed)");
}

}  // namespace json_read
}  // namespace hb
