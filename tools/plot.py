#!/usr/bin/python3
"""Figures of heavyball's benchmarks and studies, drawn from the CSV files the commands write.

Runs with Debian's system python3 and python3-matplotlib (apt-get install python3-matplotlib):

  /usr/bin/python3 tools/plot.py warmstart  STUDY.csv -o fig13.png      # heavyball study warmstart --csv
  /usr/bin/python3 tools/plot.py iterations GJK.csv   -o fig7.png       # heavyball bench gjk --csv
  /usr/bin/python3 tools/plot.py time       GJK.csv   -o fig10.png
  /usr/bin/python3 tools/plot.py speedups   GJK.csv   -o fig11.png
  /usr/bin/python3 tools/plot.py peers      GJK.csv   -o fig12.png
  /usr/bin/python3 tools/plot.py cast       CAST.csv  -o cast.png       # heavyball bench cast --csv
  /usr/bin/python3 tools/plot.py smooth     SMOOTH.csv -o smooth.png    # heavyball bench smooth --csv

Each figure follows the layout of the corresponding figure of the GJK++ paper (Montaut et al.,
T-RO 2024); `cast` follows Figs. 11, 12, 15 and 17 of the collision-translations paper (Mirolo,
Carpin and Pagello); `smooth` follows Fig. 5 of the smooth-bodies paper (An et al.). Exit code 1 with one line on stderr for a missing file, a CSV without the expected
columns or no rows to plot.
"""

import argparse
import csv
import gzip
import math
import statistics
import sys
from collections import defaultdict

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
except ImportError:
    sys.exit("plot.py: matplotlib is missing; install it with `apt-get install python3-matplotlib` "
             "and run this script with /usr/bin/python3")

GJK_METHODS = ["gjk", "polyak", "nesterov"]
METHOD_LABELS = {"gjk": "GJK", "polyak": "Polyak GJK", "nesterov": "Nesterov GJK",
                 "auto": "auto", "ccd_gjk": "libccd GJK", "ccd_mpr": "libccd MPR",
                 "fcl_gjk": "FCL GJK", "fcl_indep": "FCL GJK (indep)",
                 "bullet_gjk": "Bullet GJK", "fw": "Frank-Wolfe",
                 "fw_active_set": "FW active set"}
COLOURS = {"gjk": "tab:blue", "polyak": "tab:orange", "nesterov": "tab:green"}
WARM_STARTS = [("none", "No WS"), ("obb", "OBB WS"), ("previous", "WS prev"),
               ("transformed", "WS T(prev)")]
MODES = [("distance", "distance computation"), ("boolean", "Boolean collision check")]


class PlotError(Exception):
    pass


def stream_rows(path, required):
    """The rows of a CSV file one by one (a study of the paper's dataset has millions)."""
    try:
        opener = gzip.open if str(path).endswith(".gz") else open
        with opener(path, "rt", newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in required if c not in (reader.fieldnames or [])]
            if missing:
                raise PlotError(f"{path}: missing column(s) {', '.join(missing)}")
            count = 0
            for row in reader:
                count += 1
                yield row
    except OSError as e:
        raise PlotError(f"{path}: {e.strerror}") from e
    if count == 0:
        raise PlotError(f"{path}: no rows")


def read_rows(path, required):
    return list(stream_rows(path, required))


def quartiles(values):
    """First quartile, median and third quartile (inclusive method, fine for a single value)."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], q[1], q[2]


def boxplot(ax, groups, labels, colour=None):
    parts = ax.boxplot(groups, labels=labels, showfliers=False, patch_artist=True,
                       medianprops={"color": "black"})
    for box in parts["boxes"]:
        box.set_facecolor(colour or "tab:blue")
        box.set_alpha(0.6)


# --- heavyball study warmstart (Fig. 13) ------------------------------------------------------


def plot_warmstart(paths, out):
    times, iterations = defaultdict(list), defaultdict(list)
    for path in paths:
        for r in stream_rows(path, ["method", "warm_start", "iterations", "time_us"]):
            key = (r["method"], r["warm_start"])
            times[key].append(float(r["time_us"]))
            iterations[key].append(int(r["iterations"]))
    methods = [m for m in GJK_METHODS if any(k[0] == m for k in times)]
    if not methods:
        raise PlotError("no rows of gjk, polyak or nesterov")
    fig, axes = plt.subplots(2, len(methods), figsize=(4.2 * len(methods), 7), squeeze=False,
                             sharey="row")
    for col, method in enumerate(methods):
        present = [(ws, label) for ws, label in WARM_STARTS if (method, ws) in times]
        labels = [label for _, label in present]
        boxplot(axes[0][col], [times[(method, ws)] for ws, _ in present], labels,
                COLOURS[method])
        boxplot(axes[1][col], [iterations[(method, ws)] for ws, _ in present], labels,
                COLOURS[method])
        axes[0][col].set_title(f"({chr(ord('a') + col)}) {METHOD_LABELS[method]}")
        for ax in (axes[0][col], axes[1][col]):
            ax.grid(axis="y", alpha=0.3)
            ax.tick_params(axis="x", labelsize=8)
    axes[0][0].set_ylabel("Boolean check time (µs)")
    axes[1][0].set_ylabel("iterations (supports)")
    problems = max(len(v) for v in times.values())
    fig.suptitle(f"Warm starts on recorded narrow-phase problems ({problems} problems)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


# --- heavyball bench gjk (Fig. 7, 9, 10, 11, 12) ----------------------------------------------

BENCH_COLUMNS = ["shapes", "pair", "pose", "distance_bucket", "mode", "method", "iterations",
                 "time_us"]


def bench_rows(paths):
    rows = []
    for path in paths:
        rows += read_rows(path, BENCH_COLUMNS)
    return rows


def by_distance(rows, mode, method, field):
    """Values of `field` per target signed distance, for one mode and method."""
    out = defaultdict(list)
    for r in rows:
        if r["mode"] == mode and r["method"] == method:
            value = float(r[field])
            if field == "iterations" and value < 0:
                continue
            out[float(r["distance_bucket"])].append(value)
    return dict(sorted(out.items()))


def symlog_distance_axis(ax, distances):
    small = [abs(d) for d in distances if d != 0.0]
    ax.set_xscale("symlog", linthresh=min(small) if small else 1e-3)
    ax.set_xlabel("signed distance (m)")
    ax.axvline(0.0, color="grey", linewidth=0.8, linestyle=":")


def plot_against_distance(paths, out, field, ylabel, log_y):
    rows = bench_rows(paths)
    shapes = sorted({r["shapes"] for r in rows})
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), squeeze=False)
    plotted = False
    for col, (mode, title) in enumerate(MODES):
        ax = axes[0][col]
        distances = set()
        for method in GJK_METHODS:
            series = by_distance(rows, mode, method, field)
            if not series:
                continue
            xs = list(series)
            distances.update(xs)
            q = [quartiles(v) for v in series.values()]
            ax.plot(xs, [m for _, m, _ in q], marker="o", markersize=3,
                    label=METHOD_LABELS[method], color=COLOURS[method])
            ax.fill_between(xs, [a for a, _, _ in q], [b for _, _, b in q],
                            color=COLOURS[method], alpha=0.2)
            plotted = True
        if distances:
            symlog_distance_axis(ax, distances)
        if log_y:
            ax.set_yscale("log")
            # Plain numbers on the decades and between them: the times span one or two decades.
            ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
            ax.yaxis.set_minor_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
            ax.tick_params(axis="y", which="minor", labelsize=7)
        ax.set_ylabel(ylabel)
        ax.set_title(f"({chr(ord('a') + col)}) {title}")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    if not plotted:
        raise PlotError("no rows of gjk, polyak or nesterov")
    fig.suptitle(f"{ylabel} against signed distance ({', '.join(shapes)}): median and quartiles")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def problem_key(r):
    return (r["shapes"], r["pair"], r["pose"], r["distance_bucket"], r["mode"])


def plot_speedups(paths, out):
    rows = bench_rows(paths)
    baseline = {problem_key(r): float(r["time_us"]) for r in rows if r["method"] == "gjk"}
    if not baseline:
        raise PlotError("no rows of the baseline method gjk")
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), squeeze=False, sharey=True)
    for col, (mode, title) in enumerate(MODES):
        ax = axes[0][col]
        ratios = defaultdict(list)  # (distance, method) -> gjk time / method time
        for r in rows:
            if r["mode"] != mode or r["method"] not in ("polyak", "nesterov"):
                continue
            base = baseline.get(problem_key(r))
            t = float(r["time_us"])
            if base is not None and t > 0.0:
                ratios[(float(r["distance_bucket"]), r["method"])].append(base / t)
        distances = sorted({d for d, _ in ratios})
        width = 0.38
        for offset, method in ((-0.2, "polyak"), (0.2, "nesterov")):
            data = [ratios.get((d, method), [math.nan]) for d in distances]
            parts = ax.boxplot(data, positions=[i + offset for i in range(len(distances))],
                               widths=width, showfliers=False, patch_artist=True,
                               medianprops={"color": "black"})
            for box in parts["boxes"]:
                box.set_facecolor(COLOURS[method])
                box.set_alpha(0.6)
            ax.plot([], [], color=COLOURS[method], linewidth=6, alpha=0.6,
                    label=METHOD_LABELS[method])
        ax.set_xticks(range(len(distances)))
        ax.set_xticklabels([f"{d:g}" for d in distances])
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_xlabel("signed distance (m)")
        ax.set_title(f"({chr(ord('a') + col)}) {title}")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0][0].set_ylabel("speed-up over vanilla GJK (time ratio)")
    fig.suptitle("Per-problem speed-ups over vanilla GJK (above 1: faster)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


PEER_CATEGORIES = [("distant", "distant (d ≥ 1 m)", lambda d: d >= 1.0),
                   ("close", "close (0 ≤ d ≤ 0.1 m)", lambda d: 0.0 <= d <= 0.1),
                   ("overlapping", "overlapping (d < 0)", lambda d: d < 0.0)]


def plot_peers(paths, out):
    rows = [r for r in bench_rows(paths) if r["mode"] == "boolean"]
    if not rows:
        raise PlotError("no Boolean rows")
    methods = []
    for r in rows:
        if r["method"] not in methods:
            methods.append(r["method"])
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5), squeeze=False, sharey=True)
    for col, (_, title, inside) in enumerate(PEER_CATEGORIES):
        ax = axes[0][col]
        groups = defaultdict(list)
        for r in rows:
            if inside(float(r["distance_bucket"])):
                groups[r["method"]].append(float(r["time_us"]))
        present = [m for m in methods if groups[m]]
        if present:
            parts = ax.boxplot([groups[m] for m in present],
                               labels=[METHOD_LABELS.get(m, m) for m in present],
                               showfliers=False, patch_artist=True,
                               medianprops={"color": "black"})
            for box, m in zip(parts["boxes"], present):
                box.set_facecolor(COLOURS.get(m, "tab:grey"))
                box.set_alpha(0.6)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax.set_title(f"({chr(ord('a') + col)}) {title}")
        ax.tick_params(axis="x", labelrotation=45, labelsize=8)
        ax.grid(axis="y", alpha=0.3, which="both")
    axes[0][0].set_ylabel("Boolean check time (µs, log)")
    fig.suptitle("Boolean collision checks on YCB hulls: heavyball and other libraries")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


# --- heavyball bench cast (collision translations) --------------------------------------------

CAST_COLUMNS = ["vertices", "case", "method", "iterations", "time_us"]
CAST_LABELS = {"gjk_cast": "heavyball GJK cast", "gjk_cast_warm": "heavyball GJK cast, warm",
               "cta": "heavyball CTA", "cta_warm": "heavyball CTA, warm",
               "bullet_subsimplex": "Bullet subsimplex cast",
               "bullet_gjk_cast": "Bullet GJK convex cast",
               "fcl_ca": "FCL conservative advancement"}
CAST_COLOURS = {"gjk_cast": "tab:green", "gjk_cast_warm": "tab:olive",
                "cta": "tab:blue", "cta_warm": "tab:cyan",
                "bullet_subsimplex": "tab:red", "bullet_gjk_cast": "tab:purple",
                "fcl_ca": "tab:brown"}


def plot_cast(paths, out):
    rows = []
    for path in paths:
        rows += read_rows(path, CAST_COLUMNS)
    times, iterations = defaultdict(list), defaultdict(list)
    for r in rows:
        key = (r["case"], r["method"], int(r["vertices"]))
        times[key].append(float(r["time_us"]))
        if int(r["iterations"]) >= 0:
            iterations[key].append(int(r["iterations"]))
    cases = []
    for r in rows:
        if r["case"] not in cases:
            cases.append(r["case"])
    panels = [c for c in ("collide", "miss 0.005D") if c in cases]
    panels += [c for c in cases if c.startswith("seq")][-1:]
    if not panels:
        raise PlotError("no collide, miss 0.005D or seq rows")
    fig, axes = plt.subplots(1, len(panels) + 1, figsize=(4.6 * (len(panels) + 1), 4.2),
                             squeeze=False)
    for col, case in enumerate(panels):
        ax = axes[0][col]
        methods = sorted({m for c, m, _ in times if c == case})
        for method in methods:
            xs = sorted(v for c, m, v in times if c == case and m == method)
            ys = [statistics.median(times[(case, method, v)]) for v in xs]
            ax.plot(xs, ys, marker="o", markersize=3, label=CAST_LABELS.get(method, method),
                    color=CAST_COLOURS.get(method))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax.set_xlabel("vertices per polyhedron")
        ax.set_title(f"({chr(ord('a') + col)}) {case}: median query time")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("time (µs, log)")
    # The paper's Fig. 11 (top): CTA's minimisation steps against the size, per case; the GJK
    # cast's iterations on colliding pairs, dashed, for scale.
    ax = axes[0][len(panels)]
    for case in cases:
        for method, style in (("cta", "-"), ("cta_warm", ":")):
            xs = sorted(v for c, m, v in iterations if c == case and m == method)
            if xs:
                label = case if method == "cta" else f"{case}, warm"
                ax.plot(xs, [statistics.mean(iterations[(case, method, v)]) for v in xs],
                        style, marker="o", markersize=3, label=label)
    xs = sorted(v for c, m, v in iterations if c == "collide" and m == "gjk_cast")
    if xs:
        ax.plot(xs, [statistics.mean(iterations[("collide", "gjk_cast", v)]) for v in xs], "--",
                color="grey", label="GJK cast iterations, collide")
    ax.set_xscale("log")
    ax.set_xlabel("vertices per polyhedron")
    ax.set_ylabel("steps (mean)")
    ax.set_title(f"({chr(ord('a') + len(panels))}) CTA: minimisation steps")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    fig.suptitle("Collision translations of polyhedra on ellipsoids")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


# --- heavyball bench smooth (RTR against GJK-EPA) ----------------------------------------------

SMOOTH_COLUMNS = ["method", "time_us", "iterations", "optimality"]
SMOOTH_LABELS = {"rtr": "heavyball RTR", "gjk_epa": "heavyball GJK + EPA",
                 "ccd_epa": "libccd GJK-EPA"}
SMOOTH_COLOURS = {"rtr": "tab:blue", "gjk_epa": "tab:green", "ccd_epa": "tab:red"}


def plot_smooth(paths, out):
    """Fig. 5 of An et al.: the terminal optimality measure (eq. 20) of each query against its
    iterations and its time, per method (at most 3,000 queries per method, evenly spread)."""
    rows = []
    for path in paths:
        rows += read_rows(path, SMOOTH_COLUMNS)
    by_method = defaultdict(list)
    for r in rows:
        by_method[r["method"]].append(r)
    if not by_method:
        raise PlotError("no rows")
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    floor = 1e-16  # an exact answer still shows on the log scale
    for method, items in sorted(by_method.items()):
        step = max(1, len(items) // 3000)
        items = items[::step]
        colour = SMOOTH_COLOURS.get(method)
        label = SMOOTH_LABELS.get(method, method)
        ys = [max(float(r["optimality"]), floor) for r in items]
        its = [int(r["iterations"]) for r in items]
        if min(its) >= 0:
            axes[0].scatter(its, ys, s=3, alpha=0.4, color=colour, label=label)
        axes[1].scatter([float(r["time_us"]) for r in items], ys, s=3, alpha=0.4, color=colour,
                        label=label)
    axes[0].set_xlabel("iterations (RTR; GJK + EPA together)")
    axes[1].set_xlabel("time (µs)")
    axes[1].set_xscale("log")
    for ax, title in zip(axes, ("(a) optimality against iterations", "(b) optimality against time")):
        ax.set_yscale("log")
        ax.set_ylabel("optimality measure (eq. 20)")
        ax.set_title(title)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, markerscale=3)
    fig.suptitle("Penetration of smooth convex bodies (An et al.'s Table I shapes)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


FIGURES = {
    "cast": plot_cast,
    "smooth": plot_smooth,
    "warmstart": plot_warmstart,
    "iterations": lambda paths, out: plot_against_distance(paths, out, "iterations",
                                                           "iterations", False),
    "time": lambda paths, out: plot_against_distance(paths, out, "time_us", "time (µs)", True),
    "speedups": plot_speedups,
    "peers": plot_peers,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("figure", choices=sorted(FIGURES))
    parser.add_argument("csv", nargs="+", help="CSV file(s) written by heavyball")
    parser.add_argument("-o", "--output", required=True, help="PNG file to write")
    args = parser.parse_args()
    try:
        FIGURES[args.figure](args.csv, args.output)
    except PlotError as e:
        sys.exit(f"plot.py: {e}")
    except OSError as e:
        sys.exit(f"plot.py: {args.output}: {e.strerror}")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
