"""heavyball.query and heavyball.query_batch against analytic answers and the command line."""

import json
import math
import subprocess

import numpy as np
import pytest

import heavyball


def random_unit_quaternion(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def random_shape(rng, mesh_path):
    kind = rng.integers(0, 7)
    if kind == 0:
        return {"type": "sphere", "radius": float(rng.uniform(0.01, 0.2))}
    if kind == 1:
        return {"type": "box", "half_extents": rng.uniform(0.01, 0.2, 3).tolist()}
    if kind == 2:
        return {"type": "capsule", "radius": float(rng.uniform(0.01, 0.1)),
                "half_length": float(rng.uniform(0.01, 0.2))}
    if kind == 3:
        return {"type": "cylinder", "radius": float(rng.uniform(0.01, 0.1)),
                "half_length": float(rng.uniform(0.01, 0.2))}
    if kind == 4:
        return {"type": "cone", "radius": float(rng.uniform(0.01, 0.1)),
                "half_length": float(rng.uniform(0.01, 0.2))}
    if kind == 5:
        return {"type": "ellipsoid", "radii": rng.uniform(0.01, 0.2, 3).tolist()}
    return {"type": "mesh", "path": mesh_path}


def random_problems(count, seed, mesh_path):
    rng = np.random.default_rng(seed)
    variants = ["gjk", "polyak", "nesterov", "auto"]
    problems = []
    for i in range(count):
        problems.append({
            "id": i,
            "a": random_shape(rng, mesh_path),
            "pose_a": {"p": rng.uniform(-0.1, 0.1, 3).tolist(), "q": random_unit_quaternion(rng).tolist()},
            "b": random_shape(rng, mesh_path),
            "pose_b": {"p": rng.uniform(-0.4, 0.4, 3).tolist(), "q": random_unit_quaternion(rng).tolist()},
            "variant": variants[i % len(variants)],
        })
    return problems


def test_separated_spheres_have_the_analytic_distance():
    answer = heavyball.query({
        "a": {"type": "sphere", "radius": 0.5},
        "b": {"type": "sphere", "radius": 0.25}, "pose_b": {"p": [2.0, 0, 0]}, "id": "s"})
    assert answer["id"] == "s"
    assert answer["collide"] is False
    assert answer["distance"] == pytest.approx(1.25, abs=1e-9)
    assert answer["normal"] == pytest.approx([1, 0, 0], abs=1e-9)
    assert answer["status"] == "separated"
    # Vectors come as numpy arrays, as query_batch's do.
    for key in ("normal", "witness_a", "witness_b"):
        assert isinstance(answer[key], np.ndarray) and answer[key].shape == (3,)


def test_overlapping_boxes_have_the_analytic_depth():
    answer = heavyball.query({
        "a": {"type": "box", "half_extents": [0.1, 0.1, 0.1]},
        "b": {"type": "box", "half_extents": [0.1, 0.1, 0.1]}, "pose_b": {"p": [0.15, 0, 0]}})
    assert answer["collide"] is True
    assert answer["distance"] == pytest.approx(-0.05, abs=1e-9)
    assert answer["epa_status"]


def test_answers_match_the_command_line_on_random_problems(cli, source_dir, tmp_path):
    mesh = str(source_dir / "assets/ycb/025_mug/textured.obj")
    problems = random_problems(300, seed=7, mesh_path=mesh)
    lines = tmp_path / "problems.jsonl"
    lines.write_text("".join(json.dumps(p) + "\n" for p in problems))
    run = subprocess.run([cli, "query", "--input", str(lines)], capture_output=True, text=True,
                         check=True)
    from_cli = [json.loads(line) for line in run.stdout.splitlines()]
    from_python = heavyball.query(problems)
    assert len(from_cli) == len(from_python) == len(problems)
    for cli_answer, python_answer in zip(from_cli, from_python):
        cli_answer.pop("line")
        # The same code on the same numbers: identical, not merely close.
        as_json = {k: v.tolist() if isinstance(v, np.ndarray) else v
                   for k, v in python_answer.items()}
        assert as_json == cli_answer


def test_errors_carry_the_command_lines_message(cli, tmp_path):
    bad = {"a": {"type": "box", "half_extents": [0.1, 0.1]}, "b": {"type": "sphere", "radius": 1}}
    lines = tmp_path / "bad.jsonl"
    lines.write_text(json.dumps(bad) + "\n")
    run = subprocess.run([cli, "query", "--input", str(lines)], capture_output=True, text=True)
    cli_error = json.loads(run.stdout)["error"]
    with pytest.raises(ValueError) as single:
        heavyball.query(bad)
    assert str(single.value) == cli_error
    good = {"a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1}}
    with pytest.raises(ValueError) as listed:
        heavyball.query([good, bad])
    assert str(listed.value) == "problems[1]: " + cli_error
    with pytest.raises(ValueError, match="unknown key"):
        heavyball.query({"a": good["a"], "b": good["b"], "colour": "red"})
    with pytest.raises(TypeError, match="a.radius"):
        heavyball.query({"a": {"type": "sphere", "radius": object()}, "b": good["b"]})


def test_batch_equals_one_query_per_pose(source_dir):
    rng = np.random.default_rng(11)
    n = 400
    a = {"type": "mesh", "path": str(source_dir / "assets/ycb/013_apple/textured.obj")}
    b = {"type": "box", "half_extents": [0.05, 0.03, 0.02]}
    positions_b = rng.uniform(-0.15, 0.15, (n, 3))
    quaternions_b = np.array([random_unit_quaternion(rng) for _ in range(n)])
    batch = heavyball.query_batch(a, b, np.zeros(3), np.array([1.0, 0, 0, 0]), positions_b,
                                  quaternions_b, variant="nesterov")
    assert batch["distance"].shape == (n,)
    assert batch["normal"].shape == (n, 3)
    assert batch["ok"].all()
    singles = heavyball.query([
        {"a": a, "b": b, "pose_b": {"p": positions_b[i].tolist(), "q": quaternions_b[i].tolist()},
         "variant": "nesterov"} for i in range(n)])
    for i, s in enumerate(singles):
        assert batch["collide"][i] == s["collide"]
        assert batch["distance"][i] == pytest.approx(s["distance"], abs=1e-12)
        assert batch["witness_a"][i] == pytest.approx(s["witness_a"], abs=1e-12)
        assert batch["iterations"][i] == s["iterations"]
        assert batch["status"][i] == s["status"]
    # Overlapping and separated cases both occur, with consistent witnesses.
    assert 0 < batch["collide"].sum() < n
    gap = batch["witness_b"] - batch["witness_a"]
    assert np.allclose(gap, batch["distance"][:, None] * batch["normal"], atol=1e-6)


def test_batch_spheres_have_analytic_distances():
    n = 1000
    rng = np.random.default_rng(3)
    centres = rng.uniform(-1, 1, (n, 3))
    batch = heavyball.query_batch({"type": "sphere", "radius": 0.1}, {"type": "sphere", "radius": 0.2},
                                  np.zeros(3), [1, 0, 0, 0], centres, [1, 0, 0, 0])
    expected = np.linalg.norm(centres, axis=1) - 0.3
    assert np.allclose(batch["distance"], expected, atol=1e-7)


def test_batch_rejects_bad_arrays():
    sphere = {"type": "sphere", "radius": 0.1}
    with pytest.raises(ValueError, match="positions_a"):
        heavyball.query_batch(sphere, sphere, np.zeros((5, 2)), [1, 0, 0, 0], np.zeros(3), [1, 0, 0, 0])
    with pytest.raises(ValueError, match="rows where the other arrays have"):
        heavyball.query_batch(sphere, sphere, np.zeros((5, 3)), [1, 0, 0, 0], np.zeros((4, 3)), [1, 0, 0, 0])
    with pytest.raises(ValueError, match=r"quaternions_b\[1\]: expected a unit quaternion"):
        heavyball.query_batch(sphere, sphere, np.zeros(3), [1, 0, 0, 0], np.ones((2, 3)),
                              [[1, 0, 0, 0], [2, 0, 0, 0]])
    with pytest.raises(ValueError, match=r"positions_b\[0\]: not finite"):
        heavyball.query_batch(sphere, sphere, np.zeros(3), [1, 0, 0, 0], [math.nan, 0, 0], [1, 0, 0, 0])
    # The range of a query line's positions, with its message.
    with pytest.raises(ValueError, match=r"positions_a\[1\]: expected coordinates within 1e\+06 m"):
        heavyball.query_batch(sphere, sphere, [[0, 0, 0], [1e300, 0, 0]], [1, 0, 0, 0], np.zeros(3),
                              [1, 0, 0, 0])


def test_threads_share_the_loaded_meshes_and_agree(source_dir):
    from concurrent.futures import ThreadPoolExecutor
    rng = np.random.default_rng(5)
    positions = rng.uniform(-0.2, 0.2, (2000, 3))
    shapes = [{"type": "mesh", "path": str(source_dir / f"assets/ycb/{name}/textured.obj")}
              for name in ("025_mug", "024_bowl", "013_apple", "011_banana")]
    ball = {"type": "sphere", "radius": 0.03}

    def solve(shape):
        return heavyball.query_batch(shape, ball, np.zeros(3), [1, 0, 0, 0], positions, [1, 0, 0, 0])

    alone = [solve(shape) for shape in shapes]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(solve, shapes * 2))
    for i, result in enumerate(together):
        assert np.array_equal(result["distance"], alone[i % 4]["distance"])
