#include "engine/recording/recording_file.hpp"

#include <cstring>
#include <sstream>

#include "engine/recording/recording_error.hpp"

namespace hb::recording {
namespace {

std::string shapeText(const std::vector<hsize_t>& dims) {
  std::ostringstream s;
  s << '(';
  for (std::size_t i = 0; i < dims.size(); ++i) s << (i ? ", " : "") << dims[i];
  s << ')';
  return s.str();
}

std::string fromPadded(const char* text, std::size_t bytes) {
  return std::string(text, strnlen(text, bytes));
}

}  // namespace

void RecordingFile::fail(const std::string& what) const {
  throw RecordingError("recording " + path.string() + ": " + what);
}

H5::DataSet RecordingFile::open(const char* name, const Row& rowShape, hsize_t& rows) const {
  if (!exists(name)) fail("missing dataset /" + std::string(name));
  H5::DataSet dataset = file.openDataSet(name);
  const H5::DataSpace space = dataset.getSpace();
  std::vector<hsize_t> dims(space.getSimpleExtentNdims());
  space.getSimpleExtentDims(dims.data());
  Row expected{rows};
  expected.insert(expected.end(), rowShape.begin(), rowShape.end());
  if (dims.size() != rowShape.size() + 1 ||
      !std::equal(rowShape.begin(), rowShape.end(), dims.begin() + 1)) {
    expected[0] = dims.empty() ? 0 : dims[0];
    fail("dataset /" + std::string(name) + " has shape " + shapeText(dims) + ", expected " +
         shapeText(expected));
  }
  rows = dims[0];
  double rowBytes = static_cast<double>(dataset.getDataType().getSize());
  for (const hsize_t n : rowShape) rowBytes *= static_cast<double>(n);
  if (static_cast<double>(rows) * rowBytes > kMaxDeflateRatio * fileBytes + 1e6) {
    fail("dataset /" + std::string(name) + " claims " + std::to_string(rows) + " rows of " +
         std::to_string(static_cast<long long>(rowBytes)) + " bytes, more than a file of " +
         std::to_string(fileBytes) + " bytes can hold (damaged?)");
  }
  return dataset;
}

hsize_t RecordingFile::rows(const char* name, const Row& rowShape) const {
  hsize_t n = 0;
  open(name, rowShape, n);
  return n;
}

H5::StrType RecordingFile::checkedStringType(const H5::AbstractDs& object, const std::string& what,
                                             std::size_t maxBytes) const {
  if (object.getTypeClass() != H5T_STRING) fail(what + " is not text");
  H5::StrType type = object.getStrType();
  if (type.isVariableStr()) fail(what + " is a variable-length string, not used by this format");
  if (type.getSize() > maxBytes) fail(what + " is longer than " + std::to_string(maxBytes));
  return type;
}

std::string RecordingFile::textDataset(const char* name) const {
  if (!exists(name)) fail("missing dataset /" + std::string(name));
  const H5::DataSet dataset = file.openDataSet(name);
  const H5::StrType type =
      checkedStringType(dataset, "dataset /" + std::string(name), std::size_t{1} << 26);
  if (dataset.getSpace().getSimpleExtentNpoints() != 1) {
    fail("dataset /" + std::string(name) + " is not a single string");
  }
  std::vector<char> text(type.getSize());
  dataset.read(text.data(), type);
  return fromPadded(text.data(), text.size());
}

H5::Attribute RecordingFile::attribute(const char* name) const {
  if (!file.attrExists(name)) fail("missing attribute '" + std::string(name) + "'");
  return file.openAttribute(name);
}

std::string RecordingFile::stringAttribute(const char* name) const {
  const H5::Attribute a = attribute(name);
  const H5::StrType type = checkedStringType(a, "attribute '" + std::string(name) + "'", 65536);
  if (a.getSpace().getSimpleExtentNpoints() != 1) {
    fail("attribute '" + std::string(name) + "' is not a single string");
  }
  std::vector<char> text(type.getSize());
  a.read(type, text.data());
  return fromPadded(text.data(), text.size());
}

double RecordingFile::doubleAttribute(const char* name) const {
  double value = 0.0;
  attribute(name).read(H5::PredType::NATIVE_DOUBLE, &value);
  return value;
}

long long RecordingFile::intAttribute(const char* name) const {
  const H5::Attribute a = attribute(name);
  if (a.getTypeClass() != H5T_INTEGER) {
    fail("attribute '" + std::string(name) + "' is not an integer");
  }
  long long value = 0;
  a.read(H5::PredType::NATIVE_LLONG, &value);
  return value;
}

Eigen::Vector3d RecordingFile::vectorAttribute(const char* name) const {
  const H5::Attribute a = attribute(name);
  if (a.getSpace().getSimpleExtentNpoints() != 3) {
    fail("attribute '" + std::string(name) + "' is not a 3-vector");
  }
  Eigen::Vector3d v;
  a.read(H5::PredType::NATIVE_DOUBLE, v.data());
  return v;
}

}  // namespace hb::recording
