"""The previous-solution fields of a recording's problems (docs/recording-format.md) against the
problems the recording itself holds: a pair has a previous solution when it was solved in the
narrow-phase round before (the previous substep, or the previous step's last one), or when its
kept manifold answered since its last query, and its fields are that query's solution."""

import os

import h5py
import numpy as np

import heavyball

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUNNEL = os.path.join(ROOT, "assets", "scenes", "funnel.json")


def rotate_inverse(q, v):
    """R(q)^T v for a unit quaternion q = (w, x, y, z)."""
    w, u = q[0], -np.asarray(q[1:])
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def test_previous_solutions_are_those_of_the_round_before(tmp_path):
    world = heavyball.World(FUNNEL, threads=1)
    path = tmp_path / "funnel.h5"
    world.record(path)
    world.step(240)
    world.stop_recording()
    with h5py.File(path) as f:
        problems = f["problems"][:]
        steps = f["steps"][:]
    # Every narrow-phase round, in order: each step's substeps, those without problems too.
    rounds = [(int(s["step"]), k) for s in steps for k in range(int(s["substeps"]))]
    assert len(rounds) > 240  # some steps were split into substeps
    assert steps["substeps"][-1] == 0  # the final state: no step ran from it
    round_of = {r: i for i, r in enumerate(rounds)}
    # Some rounds needed no query: the numbering above must not skip them.
    assert len(rounds) > len(set(zip(problems["step"].tolist(), problems["substep"].tolist())))
    solved = {}  # (proxy_a, proxy_b) -> (round, row)
    with_previous = touching = 0
    for row in problems:
        r = round_of[(int(row["step"]), int(row["substep"]))]
        key = (int(row["proxy_a"]), int(row["proxy_b"]))
        before = solved.get(key)
        # Solved in the round before: it has that solution. A pair whose kept manifold answered
        # in the rounds between (no problem in the file, design.md "Contacts") keeps its last
        # query's solution.
        if before is not None and before[0] == r - 1:
            assert row["has_previous"], key
        assert not row["has_previous"] or before is not None, key
        if row["has_previous"]:
            with_previous += 1
            prev = before[1]
            d, n = prev["distance"], prev["normal"]
            expected = -abs(d) * n if d != 0.0 else -n  # a touching solution keeps its direction
            touching += d == 0.0
            assert np.array_equal(row["previous_separation"], expected)
            assert row["previous_overlapping"] == (d < 0.0)
            for side in ("a", "b"):
                local = rotate_inverse(prev["orientation_" + side],
                                       prev["witness_" + side] - prev["position_" + side])
                assert np.allclose(row["previous_witness_%s_local" % side], local, atol=1e-12)
        else:
            assert not row["previous_separation"].any()
        solved[key] = (r, row)
    assert with_previous > 0.5 * len(problems)
    assert touching > 0
