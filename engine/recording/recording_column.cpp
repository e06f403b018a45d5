#include "engine/recording/recording_column.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

#include "engine/recording/recorder_joints.hpp"
#include "engine/recording/recording_layout.hpp"
#include "engine/recording/recording_rows.hpp"

namespace hb::recording {
namespace {

// The creation properties of chunked, deflated datasets with chunks of `chunk`: built once per
// chunk shape (copying HDF5's defaults costs more than creating the dataset's header), shared by
// every recorder, and never destroyed, like the row types (recording_rows.cpp). No shuffle filter:
// on these rows (doubles of every magnitude beside small integers) it makes the deflated chunks
// larger, not smaller, and costs a pass over every chunk.
const H5::DSetCreatPropList& chunkedDeflate(const std::vector<hsize_t>& chunk) {
  static std::mutex mutex;
  static auto& lists = *new std::map<std::vector<hsize_t>, const H5::DSetCreatPropList*>;
  std::lock_guard lock(mutex);
  const H5::DSetCreatPropList*& list = lists[chunk];
  if (!list) {
    auto* created = new H5::DSetCreatPropList;
    created->setChunk(static_cast<int>(chunk.size()), chunk.data());
    created->setDeflate(kDeflateLevel);
    H5Pset_obj_track_times(created->getId(), false);  // see fileCreation() in recorder.cpp
    list = created;
  }
  return *list;
}

// An empty, unlimited, chunked and deflated dataset with rows of `rowShape`.
H5::DataSet createExtendible(const H5::H5File& file, const char* path, const H5::DataType& type,
                             const std::vector<hsize_t>& rowShape, hsize_t chunkRows) {
  std::vector<hsize_t> dims{0}, maxDims{H5S_UNLIMITED}, chunk{chunkRows};
  for (hsize_t d : rowShape) {
    dims.push_back(d);
    maxDims.push_back(d);
    chunk.push_back(d);
  }
  const H5::DataSpace space(static_cast<int>(dims.size()), dims.data(), maxDims.data());
  return file.createDataSet(path, type, space, chunkedDeflate(chunk));
}

}  // namespace

ChunkEncoder::ChunkEncoder() : compressor(kDeflateLevel) {}

H5::StrType fixedStringType(std::size_t bytes) {
  H5::StrType type(H5::PredType::C_S1, std::max<std::size_t>(bytes, 1));
  type.setCset(H5T_CSET_UTF8);
  type.setStrpad(H5T_STR_NULLPAD);
  return type;
}

void writeTextAttribute(const H5::H5Object& object, const char* name, const std::string& text) {
  const H5::StrType type = fixedStringType(text.size());
  std::string padded = text;
  padded.resize(std::max<std::size_t>(text.size(), 1), '\0');
  object.createAttribute(name, type, H5::DataSpace(H5S_SCALAR)).write(type, padded.data());
}

template <class T>
Column<T>::Column(const char* path, std::vector<hsize_t> rowShape, hsize_t chunkRows,
                  ChunkEncoder& encoder) requires std::is_arithmetic_v<T>
    : Column(path, fileType<T>(), std::move(rowShape), sizeof(T), chunkRows, encoder) {}

template <class T>
Column<T>::Column(const char* path, const RowLayout& layout, hsize_t chunkRows,
                  ChunkEncoder& encoder) requires std::is_class_v<T>
    : Column(path, layout.fileType(), {}, layout.fileRowBytes(), chunkRows, encoder) {
  layout_ = &layout;
}

template <class T>
Column<T>::Column(const char* path, const H5::DataType& fileType, std::vector<hsize_t> rowShape,
                  std::size_t fileValueBytes, hsize_t chunkRows, ChunkEncoder& encoder)
    : path_(path),
      fileType_(&fileType),
      rowShape_(std::move(rowShape)),
      chunkRows_(chunkRows),
      encoder_(encoder) {
  for (hsize_t d : rowShape_) rowSize_ *= d;
  fileRowBytes_ = rowSize_ * fileValueBytes;
  buffer_.reserve(chunkRows * rowSize_);
}

template <class T>
void Column<T>::create(const H5::H5File& file) {
  dataset_ = createExtendible(file, path_, *fileType_, rowShape_, chunkRows_);
}

template <class T>
std::function<void()> Column<T>::takeFullChunks() {
  return take(false);
}

template <class T>
std::function<void()> Column<T>::takeAll() {
  return take(true);
}

template <class T>
std::function<void()> Column<T>::take(bool all) {
  const hsize_t buffered = buffer_.size() / rowSize_;
  const hsize_t full = buffered / chunkRows_ * chunkRows_;
  const hsize_t count = all ? buffered : full;
  if (stored_ + count <= handedOver_) return {};  // nothing new
  // The buffer goes to the job as it is, not copied; the rows of a partly filled chunk stay in
  // the new one too, to be stored again with more rows.
  std::vector<T> rest;
  rest.reserve(chunkRows_ * rowSize_);
  rest.assign(buffer_.begin() + full * rowSize_, buffer_.end());
  auto values = std::make_shared<std::vector<T>>(std::move(buffer_));
  buffer_ = std::move(rest);
  const hsize_t first = stored_;
  stored_ += full;
  handedOver_ = first + count;
  return [this, values, count, first] { writeChunks(*values, count, first); };
}

template <class T>
void Column<T>::toFileLayout(const T* values, hsize_t count, unsigned char* out) const {
  if (layout_) {
    layout_->pack(values, count, out);
    return;
  }
  std::memcpy(out, values, count * rowSize_ * sizeof(T));
  if constexpr (std::endian::native != std::endian::little) {
    if (H5Tconvert(nativeType<T>().getId(), fileType<T>().getId(), count * rowSize_, out, nullptr,
                   H5P_DEFAULT) < 0) {
      throw H5::DataTypeIException("H5Tconvert", "cannot convert values to little-endian");
    }
  }
}

// Each chunk is converted to the file's row layout, padded with zeros (the fill value) when partly
// filled, deflated here and stored as it is, replacing the chunk's earlier version if any: HDF5
// would compress holding its global lock, so recorders on several threads would take turns.
template <class T>
void Column<T>::writeChunks(const std::vector<T>& values, hsize_t count, hsize_t first) {
  const std::size_t chunkBytes = chunkRows_ * fileRowBytes_;
  std::vector<unsigned char>& rows = encoder_.rows;
  // Room for the rows in memory too, for conversions in place.
  rows.resize(std::max<std::size_t>(chunkBytes, chunkRows_ * rowSize_ * sizeof(T)));
  std::vector<hsize_t> offset(1 + rowShape_.size(), 0), extent{0};
  extent.insert(extent.end(), rowShape_.begin(), rowShape_.end());
  for (hsize_t done = 0; done < count; done += chunkRows_) {
    const hsize_t n = std::min<hsize_t>(chunkRows_, count - done);
    toFileLayout(values.data() + done * rowSize_, n, rows.data());
    std::fill(rows.begin() + n * fileRowBytes_, rows.begin() + chunkBytes, 0);
    std::span<const std::uint8_t> compressed;
    try {
      compressed = encoder_.compressor.compress(rows.data(), chunkBytes);
    } catch (const std::runtime_error& e) {
      throw H5::DataSetIException("DeflateCompressor::compress", e.what());
    }
    offset[0] = first + done;
    extent[0] = offset[0] + n;
    dataset_.extend(extent.data());
    if (H5Dwrite_chunk(dataset_.getId(), H5P_DEFAULT, 0, offset.data(), compressed.size(),
                       compressed.data()) < 0) {
      throw H5::DataSetIException("H5Dwrite_chunk", "cannot store a compressed chunk");
    }
  }
}

template class Column<double>;
template class Column<std::int64_t>;
template class Column<std::int32_t>;
template class Column<StepRow>;
template class Column<StateRow>;
template class Column<ProblemRow>;
template class Column<BodyRow>;
template class Column<ProxyRow>;
template class Column<HullRow>;
template class Column<JointRow>;

}  // namespace hb::recording
