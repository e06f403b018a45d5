#include "render/opening_view.hpp"

#include <algorithm>
#include <cmath>

namespace hb {

OrbitView openingView(const SceneDescription& scene, const SceneRenderer& renderer) {
  OrbitView view;
  view.yaw = -1.15;
  view.pitch = 0.42;
  const auto funnel = std::find_if(scene.statics.begin(), scene.statics.end(), [](const auto& s) {
    return s.kind == StaticDescription::Kind::Funnel;
  });
  if (funnel != scene.statics.end()) {
    // The funnel and the pile under it (the rain above it would make it small).
    const FunnelDescription& f = funnel->funnel;
    const double top = f.bottomZ + f.height;
    view.target = {0.0, 0.0, 0.45 * top};
    const double radius = std::max(0.6 * top, 1.5 * f.topRadius);
    view.distance = 1.3 * radius / std::sin(0.5 * OrbitCamera::kFovY);
  } else {
    view.target = renderer.contentCenter();
    view.distance = 1.1 * renderer.contentRadius() / std::sin(0.5 * OrbitCamera::kFovY);
  }
  return view;
}

}  // namespace hb
