#!/usr/bin/python3
"""Regenerates the measured figures of README.md and docs/*.md that are marked

    <!-- figure NAME -->...<!-- /figure -->

from runs made now, so that a page says what the code measures today (docs/simulation.md has
its own generator, tools/simulation_report.py; scripts/results.sh runs both). Every marker must
name a figure below and every figure must have a marker: a page and this tool that drift apart
fail.

Usage: tools/doc_figures.py HEAVYBALL [--root DIR] [--quick] [--only NAME ...]
--quick runs every measurement small (for the tests: the numbers then mean nothing, the
figures' shape and the commands are checked). Times are CPU times of the child processes
(resource.getrusage) unless a figure says otherwise.
"""

import argparse
import csv
import gzip
import json
import os
import pathlib
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
MARKER = re.compile(r"<!-- figure ([a-z0-9-]+) -->(.*?)<!-- /figure -->", re.S)


class Context:
    def __init__(self, hb, quick, scratch):
        self.hb = str(pathlib.Path(hb).resolve())
        self.quick = quick
        self.scratch = pathlib.Path(scratch)
        self.cache = {}

    def run(self, *args, expect=(0,)):
        """Runs heavyball with `args` from the source tree; returns (stdout, CPU seconds)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([self.hb, *map(str, args)], capture_output=True, text=True,
                              cwd=ROOT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in expect:
            raise SystemExit(f"heavyball {' '.join(map(str, args))}: exit {done.returncode}\n"
                             f"{done.stderr}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return done.stdout, cpu

    def once(self, key, make):
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]


def viewer_rain(ctx):
    """docs/viewer.md: the 200-object rain, headless, one thread."""
    objects, seconds = (20, 1) if ctx.quick else (200, 15)
    args = ["simulate", "--scene", "assets/scenes/funnel.json", "--objects", objects,
            "--drop-interval", "0.05", "--seconds", seconds, "--threads", 1, "--json"]
    out, _ = ctx.run(*args, expect=(0, 3))
    s = json.loads(out)
    stages = s["stage_ms"]
    step_ms = sum(stages.values())
    command = " ".join(map(str, ["heavyball", *args[:-1]]))
    return (f"{s['real_time_factor']:.2f}x real time, {step_ms:.2f} ms per step on average "
            f"(`{command}`: find pairs {stages['find_pairs']:.2f}, collide "
            f"{stages['collide']:.2f}, build contacts {stages['build_contacts']:.2f}, solve "
            f"{stages['solve']:.2f} ms)")


def record_bench(ctx):
    runs, repeats = (3, 1) if ctx.quick else (100, 3)
    return ctx.once("record", lambda: json.loads(ctx.run(
        "bench", "record", "--scene", "assets/scenes/funnel-pair.json", "--runs", runs,
        "--repeats", repeats, "--json")[0]))


def recording_size(ctx):
    """docs/recording-format.md: what a recording of the funnel-pair scene weighs."""
    def kib(seconds):
        file = ctx.scratch / f"size-{seconds}.h5"
        out, _ = ctx.run("simulate", "--scene", "assets/scenes/funnel-pair.json", "--seconds",
                         seconds, "--record", file, "--overwrite", "--json")
        return json.loads(out)["recording_bytes"] / 1024.0
    short, long = (1, 2) if ctx.quick else (5, 10)
    per_second = (kib(long) - kib(short)) / (long - short)
    size = record_bench(ctx)["recording_kib"]
    return (f"{kib(1):.0f} KiB with the scene's own seed (median {size['median']:.0f} KiB, "
            f"quartiles {size['q1']:.0f} and {size['q3']:.0f} KiB, over "
            f"{record_bench(ctx)['runs']} seeds); from {short} to {long} s a run grows by "
            f"{per_second:.0f} KiB per simulated second")


def batch_record_overhead(ctx):
    """docs/batch.md: what recording costs a run, `bench record --json`."""
    r = record_bench(ctx)
    plain, recorded = r["without_recording_ms"], r["with_recording_ms"]
    over, sums = r["overhead_percent"], r["overhead_of_sums_percent"]
    return "\n".join([
        "",
        f"`heavyball bench record --runs {r['runs']} --repeats {r['repeats']}`, one invocation:",
        "",
        "| per 1-s run, median | CPU, all threads | wall |",
        "|---|---|---|",
        f"| without recording | {plain['cpu']['median']:.1f} ms | {plain['wall']['median']:.1f} ms |",
        f"| with recording | {recorded['cpu']['median']:.1f} ms | "
        f"{recorded['wall']['median']:.1f} ms |",
        f"| overhead (median of the per-run ratios; of the sums) | {over['cpu']['median']:.0f}% "
        f"({sums['cpu']:.0f}%) | {over['wall']['median']:.0f}% ({sums['wall']:.0f}%) |",
        ""])


def study_run(ctx):
    """The study example of docs/study.md, run as the page shows it."""
    def make():
        runs, repeats = (2, 3) if ctx.quick else (20, 100)
        out_dir = ctx.scratch / "ws20"
        csv_file = ctx.scratch / "ws20-study.csv.gz"
        ctx.run("batch", "--scene", "assets/scenes/funnel-pair.json", "--runs", runs,
                "--seconds", 1, "--record", "--out", out_dir, "--jobs", 1)
        plot = [] if ctx.quick else ["--plot", ROOT / "docs" / "images" / "study-warmstart.png"]
        out, cpu = ctx.run("study", "warmstart", out_dir, "--repeats", repeats, "--csv",
                           csv_file, *plot)
        # The page shows the commands' own paths.
        out = out.replace(str(out_dir), "/tmp/ws20").replace(str(csv_file),
                                                                "/tmp/ws20-study.csv.gz")
        out = out.replace(str(ROOT / "docs" / "images" / "study-warmstart.png"),
                          "docs/images/study-warmstart.png")
        return out, cpu, csv_file
    return ctx.once("study", make)


def study_output(ctx):
    out, cpu, _ = study_run(ctx)
    return f"\n```\n{out.rstrip()}\n```\n\nThe study took {cpu:.0f} s of CPU time.\n"


def study_facts(ctx):
    """docs/study.md: the numbers its reading of Fig. 13 rests on, from the study's CSV."""
    _, _, csv_file = study_run(ctx)
    rows = {}
    with gzip.open(csv_file, "rt", newline="") as f:
        for r in csv.DictReader(f):
            rows.setdefault((r["recording"], r["problem"]), {})[(r["method"], r["warm_start"])] = r
    def median(method, warm, keep=lambda p: True):
        times = [float(p[(method, warm)]["time_us"]) for p in rows.values() if keep(p)]
        return statistics.median(times) if times else float("nan")
    colliding = lambda p: p[("gjk", "none")]["collide"] == "1"
    with_previous = [p for p in rows.values() if p[("gjk", "previous")]["fallback"] == "0"]
    worse = [p for p in with_previous if int(p[("gjk", "transformed")]["iterations"]) >=
             int(p[("gjk", "previous")]["iterations"]) + 3]
    static = sum(1 for p in worse if p[("gjk", "none")]["body_a"] == "0")
    n = len(rows)
    hit = sum(1 for p in rows.values() if colliding(p))
    return (f"{n - hit} of the {n} problems are separated pairs and {hit} collide. Median times "
            f"(µs), `none` / `obb` / `previous` / `transformed`: vanilla GJK "
            f"{median('gjk', 'none'):.2f} / {median('gjk', 'obb'):.2f} / "
            f"{median('gjk', 'previous'):.2f} / {median('gjk', 'transformed'):.2f}, Nesterov "
            f"{median('nesterov', 'none'):.2f} / {median('nesterov', 'obb'):.2f} / "
            f"{median('nesterov', 'previous'):.2f} / {median('nesterov', 'transformed'):.2f}; on "
            f"the colliding problems alone, vanilla GJK {median('gjk', 'obb', colliding):.2f} "
            f"with `obb` and {median('gjk', 'previous', colliding):.2f} with `previous`. With "
            f"vanilla GJK, `transformed` needs at least 3 more iterations than `previous` on "
            f"{len(worse)} of the {len(with_previous)} problems with a previous solution, "
            f"{static} of them against the static funnel or ground.")


def python_query(ctx):
    """docs/python.md: query_batch on 10,000 poses, and the same as dicts through query."""
    n, repeats = (200, 2) if ctx.quick else (10000, 7)
    code = f"""
import json, time
import numpy as np
import heavyball
rng = np.random.default_rng(0)
n = {n}
positions = rng.uniform(-0.2, 0.2, (n, 3))
q = rng.normal(size=(n, 4))
q /= np.linalg.norm(q, axis=1, keepdims=True)
mug = {{"type": "mesh", "path": "assets/ycb/025_mug/textured.obj"}}
ball = {{"type": "sphere", "radius": 0.03}}
def cpu(f):
    start = time.process_time(); f(); return time.process_time() - start
first = cpu(lambda: heavyball.query_batch(mug, ball, np.zeros(3), [1, 0, 0, 0], positions, q,
                                           variant="nesterov"))
later = [cpu(lambda: heavyball.query_batch(mug, ball, np.zeros(3), [1, 0, 0, 0], positions, q,
                                            variant="nesterov")) for _ in range({repeats})]
problems = [{{"a": mug, "b": ball, "pose_b": {{"p": p.tolist(), "q": r.tolist()}},
             "variant": "nesterov"}} for p, r in zip(positions, q)]
dicts = cpu(lambda: heavyball.query(problems))
print(json.dumps({{"first": first, "later": later, "dicts": dicts}}))
"""
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(ctx.hb).parent / "python" / "site"))
    done = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    if done.returncode != 0:
        raise SystemExit(f"python_query: {done.stderr}")
    t = json.loads(done.stdout)
    low, high = min(t["later"]) * 1e3, max(t["later"]) * 1e3
    return (f"the first call above takes {t['first'] * 1e3:.0f} ms, nearly all of it loading the "
            f"mug's scan; later calls solve the {n:,} problems in {low:.1f}-{high:.1f} ms, "
            f"{1e6 * statistics.median(t['later']) / n:.2f} us each. The same problems as {n:,} "
            f"dicts through `query` take {t['dicts'] * 1e3:.0f} ms, most of it converting dicts")


FIGURES = {
    "viewer-rain": viewer_rain,
    "recording-size": recording_size,
    "batch-record-overhead": batch_record_overhead,
    "study-output": study_output,
    "study-facts": study_facts,
    "python-query": python_query,
}


def pages(root):
    return [root / "README.md"] + sorted((root / "docs").glob("*.md"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("heavyball")
    parser.add_argument("--root", type=pathlib.Path, default=ROOT,
                        help="the tree whose pages are rewritten (default: this one)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    found = {}
    for page in pages(args.root):
        for match in MARKER.finditer(page.read_text()):
            found.setdefault(match.group(1), []).append(page)
    unknown = sorted(set(found) - set(FIGURES))
    missing = sorted(set(FIGURES) - set(found))
    if unknown or missing:
        sys.exit(f"doc_figures: markers without a figure: {unknown}; figures without a marker: "
                 f"{missing}")
    wanted = set(args.only) if args.only is not None else set(FIGURES)
    with tempfile.TemporaryDirectory() as scratch:
        ctx = Context(args.heavyball, args.quick, scratch)
        for page in pages(args.root):
            text = page.read_text()
            def replace(match):
                name = match.group(1)
                if name not in wanted:
                    return match.group(0)
                print(f"== {page.name}: {name}", file=sys.stderr)
                return f"<!-- figure {name} -->{FIGURES[name](ctx)}<!-- /figure -->"
            new = MARKER.sub(replace, text)
            if new != text:
                page.write_text(new)


if __name__ == "__main__":
    main()
