"""Driving an experiment from Python: snapshots (restore then step equals step on, bit for bit),
reset, body states, forces, gravity, contacts and their impulses, solver settings, materials and
masses, with the analytic answers mechanics gives."""

import json
import os

import numpy as np
import pytest

import heavyball

G = 9.81
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUNNEL = os.path.join(ROOT, "assets", "scenes", "funnel.json")


def ground_scene(friction=0.8, **extra):
    scene = {"name": "control", "gravity": [0, 0, -G],
             "statics": [{"type": "ground", "height": 0.0,
                          "material": {"friction": friction}}]}
    scene.update(extra)
    return scene


def box(z, friction=0.8):
    return {"shape": {"type": "box", "half_extents": [0.1, 0.1, 0.05]}, "mass": 2.0,
            "pose": {"p": [0, 0, z]}, "material": {"friction": friction}}


def state(world):
    return np.concatenate([world.positions.ravel(), world.orientations.ravel(),
                           world.linear_velocities.ravel(), world.angular_velocities.ravel()])


def test_restore_then_step_equals_stepping_on_bit_for_bit():
    # The shipped funnel drops YCB objects as it steps: 500 steps with drops, then 300 more.
    world = heavyball.World(FUNNEL, threads=1)
    world.step(500)
    snapshot = world.save_state()
    bodies = world.body_count
    world.step(300)
    on = state(world)
    assert world.body_count > bodies  # drops since the snapshot
    world.restore_state(snapshot)
    assert world.step_count == 500 and world.body_count == bodies
    world.step(300)
    assert np.array_equal(state(world), on)
    # In a fresh world of the scene, on two workers.
    fresh = heavyball.World(FUNNEL, threads=2)
    fresh.restore_state(snapshot)
    fresh.step(300)
    assert np.array_equal(state(fresh), on)


def test_reset_goes_back_to_the_state_after_loading():
    world = heavyball.World(FUNNEL, threads=1)
    start = world.save_state()
    world.step(200)
    world.add_body(box(1.0))
    world.reset()
    assert world.step_count == 0 and world.save_state() == start
    world.step(100)
    fresh = heavyball.World(FUNNEL, threads=1)
    fresh.step(100)
    assert np.array_equal(state(world), state(fresh))


def test_bad_snapshots_are_value_errors_that_change_nothing():
    world = heavyball.World(ground_scene(bodies=[box(0.05)]))
    world.step(5)
    good = world.save_state()
    with pytest.raises(ValueError, match="truncated"):
        world.restore_state(good[: len(good) // 2])
    with pytest.raises(ValueError, match="not a heavyball snapshot"):
        world.restore_state(b"hello")
    other = heavyball.World(FUNNEL)
    with pytest.raises(ValueError, match="another scene"):
        world.restore_state(other.save_state())
    assert world.save_state() == good


def test_a_pose_set_with_gravity_off_is_kept():
    world = heavyball.World(ground_scene(bodies=[box(0.05)]))
    world.step(240)
    assert world.sleeping[1]
    world.gravity = [0, 0, 0]
    q = np.array([np.cos(0.3), 0, np.sin(0.3), 0])
    world.set_body_state(1, position=[0.2, 0.1, 1.5], orientation=q)
    assert not world.sleeping[1]
    world.step(120)
    assert np.array_equal(world.positions[1], [0.2, 0.1, 1.5])
    assert world.orientations[1] == pytest.approx(q, abs=1e-15)


def test_the_state_arrays_stay_read_only():
    world = heavyball.World(ground_scene(bodies=[box(0.05)]))
    with pytest.raises(ValueError):
        world.positions[0] = [1, 2, 3]


def test_bad_states_name_the_argument():
    world = heavyball.World(ground_scene(bodies=[box(0.05)]))
    before = world.save_state()
    with pytest.raises(ValueError, match="position"):
        world.set_body_state(1, position=[0, float("nan"), 0])
    with pytest.raises(ValueError, match="orientation"):
        world.set_body_state(1, orientation=[1, 0.01, 0, 0])
    with pytest.raises(ValueError, match="linear_velocity"):
        world.set_body_state(1, linear_velocity=[1e9, 0, 0])
    with pytest.raises(ValueError, match="static"):
        world.set_body_state(0, position=[0, 0, 1])
    with pytest.raises(IndexError, match="body 5"):
        world.set_body_state(5, position=[0, 0, 1])
    with pytest.raises(ValueError, match="static"):
        world.apply_impulse(0, [0, 0, 0], [1, 0, 0])
    assert world.save_state() == before


def test_set_states_is_all_or_nothing():
    world = heavyball.World(ground_scene(gravity=[0, 0, 0], bodies=[box(1.0), box(2.0)]))
    before = world.save_state()
    with pytest.raises(ValueError, match="shape"):
        world.set_states([1, 2], positions=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="position"):
        world.set_states([1, 2], positions=[[0, 0, 3.0], [0, 0, float("inf")]])
    assert world.save_state() == before
    world.set_states([1, 2], positions=[[0, 0, 3.0], [0, 1, 3.0]],
                     linear_velocities=[[1, 0, 0], [0, 0, 1]])
    assert np.array_equal(world.positions[1:], [[0, 0, 3.0], [0, 1, 3.0]])
    assert np.array_equal(world.linear_velocities[1:], [[1, 0, 0], [0, 0, 1]])


def test_a_held_horizontal_force_on_frictionless_ground_gives_f_over_m():
    world = heavyball.World(ground_scene(friction=0.0, bodies=[box(0.05, friction=0.0)]))
    world.step(60)
    v0 = world.linear_velocities[1].copy()
    force = np.array([3.0, -1.5, 0.0])
    world.set_external_force(1, force)
    n = 240
    world.step(n)
    dv = world.linear_velocities[1] - v0
    expected = n * world.dt * force / 2.0
    assert np.abs(dv[:2] - expected[:2]).max() <= 1e-9 * np.linalg.norm(expected)
    world.set_external_force(1, [0, 0, 0])
    v1 = world.linear_velocities[1].copy()
    world.step(10)
    assert world.linear_velocities[1][:2] == pytest.approx(v1[:2], abs=1e-12)


def test_a_force_for_one_step_and_a_torque_act_once():
    world = heavyball.World(ground_scene(gravity=[0, 0, 0], bodies=[box(1.0)]))
    world.apply_force(1, [0, 0, 4.0])
    world.apply_torque(1, [0, 0, 0.1])
    world.step(5)
    assert world.linear_velocities[1][2] == pytest.approx(world.dt * 4.0 / 2.0, rel=1e-12)
    iz = 2.0 * (0.2 ** 2 + 0.2 ** 2) / 12
    assert world.angular_velocities[1][2] == pytest.approx(world.dt * 0.1 / iz, rel=1e-9)


def test_a_resting_box_takes_its_weight_from_the_ground():
    world = heavyball.World(ground_scene(bodies=[box(0.05)], solver={"sleeping": False}))
    world.step(240)
    weight = 2.0 * G * world.dt
    for _ in range(5):
        world.step()
        assert world.last_step["substeps"] == 1
        c = world.contacts()
        n = len(c["distance"])
        assert n >= 3
        assert set(c["body_a"]) | set(c["body_b"]) == {0, 1}
        assert c["position"].shape == (n, 3) and c["friction_impulse"].shape == (n, 3)
        assert np.allclose(np.linalg.norm(c["normal"], axis=1), 1.0)
        assert c["normal_impulse"].sum() == pytest.approx(weight, rel=1e-3)
        total = world.body_contact_impulse(1)
        assert total[2] == pytest.approx(weight, rel=1e-3)
        assert abs(total[0]) + abs(total[1]) < 1e-6 * weight
        assert np.all(c["distance"] > -1e-3)


def test_changing_gravity_between_steps():
    world = heavyball.World(ground_scene(bodies=[box(1.0)]))
    world.step(2)
    gain = world.energy_gain
    world.gravity = [0, 0, -20.0]
    assert world.gravity == pytest.approx([0, 0, -20.0])
    assert world.energy_gain == pytest.approx(gain, abs=1e-9)
    vz = world.linear_velocities[1][2]
    world.step()
    assert world.linear_velocities[1][2] - vz == pytest.approx(-20.0 * world.dt, rel=1e-12)


def test_solver_settings_read_and_write_with_the_scene_file_checks():
    world = heavyball.World(ground_scene(bodies=[box(0.05)]))
    assert world.solver["velocity_iterations"] == 30
    assert "warm_start" in world.solver and len(world.solver) == len(world.solver.to_dict())
    world.solver["warm_start"] = "obb"
    world.solver.update({"gjk_variant": "polyak", "velocity_iterations": 12})
    assert world.solver["warm_start"] == "obb" and world.solver["velocity_iterations"] == 12
    with pytest.raises(ValueError, match="solver.velocity_iterations"):
        world.solver["velocity_iterations"] = 0
    with pytest.raises(ValueError, match="warm_start"):
        world.solver.update({"gjk_variant": "gjk", "warm_start": "sideways"})
    assert world.solver["gjk_variant"] == "polyak"  # nothing of a refused update applied
    with pytest.raises(KeyError, match="no such setting"):
        world.solver["iterations"] = 3
    assert "SolverSettings" in repr(world.solver)
    world.step(10)


def test_materials_and_masses_take_effect():
    def slide(friction):
        world = heavyball.World(ground_scene(friction=0.0, bodies=[box(0.05, friction=0.0)]))
        world.step(10)
        world.set_material(0, friction=friction)
        world.set_material(1, friction=friction)
        world.set_body_state(1, linear_velocity=[1.0, 0, 0])
        world.step(240)
        return world.positions[1][0]
    # 1 m/s stops after v^2 / (2 mu g) = 0.102 m at mu = 0.5.
    assert slide(0.5) == pytest.approx(0.102, abs=0.01)
    assert slide(0.0) == pytest.approx(2.0, abs=0.01)
    world = heavyball.World(ground_scene(gravity=[0, 0, 0], bodies=[box(1.0)]))
    world.set_mass(1, 8.0)
    world.apply_impulse(1, world.positions[1], [4.0, 0, 0])
    assert world.linear_velocities[1][0] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="mass"):
        world.set_mass(1, -1.0)
    with pytest.raises(ValueError, match="restitution"):
        world.set_material(1, restitution=2.0)


def test_a_world_from_json_text_and_its_repr():
    world = heavyball.World.from_json(json.dumps(ground_scene(bodies=[box(0.05)])))
    assert world.body_count == 2
    assert "heavyball.World 'control': 2 bodies" in repr(world)


def test_remove_body_moves_the_later_bodies_down():
    world = heavyball.World(ground_scene(bodies=[
        box(0.3), {"shape": {"type": "sphere", "radius": 0.05}, "pose": {"p": [1, 0, 0.3]}}]))
    world.step(10)
    world.remove_body(1)
    assert world.body_count == 2 and world.names[1] == "sphere"
    assert len(world.contacts()["distance"]) == 0
    world.step(60)
    assert world.positions[1][2] == pytest.approx(0.05, abs=2e-3)
    with pytest.raises(ValueError, match="static"):
        world.remove_body(0)
    with pytest.raises(IndexError):
        world.remove_body(2)


def test_the_shipped_assets_are_found_from_the_module(tmp_path, monkeypatch):
    data = heavyball.data_dir()
    assert (data / "assets" / "scenes").is_dir()
    assets = heavyball.assets()
    assert "025_mug" in assets and len(assets) >= 20
    assert all(entry["mesh"].is_file() for entry in assets.values())
    assert assets["025_mug"]["parts"].is_file()
    # A scene dict without asset_dir finds them by name, from any folder.
    monkeypatch.chdir(tmp_path)
    world = heavyball.World(ground_scene(bodies=[{"asset": "025_mug", "pose": {"p": [0, 0, 0.1]}}]))
    world.add_body({"asset": "003_cracker_box", "collision": "parts", "pose": {"p": [0.3, 0, 0.2]}})
    assert world.names == ["static", "025_mug", "003_cracker_box"]
    world.step(30)
    assert not world.non_finite


def test_add_body_paths_are_relative_to_the_current_folder(tmp_path, monkeypatch):
    cube = "\n".join(f"v {x} {y} {z}" for x in (-0.05, 0.05) for y in (-0.05, 0.05)
                     for z in (-0.05, 0.05)) + "\nf 1 2 3\n"
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "cube.obj").write_text(cube)
    monkeypatch.chdir(tmp_path)
    # The scene file lives elsewhere; the body's path is the current folder's, as query's are.
    world = heavyball.World(FUNNEL)
    body = {"shape": {"type": "mesh", "path": "meshes/cube.obj"}, "pose": {"p": [0, 0, 1]}}
    index = world.add_body(body)
    assert world.names[index] == "mesh"
    elsewhere = tmp_path / "meshes"
    monkeypatch.chdir(elsewhere)
    with pytest.raises(ValueError, match="cube.obj"):
        world.add_body(body)
    assert world.add_body(body, base_dir=tmp_path) == index + 1
    # A path that resolved against the scene's folder before names the way to keep doing so.
    with pytest.raises(ValueError, match="base_dir=.*scenes"):
        world.add_body({"shape": {"type": "mesh", "path": "../ycb/025_mug/textured.obj"}})


def test_a_shipped_asset_by_type_and_name():
    world = heavyball.World(ground_scene())
    i = world.add_body({"type": "asset", "name": "025_mug", "collision": "parts",
                        "pose": {"p": [0, 0, 0.1]}})
    j = world.add_body({"asset": "025_mug", "collision": "parts", "pose": {"p": [0.3, 0, 0.1]}})
    assert world.names[i] == world.names[j] == "025_mug"
    with pytest.raises(ValueError, match="body.name"):
        world.add_body({"type": "asset", "pose": {"p": [0, 0, 0.1]}})


def test_non_finite_numbers_are_named_where_they_are():
    nan = float("nan")
    with pytest.raises(ValueError, match=r"bodies\[0\].pose.p\[1\]: not a finite number"):
        heavyball.World(ground_scene(bodies=[{**box(0.05), "pose": {"p": [0, nan, 0.05]}}]))
    world = heavyball.World(ground_scene())
    with pytest.raises(ValueError, match=r"body.pose.p\[2\]: not a finite number"):
        world.add_body({**box(0.05), "pose": {"p": [0, 0, float("inf")]}})
    with pytest.raises(ValueError, match=r"pose_a.p\[0\]: not a finite number"):
        heavyball.query({"a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1},
                         "pose_a": {"p": [nan, 0, 0]}})
    world.add_body(box(0.05))
    with pytest.raises(ValueError, match="position.*finite"):
        world.set_body_state(1, position=[nan, 0, 0])
