#!/usr/bin/python3
"""Writes assets/scenes/funnel-pile.json: the statics, bounds, solver and drop material of
funnel.json, and 100 random YCB objects present from the first step, packed over the funnel mouth.

Runs with Debian's system python3 and python3-numpy, from the repository root:

  /usr/bin/python3 tools/make_funnel_pile.py                # writes assets/scenes/funnel-pile.json
  /usr/bin/python3 tools/make_funnel_pile.py --check        # exit 1 if the file differs

Placement. Each object, in the order drawn, gets a uniformly random asset folder and a uniformly
random orientation, and is placed on the lowest spot of a height map (1 cm cells) of the axis-
aligned boxes of the objects placed so far, among the spots where its box's footprint lies inside
the funnel's rim circle (ties: nearest to the axis). The map starts at 5 cm above the rim. A box
holds its object's convex hull, and boxes are kept 5 mm apart horizontally and vertically, so no
two objects touch at the start.
"""

import argparse
import json
import math
import os
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

CELL = 0.01  # m, height-map resolution
GAP = 0.005  # m, least distance between two objects' boxes
CLEARANCE = 0.05  # m, from the funnel's rim to the lowest box


def read_vertices(obj_path):
    """The vertices of an OBJ file, in its own frame (the hull heavyball collides with is theirs)."""
    with open(obj_path) as f:
        return np.array([line.split()[1:4] for line in f if line.startswith("v ")], dtype=float)


def uniform_rotation(rng):
    """A uniformly random unit quaternion [w, x, y, z] (Shoemake's subgroup algorithm)."""
    u1, u2, u3 = rng.random(3)
    a, b = math.sqrt(1.0 - u1), math.sqrt(u1)
    return np.array([b * math.cos(2 * math.pi * u3), a * math.sin(2 * math.pi * u2),
                     a * math.cos(2 * math.pi * u2), b * math.sin(2 * math.pi * u3)])


def rotation_matrix(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def pile(funnel, assets, vertices, count, seed):
    """Asset names and poses {p, q} of `count` objects packed over the funnel's mouth."""
    rng = np.random.default_rng(seed)
    radius = funnel["top_radius"]
    cells = int(round(2 * radius / CELL))
    # Cells wholly inside the rim circle start at the floor, the others can never be used.
    centres = (np.arange(cells) + 0.5) * CELL - radius
    cx, cy = np.meshgrid(centres, centres, indexing="ij")
    inside = np.hypot(np.abs(cx) + CELL / 2, np.abs(cy) + CELL / 2) <= radius
    floor = funnel["bottom_z"] + funnel["height"] + CLEARANCE
    height = np.where(inside, floor, np.inf)

    bodies = []
    for _ in range(count):
        name = assets[rng.integers(len(assets))]
        q = np.round(uniform_rotation(rng), 9)
        v = vertices[name] @ rotation_matrix(q).T
        low, extent = v.min(axis=0), v.max(axis=0) - v.min(axis=0)
        fx, fy = (int(math.ceil((extent[k] + GAP) / CELL)) for k in (0, 1))
        # The highest box under each footprint position; the lowest of them, nearest the axis.
        base = sliding_window_view(height, (fx, fy)).max(axis=(2, 3))
        ox = (np.arange(base.shape[0]) + fx / 2) * CELL - radius
        oy = (np.arange(base.shape[1]) + fy / 2) * CELL - radius
        ox, oy = np.meshgrid(ox, oy, indexing="ij")
        order = np.lexsort((np.hypot(ox, oy).ravel(), base.ravel()))
        i, j = np.unravel_index(order[0], base.shape)
        z = base[i, j]
        if not np.isfinite(z):
            sys.exit(f"make_funnel_pile.py: {name} does not fit inside the rim")
        height[i:i + fx, j:j + fy] = z + extent[2] + GAP
        corner = np.array([i * CELL - radius, j * CELL - radius, z])
        p = np.round(corner - low, 6)
        bodies.append({"asset": name, "pose": {"p": p.tolist(), "q": q.tolist()}})
    return bodies


def scene_text(scene):
    """funnel.json's layout, with one line per body."""
    parts = []
    for key, value in scene.items():
        if key == "bodies":
            rows = ",\n".join("    " + json.dumps(b) for b in value)
            parts.append(f'  "{key}": [\n{rows}\n  ]')
        else:
            text = json.dumps(value, indent=2).replace("\n", "\n  ")
            parts.append(f'  "{key}": {text}')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    scenes = os.path.join(root, "assets", "scenes")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default=os.path.join(scenes, "funnel-pile.json"))
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true",
                        help="compare with the output file instead of writing it")
    args = parser.parse_args()

    with open(os.path.join(scenes, "funnel.json")) as f:
        base = json.load(f)
    funnel = next(s for s in base["statics"] if s["type"] == "funnel")
    asset_dir = os.path.join(scenes, base["asset_dir"])
    assets = sorted(d for d in os.listdir(asset_dir) if os.path.isdir(os.path.join(asset_dir, d)))
    vertices = {a: read_vertices(os.path.join(asset_dir, a, "textured.obj")) for a in assets}
    material = base["spawner"]["material"]

    scene = {key: base[key] for key in ("asset_dir", "gravity", "dt", "default_density", "bounds",
                                        "statics")}
    scene = {"name": "funnel-pile", **scene}
    scene["bodies"] = [{**b, "material": material}
                       for b in pile(funnel, assets, vertices, args.count, args.seed)]
    scene["solver"] = base["solver"]
    text = scene_text(scene)

    if args.check:
        with open(args.output) as f:
            if f.read() != text:
                sys.exit(f"make_funnel_pile.py: {args.output} differs from what this script writes")
        return
    with open(args.output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
