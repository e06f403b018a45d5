#include "engine/recording_column.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "engine/recording_layout.hpp"
#include "engine/recording_rows.hpp"

namespace hb::recording {
namespace {

// An empty, unlimited, chunked and compressed dataset with rows of `rowShape`.
H5::DataSet createExtendible(const H5::H5File& file, const char* path, const H5::DataType& type,
                             const std::vector<hsize_t>& rowShape, std::size_t rowBytes,
                             hsize_t chunkRows) {
  std::vector<hsize_t> dims{0}, maxDims{H5S_UNLIMITED}, chunk{chunkRows};
  for (hsize_t d : rowShape) {
    dims.push_back(d);
    maxDims.push_back(d);
    chunk.push_back(d);
  }
  const H5::DataSpace space(static_cast<int>(dims.size()), dims.data(), maxDims.data());
  H5::DSetCreatPropList create;
  create.setChunk(static_cast<int>(chunk.size()), chunk.data());
  create.setShuffle();
  create.setDeflate(kDeflateLevel);
  // Rows arrive in whole chunks except in small tables and at the end: a cache of two chunks
  // keeps a partly filled chunk in memory instead of reading it back, and bounds memory.
  H5::DSetAccPropList access;
  access.setChunkCache(101, 2 * chunkRows * rowBytes, 1.0);
  return file.createDataSet(path, type, space, create, access);
}

}  // namespace

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
Column<T>::Column(const H5::H5File& file, const char* path, const H5::DataType& memoryType,
                  const H5::DataType& fileType, std::vector<hsize_t> rowShape, hsize_t chunkRows)
    : memoryType_(memoryType),
      fileType_(fileType),
      rowShape_(std::move(rowShape)),
      chunkRows_(chunkRows) {
  for (hsize_t d : rowShape_) rowSize_ *= d;
  dataset_ =
      createExtendible(file, path, fileType, rowShape_, rowSize_ * fileType.getSize(), chunkRows);
  direct_ = fileType.getClass() == H5T_COMPOUND && rowSize_ == 1;
  buffer_.reserve(chunkRows * rowSize_);
}

template <class T>
std::function<void()> Column<T>::takeFullChunks() {
  return take(bufferedRows() / chunkRows_ * chunkRows_);
}

template <class T>
std::function<void()> Column<T>::takeAll() {
  return take(bufferedRows());
}

template <class T>
std::function<void()> Column<T>::take(hsize_t rowCount) {
  if (rowCount == 0) return {};
  const auto end = buffer_.begin() + static_cast<std::ptrdiff_t>(rowCount * rowSize_);
  auto values = std::make_shared<std::vector<T>>(buffer_.begin(), end);
  buffer_.erase(buffer_.begin(), end);
  const hsize_t first = taken_;
  taken_ += rowCount;
  return [this, values, first] { write(*values, first); };
}

template <class T>
void Column<T>::write(const std::vector<T>& values, hsize_t first) {
  if (direct_ && first % chunkRows_ == 0) {
    writeChunksDirectly(values, first);
    return;
  }
  const hsize_t count = values.size() / rowSize_;
  std::vector<hsize_t> dims{first + count}, start{first}, size{count};
  for (hsize_t d : rowShape_) {
    dims.push_back(d);
    start.push_back(0);
    size.push_back(d);
  }
  dataset_.extend(dims.data());
  H5::DataSpace fileSpace = dataset_.getSpace();
  fileSpace.selectHyperslab(H5S_SELECT_SET, size.data(), start.data());
  const H5::DataSpace memorySpace(static_cast<int>(size.size()), size.data());
  dataset_.write(values.data(), memoryType_, memorySpace, fileSpace);
}

// HDF5 compresses chunks holding its global lock, so recorders on several threads would
// compress one at a time. Chunks starting on a chunk boundary are instead converted to the
// file's row layout and put through the dataset's filters here, as HDF5 would (shuffle: byte k
// of every row together; deflate: a zlib stream), then stored as they are; a last, partial
// chunk is padded with zeros, the fill value.
template <class T>
void Column<T>::writeChunksDirectly(const std::vector<T>& values, hsize_t first) {
  const std::size_t fileRowBytes = fileType_.getSize();
  const std::size_t chunkBytes = chunkRows_ * fileRowBytes;
  std::vector<unsigned char> rows(chunkRows_ * std::max(fileRowBytes, sizeof(T)));
  std::vector<unsigned char> background(chunkBytes);  // compound conversion scratch
  std::vector<unsigned char> shuffled(chunkBytes);
  std::vector<Bytef> compressed(compressBound(chunkBytes));
  for (hsize_t done = 0; done < values.size(); done += chunkRows_) {
    const hsize_t n = std::min<hsize_t>(chunkRows_, values.size() - done);
    std::memcpy(rows.data(), values.data() + done, n * sizeof(T));
    if (H5Tconvert(memoryType_.getId(), fileType_.getId(), n, rows.data(), background.data(),
                   H5P_DEFAULT) < 0) {
      throw H5::DataTypeIException("H5Tconvert", "cannot convert rows to the file layout");
    }
    std::fill(rows.begin() + n * fileRowBytes, rows.begin() + chunkBytes, 0);
    for (std::size_t r = 0; r < chunkRows_; ++r) {
      for (std::size_t b = 0; b < fileRowBytes; ++b) {
        shuffled[b * chunkRows_ + r] = rows[r * fileRowBytes + b];
      }
    }
    uLongf compressedBytes = compressed.size();
    if (compress2(compressed.data(), &compressedBytes, shuffled.data(), chunkBytes,
                  kDeflateLevel) != Z_OK) {
      throw H5::DataSetIException("compress2", "deflate failed");
    }
    const hsize_t offset = first + done;
    const hsize_t extent = offset + n;
    dataset_.extend(&extent);
    if (H5Dwrite_chunk(dataset_.getId(), H5P_DEFAULT, 0, &offset, compressedBytes,
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

}  // namespace hb::recording
