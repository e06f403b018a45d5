#pragma once
// The rows of the recording's tables (docs/recording-format.md) and their HDF5 compound types,
// shared by the writer and the reader. In memory a row is a plain struct; in the file it is a
// packed little-endian compound whose field names are the documented column names. Internal to
// hb_engine (includes the HDF5 headers).

#include <H5Cpp.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/recording/recording_layout.hpp"

namespace hb::recording {

/// The fields of a row type: the native (in-memory) and the packed file compound types, and the
/// conversion from one to the other.
class RowLayout {
 public:
  enum class Kind { F64, I64, I32, I8, U8, Text };

  explicit RowLayout(std::size_t rowBytes);

  /// A field at `offset` in the struct: a scalar, or an array of `dims` (e.g. {3}, {3, 3}); for
  /// Text, a fixed-length null-padded UTF-8 string of dims[0] bytes.
  RowLayout& field(const char* name, std::size_t offset, Kind kind, std::vector<hsize_t> dims = {});

  /// Built on first use, then shared (by every thread: HDF5 serialises its calls).
  const H5::CompType& memoryType() const;
  const H5::CompType& fileType() const;

  /// Bytes of a row in the file: the fields' sizes, packed.
  std::size_t fileRowBytes() const;
  /// Writes `count` rows (structs) from `rows` to `out` in the file layout, as H5Tconvert from
  /// memoryType() to fileType() would but by copying each field's bytes, which is what that
  /// conversion amounts to on a little-endian machine; elsewhere it calls H5Tconvert. `out` has
  /// room for count * max(fileRowBytes(), struct size) bytes.
  void pack(const void* rows, std::size_t count, unsigned char* out) const;

 private:
  struct Field {
    const char* name;
    std::size_t offset;
    Kind kind;
    std::vector<hsize_t> dims;
  };
  struct Types;
  std::size_t rowBytes_;
  std::vector<Field> fields_;
  Types* types_;  // shared by copies of the layout and never freed: layouts are static
};

/// One recorded instant (table "steps").
struct StepRow {
  std::int64_t step;
  double time;
  std::int32_t bodyCount;
  std::int64_t stateBegin;
  std::int64_t problemBegin;
  std::int32_t problemCount;
  std::int8_t gjkVariant;
  std::int8_t warmStart;
  double gjkTolerance;
  std::int32_t gjkMaxIterations;
  std::int8_t substeps;  // format version 9
};

/// One body's state at one instant (table "states").
struct StateRow {
  double position[3];
  double orientation[4];  // w, x, y, z
  double linearVelocity[3];
  double angularVelocity[3];
  std::uint8_t sleeping;
};

/// One narrow-phase query (table "problems").
struct ProblemRow {
  std::int64_t step;
  std::int8_t substep;  // format version 5
  std::int32_t proxyA, proxyB, bodyA, bodyB;
  std::uint8_t exactInputs;
  double positionA[3], orientationA[4];
  double positionB[3], orientationB[4];
  double obbCenterA[3], obbCenterB[3];
  std::uint8_t hasPrevious;
  double previousSeparation[3];
  double previousWitnessALocal[3], previousWitnessBLocal[3];
  std::uint8_t previousOverlapping;
  double initialGuess[3];
  std::int32_t supportHints[2];
  std::uint8_t collide;
  double distance;
  double normal[3];
  double witnessA[3], witnessB[3];
  double separation[3];
  std::int32_t gjkIterations;
  std::int8_t gjkStatus;
  std::int32_t epaIterations;
  std::int8_t epaStatus;        // -1: EPA did not run
  double separationBound;       // format version 8
  std::int8_t warmSimplexSize;  // format version 10: 0 when GJK started from x0 alone
  double warmSimplexA[4][3], warmSimplexB[4][3];
};

/// One body (table "bodies").
struct BodyRow {
  char name[kNameBytes];
  char asset[kNameBytes];
  std::uint8_t isStatic;
  double mass;
  double friction;
  double restitution;
  std::int64_t firstStep;
};

/// One collision proxy with its shape (table "proxies").
struct ProxyRow {
  std::int32_t body;
  std::int8_t shapeType;
  double radius;
  double halfLength;
  double halfExtents[3];
  std::int32_t hull;
  double convexRadius;    // format version 2
  std::int32_t coreHull;  // format version 2
  double positionInBody[3];
  double orientationInBody[4];
  double obbCenter[3];
  double obbAxes[3][3];  // row-major: column k is the box's k-th axis
  double obbHalfExtents[3];
};

/// One convex hull's ranges in the hull arrays (table "hulls").
struct HullRow {
  std::int64_t vertexBegin;
  std::int32_t vertexCount;
  std::int64_t faceBegin;
  std::int32_t faceCount;
};

/// A row's fields to and from what they hold: vectors, quaternions (w, x, y, z) and names
/// (zero-padded; a longer one is cut, with a warning).
void put(double (&out)[3], const Eigen::Vector3d& v);
void put(double (&out)[4], const Eigen::Quaterniond& q);
void putName(char (&out)[kNameBytes], const std::string& name);
Eigen::Vector3d vec3(const double (&v)[3]);
Eigen::Quaterniond quat(const double (&v)[4]);
std::string text(const char (&name)[kNameBytes]);

const RowLayout& stepLayout(int formatVersion = kFormatVersion);
const RowLayout& stateLayout();
/// Problems as format version `formatVersion` wrote them: no substep before version 5, no
/// separation bound before version 8.
const RowLayout& problemLayout(int formatVersion = kFormatVersion);
const RowLayout& bodyLayout();
const RowLayout& proxyLayout();
/// The proxies' fields in recordings of format version 1 (no convex radius, no core hull).
const RowLayout& proxyLayoutVersion1();
const RowLayout& hullLayout();

}  // namespace hb::recording
