#include "engine/state_hash.hpp"

#include <cstdio>

#include "engine/world.hpp"

namespace hb {

void Fnv1a64::add(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    hash_ ^= p[i];
    hash_ *= 0x100000001b3ull;  // the FNV 64-bit prime
  }
}

std::uint64_t stateHash(const World& world) {
  Fnv1a64 h;
  for (const RigidBody& b : world.rigidBodies()) {
    h.add(b.position.data(), 3 * sizeof(double));
    h.add(b.orientation.coeffs().data(), 4 * sizeof(double));
    h.add(b.linearVelocity.data(), 3 * sizeof(double));
    h.add(b.angularVelocity.data(), 3 * sizeof(double));
  }
  return h.value();
}

std::string hashHex(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace hb
