#!/usr/bin/env python3
"""Writes the large-pile benchmark scenes of assets/scenes/ and the hull they drop.

pile-<N>.json: N identical convex hulls (32 points on a sphere of radius 2 m, assets/shapes/
pile-hull.obj) in an 8 x 8 grid of columns 4 m apart, layers 4 m apart, falling onto a ground box 800 m wide.
pyramid-<rows>.json: a wall of 1 m cubes, one cube deep, each row half a cube in from the one
below, resting on the ground. Run from anywhere: tools/make_pile_scenes.py
"""
import argparse
import json
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENES = ROOT / "assets" / "scenes"
HULL = ROOT / "assets" / "shapes" / "pile-hull.obj"


def fibonacci_sphere(count, radius):
    """Points spread evenly over a sphere (a golden-angle spiral from pole to pole)."""
    golden = math.pi * (3.0 - math.sqrt(5.0))
    points = []
    for i in range(count):
        z = 1.0 - 2.0 * (i + 0.5) / count
        r = math.sqrt(1.0 - z * z)
        a = golden * i
        points.append((radius * r * math.cos(a), radius * r * math.sin(a), radius * z))
    return points


def hull_triangles(points):
    """The faces of the points' hull by brute force (every point lies on it): the triangles with
    every other point behind their plane, wound outwards."""
    def sub(a, b):
        return [a[k] - b[k] for k in range(3)]

    def cross(a, b):
        return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]

    def dot(a, b):
        return sum(a[k] * b[k] for k in range(3))

    n = len(points)
    faces = []
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                normal = cross(sub(points[j], points[i]), sub(points[k], points[i]))
                sides = [dot(normal, sub(points[m], points[i])) for m in range(n)
                         if m not in (i, j, k)]
                if all(s < -1e-12 for s in sides):
                    faces.append((i, j, k))
                elif all(s > 1e-12 for s in sides):
                    faces.append((i, k, j))
    return faces


def hull_file():
    points = fibonacci_sphere(32, 2.0)
    lines = ["# 32 points on a sphere of radius 2 m (a golden-angle spiral); the pile scenes' hull"]
    lines += ["v %.9f %.9f %.9f" % p for p in points]
    lines += ["f %d %d %d" % (a + 1, b + 1, c + 1) for a, b, c in hull_triangles(points)]
    return HULL, "\n".join(lines) + "\n"


def compact(value):
    """Numbers as short as they are exact, one body per line."""
    return json.dumps(value, separators=(", ", ": "))


def scene_file(path, header, bodies):
    head = json.dumps(header, indent=2)
    assert head.endswith("\n}")
    text = head[:-2] + ',\n  "bodies": [\n' + ",\n".join("    " + compact(b) for b in bodies)
    return path, text + "\n  ]\n}\n"


def pile(layers):
    count = 64 * layers
    material = {"friction": 0.6, "restitution": 0.0}
    bodies = []
    for layer in range(layers):
        for i in range(8):
            for j in range(8):
                p = [4.0 * i - 14.0, 4.0 * j - 14.0, 2.5 + 4.0 * layer]
                bodies.append({"shape": {"type": "mesh", "path": "../shapes/pile-hull.obj"},
                               "pose": {"p": p}, "density": 1000.0, "material": material})
    header = {
        "name": "pile-%d" % count,
        "gravity": [0.0, 0.0, -10.0],
        "dt": 1.0 / 60.0,
        "bounds": {"min": [-400.0, -400.0, -5.0], "max": [400.0, 400.0, 4.0 * layers + 10.0]},
        # A ground box wide enough for the pile to spread on (the ground plane's box is 100 m).
        "statics": [{"type": "shape", "shape": {"type": "box", "half_extents": [400.0, 400.0, 1.0]},
                     "pose": {"p": [0.0, 0.0, -1.0]}, "material": material}],
        # The soft step with Box2D v3's 4 substeps, its contacts at 60 Hz: the solve costs a
        # fraction of the rigid schedule's sweeps, which grow with the pile's depth
        # (docs/large-piles.md), and the contacts overlap no deeper.
        "solver": {"sleeping": False, "soft_substeps": 4, "contact_hertz": 60.0},
    }
    return scene_file(SCENES / ("pile-%d.json" % count), header, bodies)


def pyramid(rows):
    material = {"friction": 0.6, "restitution": 0.0}
    bodies = []
    for row in range(rows):
        for k in range(rows - row):
            x = k - 0.5 * (rows - row - 1)
            bodies.append({"shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
                           "pose": {"p": [x, 0.0, 0.5 + row]}, "density": 100.0,
                           "material": material})
    half = 0.5 * rows + 10.0
    header = {
        "name": "pyramid-%d" % rows,
        "gravity": [0.0, 0.0, -10.0],
        "dt": 1.0 / 60.0,
        "bounds": {"min": [-half, -half, -5.0], "max": [half, half, rows + 10.0]},
        "statics": [{"type": "ground", "height": 0.0, "material": material}],
        # The soft step: 16 sweeps a step keep the 100-row wall standing, where the rigid
        # schedule needs 250 (docs/large-piles.md). Its contacts yield under the weight they
        # carry (the 100-row wall's top settles by 0.22 m); softer, at 30 Hz, that wall buckles
        # out of its plane after some seconds. Cubes rounded by 2 cm rest on GJK distances
        # between their cores rather than EPA depths, which collide in two thirds of the time.
        "solver": {"sleeping": False, "soft_substeps": 8, "contact_hertz": 60.0,
                   "convex_radius": 0.02},
    }
    return scene_file(SCENES / ("pyramid-%d.json" % rows), header, bodies)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the files in the repository instead of writing them")
    args = parser.parse_args()
    files = [hull_file()] + [pile(layers) for layers in (10, 20, 80)]
    files += [pyramid(rows) for rows in (20, 100)]
    stale = []
    for path, text in files:
        if args.check:
            if not path.is_file() or path.read_text() != text:
                stale.append(str(path.relative_to(ROOT)))
        else:
            path.write_text(text)
    if stale:
        sys.exit("make_pile_scenes: out of date (run tools/make_pile_scenes.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
