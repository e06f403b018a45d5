#pragma once
// A little-endian byte stream for World snapshots (engine/world_snapshot.cpp). ByteWriter and
// ByteReader share one call shape, `archive(value)`, so that each structure lists its fields once
// (a `fields(archive, object)` template) for both directions. The reader throws SnapshotError on
// a stream that ends early, so a truncated snapshot is an error, never a partial state.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace hb {

static_assert(std::endian::native == std::endian::little,
              "snapshots are written little-endian, as the host stores numbers");

/// A snapshot that cannot be restored: truncated, of another format or another scene.
class SnapshotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ByteWriter {
 public:
  template <class T>
  requires std::is_arithmetic_v<T> || std::is_enum_v<T>
  void operator()(const T& value) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class Scalar, int Rows, int Cols, int Options>
  void operator()(const Eigen::Matrix<Scalar, Rows, Cols, Options, Rows, Cols>& m) {
    for (int i = 0; i < m.size(); ++i) (*this)(m.data()[i]);
  }
  void operator()(const Eigen::Quaterniond& q) { (*this)(q.coeffs()); }
  void operator()(const std::string& s) {
    (*this)(static_cast<std::uint64_t>(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  template <class T>
  void operator()(const std::optional<T>& value) {
    (*this)(value.has_value());
    if (value) (*this)(*value);
  }
  template <class T, std::size_t N>
  void operator()(const std::array<T, N>& values) {
    for (const T& v : values) (*this)(v);
  }
  template <class T>
  void operator()(const std::vector<T>& values) {
    (*this)(static_cast<std::uint64_t>(values.size()));
    for (const T& v : values) (*this)(v);
  }
  /// Any structure with a `fields(archive, object)` overload.
  template <class T>
  requires requires(ByteWriter& w, const T& t) { fields(w, t); }
  void operator()(const T& object) { fields(*this, object); }

  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<std::uint8_t> bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  template <class T>
  requires std::is_arithmetic_v<T> || std::is_enum_v<T>
  void operator()(T& value) { std::memcpy(&value, take(sizeof(T)), sizeof(T)); }
  void operator()(bool& value) {
    std::uint8_t b = 0;
    std::memcpy(&b, take(1), 1);
    if (b > 1) throw SnapshotError("snapshot: damaged (a flag is neither 0 nor 1)");
    value = b == 1;
  }
  template <class Scalar, int Rows, int Cols, int Options>
  void operator()(Eigen::Matrix<Scalar, Rows, Cols, Options, Rows, Cols>& m) {
    for (int i = 0; i < m.size(); ++i) (*this)(m.data()[i]);
  }
  void operator()(Eigen::Quaterniond& q) { (*this)(q.coeffs()); }
  void operator()(std::string& s) {
    const std::size_t n = count(1);
    const auto* p = reinterpret_cast<const char*>(take(n));
    s.assign(p, p + n);
  }
  template <class T>
  void operator()(std::optional<T>& value) {
    bool has = false;
    (*this)(has);
    if (!has) {
      value.reset();
      return;
    }
    value.emplace();
    (*this)(*value);
  }
  template <class T, std::size_t N>
  void operator()(std::array<T, N>& values) {
    for (T& v : values) (*this)(v);
  }
  template <class T>
  void operator()(std::vector<T>& values) {
    values.resize(count(1));
    for (T& v : values) (*this)(v);
  }
  template <class T>
  requires requires(ByteReader& r, T& t) { fields(r, t); }
  void operator()(T& object) { fields(*this, object); }

  bool atEnd() const { return position_ == bytes_.size(); }

 private:
  const std::uint8_t* take(std::size_t n) {
    if (n > bytes_.size() - position_) {
      throw SnapshotError("snapshot: truncated (it ends " +
                          std::to_string(n - (bytes_.size() - position_)) +
                          " bytes short of what it describes)");
    }
    const std::uint8_t* p = bytes_.data() + position_;
    position_ += n;
    return p;
  }
  /// A count of items of at least `itemBytes` each, checked against what is left.
  std::size_t count(std::size_t itemBytes) {
    std::uint64_t n = 0;
    (*this)(n);
    if (n > (bytes_.size() - position_) / itemBytes) {
      throw SnapshotError("snapshot: truncated (a list longer than the bytes left)");
    }
    return static_cast<std::size_t>(n);
  }

  std::span<const std::uint8_t> bytes_;
  std::size_t position_ = 0;
};

}  // namespace hb
