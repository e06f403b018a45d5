#!/usr/bin/python3
"""Writes docs/simulation.md from measurements made now: the funnel set-ups run with
`heavyball simulate --json`, a recording's size, and `heavyball bench broadphase`.
Every number of that page comes from this script (scripts/results.sh runs it).

Usage: tools/simulation_report.py HEAVYBALL OUT.md [--quick] [--runs N]
CPU times are the child process's user + system time (resource.getrusage), the range over runs.
"""

import argparse
import datetime
import json
import os
import pathlib
import resource
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run_json(command):
    """Runs a command that prints one JSON object; returns it with the CPU seconds it took.
    `simulate` exits with 3 when bodies leave the scene's bounds: reported, not an error here."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if run.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(command)} failed ({run.returncode}): {run.stderr}")
    out = run.stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(out), cpu


def spread(values, digits=2):
    low, high = min(values), max(values)
    text = f"{low:.{digits}f}"
    return text if f"{high:.{digits}f}" == text else f"{text}-{high:.{digits}f}"


def simulate_runs(hb, args, runs):
    """(summary, CPU seconds) of each of `runs` identical runs (identical trajectories)."""
    return [run_json([hb, "simulate", *args, "--json"]) for _ in range(runs)]


def simulate(hb, args, runs):
    """The first run's summary and the CPU seconds of `runs` identical runs."""
    results = simulate_runs(hb, args, runs)
    return results[0][0], [cpu for _, cpu in results]


def stepping_seconds(summary):
    """Seconds the run spent in its steps, by the stage timers (start-up left out)."""
    return sum(summary["stage_ms"].values()) * summary["steps"] / 1000.0


# The stages in the order the step runs them (engine/step_statistics.hpp).
STAGES = ["find_pairs", "collide", "build_contacts", "integrate_velocities", "solve",
          "update_pair_cache", "integrate", "continuous_collision", "restitution", "sleep"]


def stage_line(summary):
    stages = summary["stage_ms"]
    order = [s for s in STAGES if s in stages] + [s for s in stages if s not in STAGES]
    return ", ".join(f"{name.replace('_', ' ')} {stages[name]:.3f}" for name in order)


def plural(count, word):
    return f"{count} {word}" if count == 1 else f"{count} {word[:-1] + 'ies' if word.endswith('y') else word + 's'}"


def describe(summary):
    epa_share = summary["epa_calls"] / max(summary["gjk_calls"], 1)
    return (f"{summary['gjk_calls']:,} GJK calls ({summary['gjk_variant']}, warm start "
            f"{summary['warm_start']}), {summary['gjk_mean_iterations']:.2f} iterations on average, "
            f"{100 * epa_share:.0f}% of them followed by EPA; {summary['contacts_mean']:.0f} contacts "
            f"per step on average, {summary['contacts_max']} at most; deepest penetration "
            f"{1000 * summary['max_penetration_m']:.1f} mm; "
            f"{plural(summary['escaped_bodies'], 'body')} out of bounds; kinetic energy at the end {summary['kinetic_energy_final']:.3g} J")


def setup_section(title, command_args, summary, cpus, note=""):
    simulated = summary["simulated_s"]
    lines = [f"## {title}", "", "```sh",
             "build/release/apps/heavyball simulate " + " ".join(command_args), "```", ""]
    if note:
        lines += [note, ""]
    lines += [
        f"{summary['bodies']} bodies, {summary['steps']} steps ({simulated:g} s simulated): "
        f"{spread(cpus)} s CPU, {spread([simulated / c for c in cpus], 1)} simulated seconds per "
        "CPU second "
        f"({spread([summary['steps'] / c for c in cpus], 0)} steps per CPU second, "
        "start-up included).",
        "",
        f"Mean ms per step: {stage_line(summary)}.",
        "",
        describe(summary) + ".",
        ""]
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("heavyball")
    parser.add_argument("out")
    parser.add_argument("--quick", action="store_true", help="short runs, to check the pipeline")
    parser.add_argument("--runs", type=int, default=3)
    a = parser.parse_args()
    hb = str(pathlib.Path(a.heavyball).resolve())
    seconds = 2 if a.quick else 10
    funnel = "assets/scenes/funnel.json"

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, cwd=ROOT).stdout.strip() or "unknown"
    except FileNotFoundError:  # no git on the machine
        commit = "unknown"
    version = subprocess.run([hb, "--version"], capture_output=True, text=True).stdout.strip()
    page = [
        "# Simulation: what was measured",
        "",
        f"Written by `tools/simulation_report.py` (run by `scripts/results.sh`) on "
        f"{datetime.date.today().isoformat()} at commit {commit} ({version}, the portable "
        f"`release` preset), on {os.cpu_count()} cores. Times are CPU time (user + system) of "
        f"the `heavyball` process, the range over {plural(a.runs, 'identical run')}, with the "
        "step on every core (the default): the threads' times add up, so a run is cheaper "
        "on one thread than its CPU time here says (docs/viewer.md gives the rain's wall time on "
        "one). The machine may be shared, so compare ratios within one page. Earlier measurements, with what changed "
        "between them: [simulation-history.md](simulation-history.md). Thousands of bodies "
        "piled up, and what a second core buys: [large-piles.md](large-piles.md).",
        ""]

    column = ["--scene", funnel, "--objects", "100", "--drop-interval", "0", "--seconds",
              str(seconds)]
    first = simulate_runs(hb, column, a.runs)
    summary, cpus = first[0][0], [cpu for _, cpu in first]
    page += setup_section("Funnel, 100 YCB objects dropped from a column (the reference set-up)",
                          column, summary, cpus,
                          "The objects are stacked in a column above the funnel and fall at once.")
    longer = column[:-1] + [str(2 * seconds)]
    second = simulate_runs(hb, longer, a.runs)
    summary2 = second[0][0]
    # By the stage timers: the processes' CPU times differ by their start-up's noise, which can
    # exceed what the settled pile costs.
    extra = [s2 - s1 for s1, s2 in zip(sorted(stepping_seconds(s) for s, _ in first),
                                         sorted(stepping_seconds(s) for s, _ in second))]
    if min(extra) > 0:
        cost = (f"{spread(extra)} s of stepping by the stage timers, "
                f"{spread([seconds / e for e in extra], 0)}x real time")
    else:  # less than the first 10 s vary by from run to run
        most = max(max(extra), 0.01)
        cost = (f"less than the runs' noise ({min(extra):.2f} to {max(extra):.2f} s of stepping "
                f"by the stage timers), "
                f"so at most {most:.2f} s, at least {seconds / most:.0f}x real time")
    page += [f"The next {seconds} s (the {2 * seconds} s run minus this one, the pile settled and "
             f"its islands asleep): {cost}; kinetic energy at {2 * seconds} s: "
             f"{summary2['kinetic_energy_final']:.3g} J.", ""]

    shipped = ["--scene", funnel, "--seconds", str(2 * seconds)]
    summary, cpus = simulate(hb, shipped, a.runs)
    page += setup_section(f"Funnel as shipped (one drop every 0.2 s, {2 * seconds} s)", shipped,
                          summary, cpus, "The pile is fed for the whole run.")

    rained = ["--scene", funnel, "--objects", "200" if not a.quick else "40", "--drop-interval",
              "0.05", "--seconds", "15" if not a.quick else "3"]
    summary, cpus = simulate(hb, rained, a.runs)
    page += setup_section("Funnel, objects rained in (one every 0.05 s)", rained, summary, cpus)

    # A recording's size, per simulated second, for the small and the large set-up.
    page += ["## Recordings", "", "```sh",
             "build/release/apps/heavyball simulate --scene SCENE --seconds S --record run.h5",
             "```", "", "| scene | simulated | bodies | problems per step | file | per simulated second |",
             "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as work:
        for scene, sim_seconds in (("assets/scenes/funnel-pair.json", 1),
                                   (funnel, seconds)):
            file = pathlib.Path(work) / "run.h5"
            summary, _ = run_json([hb, "simulate", "--scene", scene, "--seconds", str(sim_seconds),
                                   "--record", str(file), "--overwrite", "--json"])
            size = file.stat().st_size
            page.append(f"| `{scene}` | {sim_seconds} s | {summary['bodies']} | "
                        f"{summary['gjk_calls'] / summary['steps']:.1f} | {size / 1e6:.2f} MB | "
                        f"{size / 1e6 / sim_seconds:.2f} MB |")
    page += ["", "The format, its compression and what recording costs: "
             "[recording-format.md](recording-format.md), [batch.md](batch.md).", ""]

    broad = subprocess.run([hb, "bench", "broadphase"] +
                           (["--max-bodies", "1000", "--repeats", "10"] if a.quick else []),
                           capture_output=True, text=True, check=True, cwd=ROOT).stdout
    page += ["## Broad phase, 10 to 10,000 bodies", "", "```sh",
             "build/release/apps/heavyball bench broadphase", "```", "",
             "Sort and sweep per grid column plus the exact OBB test, with temporal coherence; "
             "the second table puts the boxes among the funnel scene's statics (kept apart in an "
             "AABB tree). What it printed:", "", "```", broad.rstrip(), "```", ""]
    pathlib.Path(a.out).write_text("\n".join(page))


if __name__ == "__main__":
    main()
