#pragma once
// Fingerprints for bit-identity checks: FNV-1a (64-bit) over raw bytes, and over a world's
// dynamics state. Two runs with equal state hashes ended in bit-identical states (up to the
// negligible chance of a collision); any difference in the last bit of a double changes the hash.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hb {

class World;

/// Incremental 64-bit FNV-1a.
class Fnv1a64 {
 public:
  void add(const void* data, std::size_t bytes);
  void add(std::string_view text) { add(text.data(), text.size()); }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;  // the FNV-1a 64-bit offset basis
};

/// FNV-1a over every body's position, orientation (x, y, z, w), linear and angular velocity, in
/// body order, as the bytes of the doubles.
std::uint64_t stateHash(const World& world);

/// 16 lower-case hex digits.
std::string hashHex(std::uint64_t hash);

}  // namespace hb
