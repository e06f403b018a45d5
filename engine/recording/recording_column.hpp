#pragma once
// A dataset that grows by rows: extendible along its first dimension, chunked and deflated.
// Rows are buffered in memory and handed over as write jobs (run later, possibly on another
// thread) that compress whole chunks themselves and store them as they are: full chunks during a
// run, each compressed once, and a partly filled last chunk when the file must hold every row so
// far (it is kept in memory and stored again, fuller, at the next hand-over). Memory stays bounded
// however long the recording. Internal to hb_engine (includes the HDF5 headers).

#include <H5Cpp.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/recording/deflate_compressor.hpp"
#include "engine/recording/recording_rows.hpp"

namespace hb::recording {

/// The in-memory and file HDF5 types of plain values of type T.
template <class T>
const H5::PredType& nativeType() {
  if constexpr (std::is_same_v<T, double>) {
    return H5::PredType::NATIVE_DOUBLE;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return H5::PredType::NATIVE_INT64;
  } else {
    // Row structs pass through here too when clang instantiates the constrained scalar
    // constructor with the whole class; they never call it.
    static_assert(std::is_same_v<T, std::int32_t> || std::is_class_v<T>, "unsupported value type");
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
    static_assert(std::is_same_v<T, std::int32_t> || std::is_class_v<T>, "unsupported value type");
    return H5::PredType::STD_I32LE;
  }
}

/// What the write jobs of one recording's columns share: they run one at a time, on the
/// recorder's writer thread, so one compressor and one set of buffers serve them all.
struct ChunkEncoder {
  ChunkEncoder();
  DeflateCompressor compressor;
  std::vector<unsigned char> rows;  // one chunk in the file's row layout
};

/// What the recorder needs of every column, whatever its row type. add() and take*() belong to
/// the producing thread; the jobs they return touch only the dataset.
class AppendableColumn {
 public:
  virtual ~AppendableColumn() = default;
  /// A job storing the rows that fill whole chunks (none: an empty function).
  virtual std::function<void()> takeFullChunks() = 0;
  /// A job storing every row added so far (none, if they all were: an empty function).
  virtual std::function<void()> takeAll() = 0;
  /// Rows added but not handed over yet.
  virtual std::uint64_t bufferedRows() const = 0;
  /// Rows added so far, written or not.
  virtual std::uint64_t rows() const = 0;
  /// Full chunks handed over so far.
  virtual std::uint64_t fullChunks() const = 0;
  /// Creates the (empty) dataset in `file`, before any job of the column runs; on the thread
  /// that runs the jobs, like close().
  virtual void create(const H5::H5File& file) = 0;
  /// Closes the dataset, once its last job ran: HDF5 closes a file only with its datasets.
  virtual void close() = 0;
  /// The dataset, once created (for its attributes).
  virtual const H5::DataSet& dataset() const = 0;
};

/// Rows of `rowShape` values of T ({} for one value per row, {3} for vectors), where T is a
/// plain number or a struct described by a compound type.
template <class T>
class Column final : public AppendableColumn {
 public:
  /// Plain numbers, in the dataset at `path` (a static string) once created. The jobs use
  /// `encoder`, which must outlive them.
  Column(const char* path, std::vector<hsize_t> rowShape, hsize_t chunkRows,
         ChunkEncoder& encoder) requires std::is_arithmetic_v<T>;
  /// Compound rows of `layout`, which must outlive the column (layouts are static).
  Column(const char* path, const RowLayout& layout, hsize_t chunkRows,
         ChunkEncoder& encoder) requires std::is_class_v<T>;

  void add(const T& value) { buffer_.push_back(value); }
  /// A new zeroed row (of a compound type), to be filled in place: no copy of a large row.
  T& add() requires std::is_class_v<T> { return buffer_.emplace_back(); }
  /// `count` rows, each as many values as the row shape holds (row-major).
  void add(const T* values, std::size_t count) {
    buffer_.insert(buffer_.end(), values, values + count * rowSize_);
  }

  std::function<void()> takeFullChunks() override;
  std::function<void()> takeAll() override;
  std::uint64_t bufferedRows() const override { return rows() - handedOver_; }
  std::uint64_t rows() const override { return stored_ + buffer_.size() / rowSize_; }
  std::uint64_t fullChunks() const override { return stored_ / chunkRows_; }
  void create(const H5::H5File& file) override;
  void close() override { dataset_.close(); }
  const H5::DataSet& dataset() const override { return dataset_; }

 private:
  Column(const char* path, const H5::DataType& fileType, std::vector<hsize_t> rowShape,
         std::size_t fileValueBytes, hsize_t chunkRows, ChunkEncoder& encoder);
  std::function<void()> take(bool all);
  void writeChunks(const std::vector<T>& values, hsize_t count, hsize_t first);
  /// Writes `count` rows in the file's layout to `out`.
  void toFileLayout(const T* values, hsize_t count, unsigned char* out) const;

  const char* path_;
  const H5::DataType* fileType_;       // static: a predefined type or a layout's
  H5::DataSet dataset_;                // created and used by the jobs' thread only
  const RowLayout* layout_ = nullptr;  // compound rows
  std::size_t fileRowBytes_ = 0;
  std::vector<hsize_t> rowShape_;
  hsize_t rowSize_ = 1;
  hsize_t chunkRows_ = 1;
  ChunkEncoder& encoder_;
  hsize_t stored_ = 0;      // rows of the full chunks handed over, which left the buffer
  hsize_t handedOver_ = 0;  // rows handed over, the last partly filled chunk's included
  std::vector<T> buffer_;   // the rows from stored_ on
};

/// A fixed-length, null-padded UTF-8 string type of `bytes` bytes (at least 1). Recordings hold
/// no variable-length strings: those live in HDF5's global heap, which a corrupt file can make
/// HDF5 read out of bounds.
H5::StrType fixedStringType(std::size_t bytes);

/// Writes `text` as a fixed-length string attribute of `object`.
void writeTextAttribute(const H5::H5Object& object, const char* name, const std::string& text);

}  // namespace hb::recording
