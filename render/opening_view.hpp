#pragma once
// The view a scene opens with, in the viewer and in offscreen images: a funnel scene framed on
// the funnel and the pile under it, any other on what it holds (SceneRenderer::contentCenter).

#include "engine/scene.hpp"
#include "render/orbit_camera.hpp"
#include "render/scene_renderer.hpp"

namespace hb {

/// `renderer` has been given the world of `scene` (SceneRenderer::setWorld).
OrbitView openingView(const SceneDescription& scene, const SceneRenderer& renderer);

}  // namespace hb
