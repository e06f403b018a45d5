#include "engine/recording/recording_rows.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <mutex>

#include <spdlog/spdlog.h>

namespace hb::recording {
namespace {

using Kind = RowLayout::Kind;

H5::DataType scalarType(Kind kind, bool file, hsize_t textBytes) {
  // File types are little-endian whatever the machine: the bytes readers expect.
  switch (kind) {
    case Kind::F64:
      return file ? H5::PredType::IEEE_F64LE : H5::PredType::NATIVE_DOUBLE;
    case Kind::I64:
      return file ? H5::PredType::STD_I64LE : H5::PredType::NATIVE_INT64;
    case Kind::I32:
      return file ? H5::PredType::STD_I32LE : H5::PredType::NATIVE_INT32;
    case Kind::I8:
      return file ? H5::PredType::STD_I8LE : H5::PredType::NATIVE_INT8;
    case Kind::U8:
      return file ? H5::PredType::STD_U8LE : H5::PredType::NATIVE_UINT8;
    case Kind::Text: {
      H5::StrType type(H5::PredType::C_S1, textBytes);
      type.setCset(H5T_CSET_UTF8);
      type.setStrpad(H5T_STR_NULLPAD);
      return type;
    }
  }
  return H5::PredType::NATIVE_DOUBLE;
}

H5::DataType fieldType(Kind kind, const std::vector<hsize_t>& dims, bool file) {
  if (kind == Kind::Text) return scalarType(kind, file, dims.at(0));
  const H5::DataType scalar = scalarType(kind, file, 0);
  if (dims.empty()) return scalar;
  return H5::ArrayType(scalar, static_cast<int>(dims.size()), dims.data());
}

// Bytes of a field, in memory and in the file alike.
std::size_t fieldBytes(Kind kind, const std::vector<hsize_t>& dims) {
  if (kind == Kind::Text) return dims.at(0);
  std::size_t bytes = kind == Kind::F64 || kind == Kind::I64 ? 8 : kind == Kind::I32 ? 4 : 1;
  for (hsize_t d : dims) bytes *= d;
  return bytes;
}

}  // namespace

// Building a compound type takes an HDF5 call per field, each time a recording is opened: the
// types are built once. They are never destroyed (nor is this holder, which copies of a layout
// share): layouts are static, and HDF5 closes its identifiers itself when the program ends,
// possibly before static objects are destroyed.
struct RowLayout::Types {
  std::once_flag built;
  const H5::CompType* memory = nullptr;
  const H5::CompType* file = nullptr;
};

RowLayout::RowLayout(std::size_t rowBytes) : rowBytes_(rowBytes), types_(new Types) {}

RowLayout& RowLayout::field(const char* name, std::size_t offset, Kind kind,
                            std::vector<hsize_t> dims) {
  fields_.push_back({name, offset, kind, std::move(dims)});
  return *this;
}

const H5::CompType& RowLayout::memoryType() const {
  std::call_once(types_->built, [this] {
    auto* memory = new H5::CompType(rowBytes_);
    for (const Field& f : fields_)
      memory->insertMember(f.name, f.offset, fieldType(f.kind, f.dims, false));
    auto* file = new H5::CompType(fileRowBytes());
    std::size_t offset = 0;
    for (const Field& f : fields_) {
      const H5::DataType member = fieldType(f.kind, f.dims, true);
      file->insertMember(f.name, offset, member);
      offset += member.getSize();
    }
    types_->memory = memory;
    types_->file = file;
  });
  return *types_->memory;
}

const H5::CompType& RowLayout::fileType() const {
  memoryType();  // builds both
  return *types_->file;
}

std::size_t RowLayout::fileRowBytes() const {
  std::size_t size = 0;
  for (const Field& f : fields_) size += fieldBytes(f.kind, f.dims);
  return size;
}

void RowLayout::pack(const void* rows, std::size_t count, unsigned char* out) const {
  if constexpr (std::endian::native != std::endian::little) {
    std::memcpy(out, rows, count * rowBytes_);
    std::vector<unsigned char> background(count * fileRowBytes());
    if (H5Tconvert(memoryType().getId(), fileType().getId(), count, out, background.data(),
                   H5P_DEFAULT) < 0) {
      throw H5::DataTypeIException("H5Tconvert", "cannot convert rows to the file layout");
    }
    return;
  }
  // The fields as runs of bytes contiguous in the struct (no padding between them).
  struct Run {
    std::size_t from, bytes;
  };
  std::vector<Run> runs;
  for (const Field& f : fields_) {
    const std::size_t bytes = fieldBytes(f.kind, f.dims);
    if (!runs.empty() && runs.back().from + runs.back().bytes == f.offset) {
      runs.back().bytes += bytes;
    } else {
      runs.push_back({f.offset, bytes});
    }
  }
  const auto* row = static_cast<const unsigned char*>(rows);
  for (std::size_t r = 0; r < count; ++r, row += rowBytes_) {
    for (const Run& run : runs) {
      std::memcpy(out, row + run.from, run.bytes);
      out += run.bytes;
    }
  }
}

namespace {

RowLayout stepFields(int formatVersion) {
  RowLayout layout =
      RowLayout(sizeof(StepRow))
          .field("step", offsetof(StepRow, step), Kind::I64)
          .field("time", offsetof(StepRow, time), Kind::F64)
          .field("body_count", offsetof(StepRow, bodyCount), Kind::I32)
          .field("state_begin", offsetof(StepRow, stateBegin), Kind::I64)
          .field("problem_begin", offsetof(StepRow, problemBegin), Kind::I64)
          .field("problem_count", offsetof(StepRow, problemCount), Kind::I32)
          .field("gjk_variant", offsetof(StepRow, gjkVariant), Kind::I8)
          .field("warm_start", offsetof(StepRow, warmStart), Kind::I8)
          .field("gjk_tolerance", offsetof(StepRow, gjkTolerance), Kind::F64)
          .field("gjk_max_iterations", offsetof(StepRow, gjkMaxIterations), Kind::I32);
  if (formatVersion >= 9) layout.field("substeps", offsetof(StepRow, substeps), Kind::I8);
  return layout;
}

}  // namespace

const RowLayout& stepLayout(int formatVersion) {
  static const RowLayout version8 = stepFields(8), current = stepFields(kFormatVersion);
  return formatVersion < 9 ? version8 : current;
}

const RowLayout& stateLayout() {
  static const RowLayout layout =
      RowLayout(sizeof(StateRow))
          .field("position", offsetof(StateRow, position), Kind::F64, {3})
          .field("orientation", offsetof(StateRow, orientation), Kind::F64, {4})
          .field("linear_velocity", offsetof(StateRow, linearVelocity), Kind::F64, {3})
          .field("angular_velocity", offsetof(StateRow, angularVelocity), Kind::F64, {3})
          .field("sleeping", offsetof(StateRow, sleeping), Kind::U8);
  return layout;
}

namespace {

RowLayout problemFields(int formatVersion) {
  const bool withSubstep = formatVersion >= 5;
  using P = ProblemRow;
  RowLayout layout(sizeof(P));
  layout.field("step", offsetof(P, step), Kind::I64);
  if (withSubstep) layout.field("substep", offsetof(P, substep), Kind::I8);
  layout.field("proxy_a", offsetof(P, proxyA), Kind::I32)
      .field("proxy_b", offsetof(P, proxyB), Kind::I32)
      .field("body_a", offsetof(P, bodyA), Kind::I32)
      .field("body_b", offsetof(P, bodyB), Kind::I32)
      .field("exact_inputs", offsetof(P, exactInputs), Kind::U8)
      .field("position_a", offsetof(P, positionA), Kind::F64, {3})
      .field("orientation_a", offsetof(P, orientationA), Kind::F64, {4})
      .field("position_b", offsetof(P, positionB), Kind::F64, {3})
      .field("orientation_b", offsetof(P, orientationB), Kind::F64, {4})
      .field("obb_center_a", offsetof(P, obbCenterA), Kind::F64, {3})
      .field("obb_center_b", offsetof(P, obbCenterB), Kind::F64, {3})
      .field("has_previous", offsetof(P, hasPrevious), Kind::U8)
      .field("previous_separation", offsetof(P, previousSeparation), Kind::F64, {3})
      .field("previous_witness_a_local", offsetof(P, previousWitnessALocal), Kind::F64, {3})
      .field("previous_witness_b_local", offsetof(P, previousWitnessBLocal), Kind::F64, {3})
      .field("previous_overlapping", offsetof(P, previousOverlapping), Kind::U8)
      .field("initial_guess", offsetof(P, initialGuess), Kind::F64, {3})
      .field("support_hints", offsetof(P, supportHints), Kind::I32, {2})
      .field("collide", offsetof(P, collide), Kind::U8)
      .field("distance", offsetof(P, distance), Kind::F64)
      .field("normal", offsetof(P, normal), Kind::F64, {3})
      .field("witness_a", offsetof(P, witnessA), Kind::F64, {3})
      .field("witness_b", offsetof(P, witnessB), Kind::F64, {3})
      .field("separation", offsetof(P, separation), Kind::F64, {3})
      .field("gjk_iterations", offsetof(P, gjkIterations), Kind::I32)
      .field("gjk_status", offsetof(P, gjkStatus), Kind::I8)
      .field("epa_iterations", offsetof(P, epaIterations), Kind::I32)
      .field("epa_status", offsetof(P, epaStatus), Kind::I8);
  if (formatVersion >= 8) layout.field("separation_bound", offsetof(P, separationBound), Kind::F64);
  if (formatVersion >= 10) {
    layout.field("warm_simplex_size", offsetof(P, warmSimplexSize), Kind::I8)
        .field("warm_simplex_a", offsetof(P, warmSimplexA), Kind::F64, {4, 3})
        .field("warm_simplex_b", offsetof(P, warmSimplexB), Kind::F64, {4, 3});
  }
  return layout;
}

}  // namespace

const RowLayout& problemLayout(int formatVersion) {
  static const RowLayout version4 = problemFields(4), version7 = problemFields(7),
                         version9 = problemFields(9), current = problemFields(kFormatVersion);
  return formatVersion < 5    ? version4
         : formatVersion < 8  ? version7
         : formatVersion < 10 ? version9
                              : current;
}

const RowLayout& bodyLayout() {
  static const RowLayout layout =
      RowLayout(sizeof(BodyRow))
          .field("name", offsetof(BodyRow, name), Kind::Text, {kNameBytes})
          .field("asset", offsetof(BodyRow, asset), Kind::Text, {kNameBytes})
          .field("is_static", offsetof(BodyRow, isStatic), Kind::U8)
          .field("mass", offsetof(BodyRow, mass), Kind::F64)
          .field("friction", offsetof(BodyRow, friction), Kind::F64)
          .field("restitution", offsetof(BodyRow, restitution), Kind::F64)
          .field("first_step", offsetof(BodyRow, firstStep), Kind::I64);
  return layout;
}

namespace {

// The proxies' fields, those of format version 2 when `rounded`.
RowLayout proxyFields(bool rounded) {
  RowLayout layout(sizeof(ProxyRow));
  layout.field("body", offsetof(ProxyRow, body), Kind::I32)
      .field("shape_type", offsetof(ProxyRow, shapeType), Kind::I8)
      .field("radius", offsetof(ProxyRow, radius), Kind::F64)
      .field("half_length", offsetof(ProxyRow, halfLength), Kind::F64)
      .field("half_extents", offsetof(ProxyRow, halfExtents), Kind::F64, {3})
      .field("hull", offsetof(ProxyRow, hull), Kind::I32);
  if (rounded) {
    layout.field("convex_radius", offsetof(ProxyRow, convexRadius), Kind::F64)
        .field("core_hull", offsetof(ProxyRow, coreHull), Kind::I32);
  }
  layout.field("position_in_body", offsetof(ProxyRow, positionInBody), Kind::F64, {3})
      .field("orientation_in_body", offsetof(ProxyRow, orientationInBody), Kind::F64, {4})
      .field("obb_center", offsetof(ProxyRow, obbCenter), Kind::F64, {3})
      .field("obb_axes", offsetof(ProxyRow, obbAxes), Kind::F64, {3, 3})
      .field("obb_half_extents", offsetof(ProxyRow, obbHalfExtents), Kind::F64, {3});
  return layout;
}

}  // namespace

const RowLayout& proxyLayout() {
  static const RowLayout layout = proxyFields(true);
  return layout;
}

const RowLayout& proxyLayoutVersion1() {
  static const RowLayout layout = proxyFields(false);
  return layout;
}

const RowLayout& hullLayout() {
  static const RowLayout layout =
      RowLayout(sizeof(HullRow))
          .field("vertex_begin", offsetof(HullRow, vertexBegin), Kind::I64)
          .field("vertex_count", offsetof(HullRow, vertexCount), Kind::I32)
          .field("face_begin", offsetof(HullRow, faceBegin), Kind::I64)
          .field("face_count", offsetof(HullRow, faceCount), Kind::I32);
  return layout;
}

void put(double (&out)[3], const Eigen::Vector3d& v) {
  std::copy(v.data(), v.data() + 3, out);
}

void put(double (&out)[4], const Eigen::Quaterniond& q) {
  out[0] = q.w();
  out[1] = q.x();
  out[2] = q.y();
  out[3] = q.z();
}

void putName(char (&out)[kNameBytes], const std::string& name) {
  if (name.size() > kNameBytes)
    spdlog::warn("recording: name '{}' cut to {} bytes", name, kNameBytes);
  std::memset(out, 0, kNameBytes);
  std::memcpy(out, name.data(), std::min(name.size(), kNameBytes));
}

Eigen::Vector3d vec3(const double (&v)[3]) {
  return {v[0], v[1], v[2]};
}

Eigen::Quaterniond quat(const double (&v)[4]) {
  return {v[0], v[1], v[2], v[3]};
}

std::string text(const char (&name)[kNameBytes]) {
  return {name, strnlen(name, kNameBytes)};
}

}  // namespace hb::recording
