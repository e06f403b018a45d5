#pragma once
// Reading heavyball's JSON inputs (scene files, `heavyball query` problems) with errors that name
// the JSON path of the bad value, e.g. "a.half_extents: expected array of 3 numbers".
// Include only from .cpp files: nlohmann/json.hpp is slow to parse.

#include <nlohmann/json.hpp>

#include <Eigen/Core>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "collision/convex_hull.hpp"
#include "collision/gjk.hpp"
#include "collision/pose.hpp"
#include "collision/shape.hpp"
#include "collision/warm_start.hpp"

namespace hb {

/// A JSON value that does not say what heavyball expects; the message starts with its path.
class JsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Convex hulls of OBJ meshes, built once per file (problem and scene files name the same few
/// meshes many times). Failures are remembered too, so a bad file is read once.
class MeshHullCache {
 public:
  /// Hull of the OBJ's vertices in the file's own frame. Relative paths resolve against the
  /// current directory. Throws hb::MeshLoadError (message starts with the file).
  std::shared_ptr<const ConvexHull> hull(const std::filesystem::path& file);
  /// The OBJ as convex parts: the hull of each of its objects (`o` or `g` groups, in order),
  /// or of the whole file when it has one. Throws like hull().
  std::vector<std::shared_ptr<const ConvexHull>> parts(const std::filesystem::path& file);
  int size() const { return static_cast<int>(entries_.size()); }

 private:
  using Hulls = std::vector<std::shared_ptr<const ConvexHull>>;
  /// The file's hulls (one: the whole file's; or one per object) or why there are none.
  const Hulls& cached(const std::filesystem::path& file, bool perObject);
  std::unordered_map<std::string, std::variant<Hulls, std::string>> entries_;
};

namespace json_read {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what);
/// The key's value, or nullptr when the key is absent (most keys are optional).
const json* find(const json& object, std::string_view key);
/// "where[i]".
std::string indexed(const std::string& where, std::size_t i);
void requireArray(const json& value, const std::string& where);
/// json::parse that refuses a key repeated within one object (nlohmann would keep the last
/// value silently): throws JsonError naming the key's path, e.g. "bodies[3].material.friction:
/// duplicate key". Syntax errors throw json::exception as json::parse does.
json parseUniqueKeys(const std::string& text);
/// "where.key", or "key" at the top level.
std::string child(const std::string& where, std::string_view key);
void requireObject(const json& value, const std::string& where);
/// Errors on the first key of `object` not in `allowed`, listing the allowed ones.
void rejectUnknownKeys(const json& object, const std::string& where,
                       std::initializer_list<std::string_view> allowed);
const json& required(const json& object, const std::string& where, std::string_view key);
double finiteNumber(const json& value, const std::string& where);
double positiveNumber(const json& value, const std::string& where);
double nonNegativeNumber(const json& value, const std::string& where);
/// An integer in [lo, hi].
long long integer(const json& value, const std::string& where, long long lo, long long hi);
bool boolean(const json& value, const std::string& where);
std::string stringValue(const json& value, const std::string& where);
Eigen::Vector3d finiteVector3(const json& value, const std::string& where);
Eigen::Vector4d finiteVector4(const json& value, const std::string& where);
Eigen::Vector3d positiveVector3(const json& value, const std::string& where);

/// Whether every coordinate of p is within defaults::kMaxLength (NaN is not): positions of poses
/// everywhere.
bool withinRange(const Eigen::Vector3d& p);
/// Throws JsonError "<where>: expected coordinates within 1e+06 m of the origin" unless
/// withinRange(p).
void requireWithinRange(const Eigen::Vector3d& p, const std::string& where);
/// A shape object: {"type": "sphere", "radius": r}, box "half_extents" [x,y,z], capsule /
/// cylinder / cone "radius" and "half_length", ellipsoid "radii" [a,b,c], mesh "path" (relative
/// paths resolve against `baseDir`).
Shape parseShape(const json& value, const std::string& where, MeshHullCache& meshes,
                 const std::filesystem::path& baseDir = {});
/// {"p": [x,y,z], "q": [w,x,y,z]}; both optional (zero, identity). q must be finite and of unit
/// norm within 1e-6; it is then normalised exactly.
Pose parsePose(const json& value, const std::string& where);
/// [w, x, y, z] of norm 1 within 1e-6 (or a JsonError at `where`), normalised exactly.
Eigen::Quaterniond unitQuaternion(const Eigen::Vector4d& wxyz, const std::string& where);
/// "gjk" or "vanilla", "polyak", "nesterov", "auto".
GjkVariant parseGjkVariant(const json& value, const std::string& where);
/// "paper" ((k+1)/(k+3)) or "late" ((k+2)/(k+3)).
MomentumSchedule parseMomentumSchedule(const json& value, const std::string& where);
/// "none", "obb", "previous", "transformed".
WarmStart parseWarmStart(const json& value, const std::string& where);

}  // namespace json_read
}  // namespace hb
