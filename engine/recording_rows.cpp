#include "engine/recording_rows.hpp"

#include <cstddef>

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

}  // namespace

RowLayout& RowLayout::field(const char* name, std::size_t offset, Kind kind,
                            std::vector<hsize_t> dims) {
  fields_.push_back({name, offset, kind, std::move(dims)});
  return *this;
}

H5::CompType RowLayout::memoryType() const {
  H5::CompType type(rowBytes_);
  for (const Field& f : fields_)
    type.insertMember(f.name, f.offset, fieldType(f.kind, f.dims, false));
  return type;
}

H5::CompType RowLayout::fileType() const {
  std::size_t size = 0;
  for (const Field& f : fields_) size += fieldType(f.kind, f.dims, true).getSize();
  H5::CompType type(size);
  std::size_t offset = 0;
  for (const Field& f : fields_) {
    const H5::DataType member = fieldType(f.kind, f.dims, true);
    type.insertMember(f.name, offset, member);
    offset += member.getSize();
  }
  return type;
}

const RowLayout& stepLayout() {
  static const RowLayout layout =
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
  return layout;
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

const RowLayout& problemLayout() {
  using P = ProblemRow;
  static const RowLayout layout =
      RowLayout(sizeof(P))
          .field("step", offsetof(P, step), Kind::I64)
          .field("proxy_a", offsetof(P, proxyA), Kind::I32)
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
  return layout;
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

const RowLayout& proxyLayout() {
  static const RowLayout layout =
      RowLayout(sizeof(ProxyRow))
          .field("body", offsetof(ProxyRow, body), Kind::I32)
          .field("shape_type", offsetof(ProxyRow, shapeType), Kind::I8)
          .field("radius", offsetof(ProxyRow, radius), Kind::F64)
          .field("half_length", offsetof(ProxyRow, halfLength), Kind::F64)
          .field("half_extents", offsetof(ProxyRow, halfExtents), Kind::F64, {3})
          .field("hull", offsetof(ProxyRow, hull), Kind::I32)
          .field("position_in_body", offsetof(ProxyRow, positionInBody), Kind::F64, {3})
          .field("orientation_in_body", offsetof(ProxyRow, orientationInBody), Kind::F64, {4})
          .field("obb_center", offsetof(ProxyRow, obbCenter), Kind::F64, {3})
          .field("obb_axes", offsetof(ProxyRow, obbAxes), Kind::F64, {3, 3})
          .field("obb_half_extents", offsetof(ProxyRow, obbHalfExtents), Kind::F64, {3});
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

}  // namespace hb::recording
