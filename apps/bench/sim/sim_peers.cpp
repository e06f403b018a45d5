// Which other engines this build has, and why the others are missing.

#include <stdexcept>
#include <string>

#include "apps/bench/sim/sim_peer.hpp"

// Set by apps/CMakeLists.txt when a library is not found: the reason shown in the table.
#ifndef HB_BULLET_SIM_MISSING
#define HB_BULLET_SIM_MISSING "not configured"
#endif
#ifndef HB_MUJOCO_SIM_MISSING
#define HB_MUJOCO_SIM_MISSING "not configured"
#endif

namespace hb::sim {

std::vector<std::string> simPeerNames() {
  return {"bullet", "mujoco", "mujoco-implicit"};
}

std::optional<std::string> simPeerUnavailable(std::string_view name) {
  if (name == "bullet") {
#ifdef HB_HAVE_BULLET_SIM
    return std::nullopt;
#else
    return std::string(HB_BULLET_SIM_MISSING);
#endif
  }
  if (name == "mujoco" || name == "mujoco-implicit") {
#ifdef HB_HAVE_MUJOCO_SIM
    return std::nullopt;
#else
    return std::string(HB_MUJOCO_SIM_MISSING);
#endif
  }
  std::string known;
  for (const std::string& n : simPeerNames()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown engine '" + std::string(name) + "' (known: " + known + ")");
}

std::unique_ptr<SimPeer> makeSimPeer(std::string_view name, const SimScene& scene) {
  if (const auto missing = simPeerUnavailable(name)) {
    throw std::invalid_argument("engine '" + std::string(name) + "' is not built: " + *missing);
  }
#ifdef HB_HAVE_BULLET_SIM
  if (name == "bullet") return makeBulletSim(scene);
#endif
#ifdef HB_HAVE_MUJOCO_SIM
  if (name == "mujoco") return makeMujocoSim(scene, MujocoIntegrator::Euler);
  if (name == "mujoco-implicit") return makeMujocoSim(scene, MujocoIntegrator::Implicit);
#endif
  (void)scene;
  throw std::logic_error("engine '" + std::string(name) + "' is built but has no factory");
}

}  // namespace hb::sim
