"""heavyball.Renderer against the camera's geometry: a non-blank picture, ground depths that match
the rays through the pixels, body indices where the bodies are, and each scene framed on its
contents by default."""

import math

import numpy as np
import pytest

import heavyball

pytestmark = pytest.mark.skipif(not hasattr(heavyball, "Renderer"),
                                reason="built without offscreen rendering (EGL, the viewer's "
                                       "libraries)")

CAMERA = {"target": [0.0, 0.0, 0.1], "distance": 2.0, "yaw": -math.pi / 2, "pitch": 0.25}


def boxes_on_the_ground():
    world = heavyball.World({
        "name": "render", "gravity": [0, 0, -9.81],
        "statics": [{"type": "ground", "height": 0.0}],
        "bodies": [{"shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]},
                    "pose": {"p": [-0.3, 0.0, 0.1]}},
                   {"shape": {"type": "sphere", "radius": 0.12},
                    "pose": {"p": [0.3, 0.1, 0.12]}}]})
    world.step(10)
    return world


def test_a_picture_depth_and_body_indices_that_match_the_geometry():
    world = boxes_on_the_ground()
    renderer = heavyball.Renderer(world, 160, 120)
    image = renderer.render(camera=CAMERA)
    assert image.shape == (120, 160, 3) and image.dtype == np.uint8
    assert image.std() > 10  # not blank
    depth, ids = renderer.depth(), renderer.segmentation()
    assert depth.shape == (120, 160) and depth.dtype == np.float32
    assert ids.shape == (120, 160) and ids.dtype == np.int32
    assert set(np.unique(ids)) == {-1, 0, 1, 2}

    # Ground pixels within 5 m (further out a depth buffer's resolution is coarser than 1 mm):
    # the ray through the pixel centre meets z = 0 at the depth given.
    rays = renderer.rays(camera=CAMERA)
    eye, forward, directions = (np.array(rays["position"]), np.array(rays["forward"]),
                                rays["directions"])
    with np.errstate(divide="ignore"):
        t = -eye[2] / directions[..., 2]
    expected = t * (directions @ forward)
    ground = (ids == 0) & (expected < 5.0)
    assert ground.sum() > 1000
    assert np.abs(depth[ground] - expected[ground]).max() < 1e-3
    assert np.all(np.isinf(depth[ids == -1]))

    # Each body shows where the ray towards its centre points, with its index.
    for body in (1, 2):
        towards = world.positions[body] - eye
        towards /= np.linalg.norm(towards)
        y, x = np.unravel_index(np.argmax(directions @ towards), ids.shape)
        assert ids[y, x] == body
        assert depth[y, x] < np.linalg.norm(world.positions[body] - eye) * (towards @ forward)


def test_a_renderer_draws_frame_after_frame_and_refuses_bad_input():
    world = boxes_on_the_ground()
    renderer = heavyball.Renderer(world, 64, 48)
    assert repr(renderer) == "<heavyball.Renderer 64x48, nothing rendered yet>"
    with pytest.raises(ValueError, match="render"):
        renderer.depth()
    frames = []
    for _ in range(3):
        world.set_body_state(2, position=[0.3, 0.1, 0.5])
        frames.append(renderer.render())
        world.step(5)
    assert all(f.shape == (48, 64, 3) for f in frames)
    assert set(renderer.camera) == {"target", "distance", "yaw", "pitch"}
    with pytest.raises(KeyError, match="fov"):
        renderer.render(camera={"fov": 1.0})
    with pytest.raises(ValueError, match="distance"):
        renderer.render(camera={"distance": -1.0})
    with pytest.raises(ValueError, match="width"):
        heavyball.Renderer(world, 0, 10)


@pytest.mark.parametrize("scene", ["stack", "chain", "bowl-and-mug", "pyramid-20", "pile-640"])
def test_each_scene_opens_framed_on_what_it_holds(source_dir, scene):
    # The default camera is the viewer's opening view: the bodies in the middle of the picture,
    # large enough to see and whole (the piles' 800 m floor box does not count).
    world = heavyball.World(str(source_dir / "assets" / "scenes" / f"{scene}.json"))
    renderer = heavyball.Renderer(world, 160, 120)
    renderer.render()
    ys, xs = np.nonzero(renderer.segmentation() >= 1)
    assert len(xs) > 0.01 * 160 * 120, scene
    centre = ((xs.min() + xs.max()) / 2 / 160, (ys.min() + ys.max()) / 2 / 120)
    assert abs(centre[0] - 0.5) < 0.15 and abs(centre[1] - 0.5) < 0.15, (scene, centre)
    size = max((xs.max() - xs.min() + 1) / 160, (ys.max() - ys.min() + 1) / 120)
    assert size > 0.3, (scene, size)
    assert xs.min() > 0 and ys.min() > 0 and xs.max() < 159 and ys.max() < 119, scene
