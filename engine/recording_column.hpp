#pragma once
// A dataset that grows by rows: extendible along its first dimension, chunked, shuffled and
// deflated. Rows are buffered in memory and handed over as write jobs (run later, possibly on
// another thread): whole chunks during a run, so each chunk is compressed once, and the rest at
// the end. Memory stays bounded however long the recording. Internal to hb_engine (includes the
// HDF5 headers).

#include <H5Cpp.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace hb::recording {

/// The in-memory and file HDF5 types of plain values of type T.
template <class T>
const H5::PredType& nativeType() {
  if constexpr (std::is_same_v<T, double>) {
    return H5::PredType::NATIVE_DOUBLE;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return H5::PredType::NATIVE_INT64;
  } else {
    static_assert(std::is_same_v<T, std::int32_t>, "unsupported value type");
    return H5::PredType::NATIVE_INT32;
  }
}

template <class T>
const H5::PredType& fileType() {
  if constexpr (std::is_same_v<T, double>) {
    return H5::PredType::IEEE_F64LE;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return H5::PredType::STD_I64LE;
  } else {
    static_assert(std::is_same_v<T, std::int32_t>, "unsupported value type");
    return H5::PredType::STD_I32LE;
  }
}

/// What the recorder needs of every column, whatever its row type. add() and take*() belong to
/// the producing thread; the jobs they return touch only the dataset.
class AppendableColumn {
 public:
  virtual ~AppendableColumn() = default;
  /// A job appending the buffered rows that fill whole chunks (none: an empty function).
  virtual std::function<void()> takeFullChunks() = 0;
  /// A job appending every buffered row (none: an empty function).
  virtual std::function<void()> takeAll() = 0;
  virtual std::uint64_t bufferedRows() const = 0;
  /// Rows added so far, written or not.
  virtual std::uint64_t rows() const = 0;
};

/// Rows of `rowShape` values of T ({} for one value per row, {3} for vectors), where T is a
/// plain number or a struct described by a compound type.
template <class T>
class Column final : public AppendableColumn {
 public:
  /// Plain numbers.
  Column(const H5::H5File& file, const char* path, std::vector<hsize_t> rowShape,
         hsize_t chunkRows) requires std::is_arithmetic_v<T>
      : Column(file, path, nativeType<T>(), fileType<T>(), std::move(rowShape), chunkRows) {}
  /// Values of the given in-memory and file types (compound rows).
  Column(const H5::H5File& file, const char* path, const H5::DataType& memoryType,
         const H5::DataType& fileType, std::vector<hsize_t> rowShape, hsize_t chunkRows);

  void add(const T& value) { buffer_.push_back(value); }
  /// One row: as many values as the row shape holds (row-major).
  void add(const T* values) { buffer_.insert(buffer_.end(), values, values + rowSize_); }

  std::function<void()> takeFullChunks() override;
  std::function<void()> takeAll() override;
  std::uint64_t bufferedRows() const override { return buffer_.size() / rowSize_; }
  std::uint64_t rows() const override { return taken_ + bufferedRows(); }
  const H5::DataSet& dataset() const { return dataset_; }

 private:
  std::function<void()> take(hsize_t rowCount);
  void write(const std::vector<T>& values, hsize_t first);
  void writeChunksDirectly(const std::vector<T>& values, hsize_t first);

  H5::DataSet dataset_;
  H5::DataType memoryType_;
  H5::DataType fileType_;
  bool direct_ = false;  // whole chunks are compressed here, outside HDF5's global lock
  std::vector<hsize_t> rowShape_;
  hsize_t rowSize_ = 1;
  hsize_t chunkRows_ = 1;
  hsize_t taken_ = 0;  // rows handed over in jobs
  std::vector<T> buffer_;
};

/// A fixed-length, null-padded UTF-8 string type of `bytes` bytes (at least 1). Recordings hold
/// no variable-length strings: those live in HDF5's global heap, which a corrupt file can make
/// HDF5 read out of bounds.
H5::StrType fixedStringType(std::size_t bytes);

/// Writes `text` as a fixed-length string attribute of `object`.
void writeTextAttribute(const H5::H5Object& object, const char* name, const std::string& text);

}  // namespace hb::recording
