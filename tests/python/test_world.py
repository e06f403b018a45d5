"""heavyball.World against mechanics with analytic answers, the scene loader's messages, and
its recordings read back with h5py."""

import json
import math
import os
import signal
import threading

import h5py
import numpy as np
import pytest

import heavyball

G = 9.81


def ground_scene(**extra):
    scene = {"name": "py", "gravity": [0, 0, -G], "statics": [{"type": "ground", "height": 0.0}]}
    scene.update(extra)
    return scene


def test_free_fall_follows_the_integrator_exactly():
    # Semi-implicit Euler: v_n = -g n dt, z_n = z0 - g dt^2 n (n + 1) / 2, before the ground.
    world = heavyball.World(ground_scene(bodies=[
        {"shape": {"type": "sphere", "radius": 0.05}, "pose": {"p": [0, 0, 2.0]}}]))
    assert world.body_count == 2 and world.static[0] and not world.static[1]
    n = 30
    world.step(n)
    dt = world.dt
    assert world.step_count == n
    assert world.time == pytest.approx(n * dt)
    assert world.positions[1, 2] == pytest.approx(2.0 - G * dt * dt * n * (n + 1) / 2, abs=1e-12)
    assert world.linear_velocities[1] == pytest.approx([0, 0, -G * n * dt], abs=1e-12)
    assert world.orientations.shape == (2, 4)
    assert world.orientations[1] == pytest.approx([1, 0, 0, 0])


def test_an_impulse_changes_momentum_by_itself():
    world = heavyball.World(ground_scene(gravity=[0, 0, 0], bodies=[
        {"shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]}, "mass": 2.0,
         "pose": {"p": [0, 0, 1.0]}}]))
    # Through the centre: pure translation, dv = J / m.
    world.apply_impulse(1, [0, 0, 1.0], [0.4, 0, 0])
    assert world.linear_velocities[1] == pytest.approx([0.2, 0, 0])
    assert world.angular_velocities[1] == pytest.approx([0, 0, 0])
    # Off the centre: dw = I^-1 (r x J), I = m (2 h)^2 / 6 for a cube.
    world.apply_impulse(1, [0, 0.1, 1.0], [0, 0, 0.3])
    inertia = 2.0 * 0.2 ** 2 / 6
    assert world.angular_velocities[1] == pytest.approx([0.1 * 0.3 / inertia, 0, 0])
    with pytest.raises(IndexError, match="body 7"):
        world.apply_impulse(7, [0, 0, 0], [1, 0, 0])


def test_a_dropped_box_comes_to_rest_on_the_ground():
    world = heavyball.World(ground_scene())
    body = world.add_body({"shape": {"type": "box", "half_extents": [0.1, 0.1, 0.05]},
                           "pose": {"p": [0, 0, 0.3]}})
    assert body == 1
    world.step(240)
    assert world.positions[1, 2] == pytest.approx(0.05, abs=1e-3)
    assert np.linalg.norm(world.linear_velocities[1]) < 1e-3
    stats = world.last_step
    assert stats["step"] == 239 and stats["bodies"] == 1  # steps from 0, dynamic bodies
    assert set(stats["stage_ms"]) >= {"collide", "solve", "integrate"}
    assert stats["substeps"] == 1  # at rest: nothing turns, the step stays whole
    assert not world.non_finite and world.escaped_bodies == 0


def test_a_fast_spin_on_the_ground_splits_the_step():
    world = heavyball.World(ground_scene())
    world.add_body({"shape": {"type": "box", "half_extents": [0.1, 0.05, 0.02]},
                    "pose": {"p": [0, 0, 0.02]}, "angular_velocity": [0, 0, 80]})
    world.step()
    assert world.last_step["substeps"] == 4  # 80 rad/s turns 0.67 rad a step: pi/16 a substep
    assert world.last_step["split_bodies"] == 1  # its island: the box alone
    assert list(world.body_substeps) == [0, 4]  # the ground is static
    assert world.last_step["held_contacts"] == 0
    assert world.last_step["limited_bodies"] == 0
    assert world.last_step["impact_pairs"] == 0  # touching from the start
    # Swept against the ground, the spin about the normal closes no gap: nothing stalls.
    assert world.last_step["swept_back"] == 0 and world.last_step["stalled_sweeps"] == 0


@pytest.mark.parametrize("spin", [150.0, 1e5])
def test_a_free_body_keeps_its_spin_at_any_speed(spin):
    world = heavyball.World({"gravity": [0, 0, 0], "bodies": [
        {"shape": {"type": "box", "half_extents": [0.05, 0.1, 0.15]}, "pose": {"p": [0, 0, 1]},
         "angular_velocity": [spin, 0, 0]}]})
    world.step(10)
    assert world.angular_velocities[1, 0] == pytest.approx(spin, rel=1e-12)
    assert world.last_step["limited_bodies"] == 0


def test_spins_and_impulses_beyond_the_range_are_refused():
    with pytest.raises(ValueError, match="at most 10000 m/s and 100000 rad/s"):
        heavyball.World({"bodies": [{"shape": {"type": "sphere", "radius": 0.1},
                                     "angular_velocity": [3.75e301, 0, 0]}]})
    world = heavyball.World(ground_scene())
    world.add_body({"shape": {"type": "sphere", "radius": 0.1}, "pose": {"p": [0, 0, 1]}})
    for impulse in ([math.nan, 0, 0], [math.inf, 0, 0], [1e300, 0, 0]):
        with pytest.raises(ValueError, match="applyImpulse on body 1"):
            world.apply_impulse(1, [0, 0, 1], impulse)
    assert np.all(world.linear_velocities[1] == 0)  # left as it was
    with pytest.raises(ValueError, match="static body"):
        world.apply_impulse(0, [0, 0, 0], [1, 0, 0])
    world.step()
    assert not world.non_finite


def test_the_state_arrays_are_read_only_and_say_so():
    world = heavyball.World(ground_scene())
    world.add_body({"shape": {"type": "sphere", "radius": 0.1}, "pose": {"p": [0, 0, 1]}})
    for name in ("positions", "orientations", "linear_velocities", "angular_velocities",
                 "sleeping", "static"):
        array = getattr(world, name)
        assert not array.flags.writeable, name
        with pytest.raises(ValueError, match="read-only"):
            array[1] = 0
    assert world.positions[1, 2] == 1.0  # unchanged


def test_coincident_bodies_stop_at_the_pair_limit():
    ball = {"shape": {"type": "sphere", "radius": 0.1}, "pose": {"p": [0, 0, 1]}}
    world = heavyball.World({"statics": [{"type": "ground"}], "bodies": [ball] * 1000})
    with pytest.raises(RuntimeError, match=r"499500 candidate pairs .*max_pairs_per_piece \(64\)"):
        world.step()
    assert np.all(world.positions[1:] == [0, 0, 1])  # left as it was


def test_ctrl_c_stops_a_long_step_between_two_steps(source_dir):
    world = heavyball.World(str(source_dir / "assets/scenes/funnel.json"))
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        world.step(10**7)
    timer.join()
    stopped = world.last_step["step"]
    assert 0 < stopped < 10**7
    world.step()  # the world goes on from a whole step
    assert world.last_step["step"] == stopped + 1 and not world.non_finite


def test_scene_errors_keep_the_loaders_message(source_dir, tmp_path):
    with pytest.raises(ValueError, match="colour"):
        heavyball.World(ground_scene(colour="red"))
    with pytest.raises(ValueError, match=r"bodies\[0\].shape.radius"):
        heavyball.World(ground_scene(bodies=[{"shape": {"type": "sphere", "radius": -1}}]))
    with pytest.raises(ValueError, match="missing.json: no such file"):
        heavyball.World(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="/dev/zero: not a regular file"):
        heavyball.World("/dev/zero")  # refused, not read until memory runs out
    world = heavyball.World(ground_scene())
    with pytest.raises(ValueError, match="body.mass"):
        world.add_body({"shape": {"type": "sphere", "radius": 0.1}, "mass": "heavy"})


def test_the_shipped_funnel_runs_and_records(source_dir, tmp_path):
    world = heavyball.World(source_dir / "assets/scenes/funnel-pair.json")
    out = tmp_path / "run.h5"
    world.record(out)
    world.step(60)
    world.stop_recording()
    with pytest.raises(ValueError, match="overwrite=True"):
        world.record(out)
    with h5py.File(out, "r") as f:
        assert f.attrs["scene_name"].decode() == "funnel-pair"
        steps = f["steps"][:]
        # The state when recording started, then one row per step.
        assert len(steps) == 61
        last = steps[-1]
        positions = f["states"]["position"][last["state_begin"]:last["state_begin"] + last["body_count"]]
        assert np.array_equal(positions, world.positions[:last["body_count"]])
    # The names come from the assets.
    assert all(isinstance(n, str) for n in world.names)


def test_every_thread_count_gives_the_same_bits(source_dir):
    scene = source_dir / "assets/scenes/pile-640.json"
    worlds = [heavyball.World(scene, threads=n) for n in (1, 2, 3)]
    assert [w.threads for w in worlds] == [1, 2, 3]
    for w in worlds:
        w.step(30)
    for w in worlds[1:]:
        for name in ("positions", "orientations", "linear_velocities", "angular_velocities"):
            assert np.array_equal(getattr(w, name), getattr(worlds[0], name)), name
    assert heavyball.World(scene).threads >= 1  # default: one per core
    worlds[0].threads = 2
    assert worlds[0].threads == 2
    with pytest.raises(ValueError, match="threads"):
        worlds[0].threads = -1
