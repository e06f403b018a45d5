#pragma once
// Checked reads of a recording's HDF5 file (engine/recording/recording_reader.cpp): datasets of
// the row shapes the format gives them and of sizes the file can hold, fixed-length strings of
// bounded length, typed attributes. Every failure throws RecordingError naming the file and what
// was wrong, so that a damaged or crafted file is an error, never a crash. Internal to
// hb_recording (includes the HDF5 headers).

#include <H5Cpp.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "engine/recording/hdf5_errors.hpp"
#include "engine/recording/recording_column.hpp"
#include "engine/recording/recording_rows.hpp"

namespace hb::recording {

struct RecordingFile {
  using Row = std::vector<hsize_t>;
  static inline const Row kScalar{};
  /// Deflate, the recorder's only filter, shrinks data at most 1032-fold: a dataset claiming
  /// more than that (a crafted or damaged size) would only exhaust the memory reading it.
  static constexpr double kMaxDeflateRatio = 1032.0;

  std::filesystem::path path;
  std::uintmax_t fileBytes = 0;
  H5::H5File file;

  [[noreturn]] void fail(const std::string& what) const;
  bool exists(const char* name) const { return file.nameExists(name); }

  /// Opens a dataset of rows of `rowShape` values and sets `rows` to its row count.
  H5::DataSet open(const char* name, const Row& rowShape, hsize_t& rows) const;
  hsize_t rows(const char* name, const Row& rowShape) const;

  /// Rows [first, first + count) of a dataset of rows of `rowShape` values of `type`.
  template <class T>
  std::vector<T> read(const char* name, const H5::DataType& type, const Row& rowShape,
                      hsize_t first, hsize_t count) const;
  template <class T>
  std::vector<T> read(const char* name, const Row& rowShape, hsize_t first, hsize_t count) const {
    return read<T>(name, nativeType<T>(), rowShape, first, count);
  }
  /// Table rows; fields are matched by name, so a file lacking one fails to read.
  template <class T>
  std::vector<T> readRows(const char* name, const RowLayout& layout, hsize_t first,
                          hsize_t count) const {
    return read<T>(name, layout.memoryType(), kScalar, first, count);
  }

  /// Fixed-length strings only: reading variable-length ones from a corrupt file can make HDF5
  /// read out of bounds in its global heap.
  H5::StrType checkedStringType(const H5::AbstractDs& object, const std::string& what,
                                std::size_t maxBytes) const;
  std::string textDataset(const char* name) const;
  H5::Attribute attribute(const char* name) const;
  std::string stringAttribute(const char* name) const;
  double doubleAttribute(const char* name) const;
  long long intAttribute(const char* name) const;
  Eigen::Vector3d vectorAttribute(const char* name) const;

  template <class Enum>
  Enum enumValue(long long value, int count, const char* what) const {
    if (value < 0 || value >= count) {
      fail(std::string(what) + " value " + std::to_string(value) + " is out of range");
    }
    return static_cast<Enum>(value);
  }
  /// An enumeration stored as its name (toString of one of its `count` values).
  template <class Enum>
  Enum enumAttribute(const char* name, int count) const {
    const std::string text = stringAttribute(name);
    for (int i = 0; i < count; ++i) {
      if (toString(static_cast<Enum>(i)) == text) return static_cast<Enum>(i);
    }
    fail("attribute '" + std::string(name) + "' has unknown value '" + text + "'");
  }
};

template <class T>
std::vector<T> RecordingFile::read(const char* name, const H5::DataType& type, const Row& rowShape,
                                   hsize_t first, hsize_t count) const {
  hsize_t available = 0;
  const H5::DataSet dataset = open(name, rowShape, available);
  if (first + count > available) {
    fail("dataset /" + std::string(name) + " has " + std::to_string(available) +
         " rows, rows up to " + std::to_string(first + count) + " are needed");
  }
  hsize_t rowSize = 1;
  for (hsize_t d : rowShape) rowSize *= d;
  std::vector<T> values(count * rowSize);
  if (count == 0) return values;
  Row start{first}, size{count};
  for (hsize_t d : rowShape) {
    start.push_back(0);
    size.push_back(d);
  }
  H5::DataSpace fileSpace = dataset.getSpace();
  fileSpace.selectHyperslab(H5S_SELECT_SET, size.data(), start.data());
  const H5::DataSpace memorySpace(static_cast<int>(size.size()), size.data());
  // The type conversion buffer sized to the read: HDF5 zero-fills its 1 MB default at every
  // read, which made a read of one step's states cost a megabyte of fresh pages.
  H5::DSetMemXferPropList transfer;
  const std::size_t bytes = std::max<std::size_t>(values.size() * sizeof(T), 4096);
  transfer.setBuffer(bytes, nullptr, nullptr);
  try {
    dataset.read(values.data(), type, memorySpace, fileSpace, transfer);
  } catch (const H5::Exception& e) {
    fail("cannot read /" + std::string(name) + ": " + describe(e));
  }
  return values;
}

}  // namespace hb::recording
