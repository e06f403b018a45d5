#!/usr/bin/python3
"""Checks tools/plot.py: every figure is drawn from a small CSV into a real PNG, and a CSV without
the expected columns gives one clear line and exit code 1. Usage: test_plot.py PLOT_SCRIPT DATA_DIR"""

import os
import subprocess
import sys
import tempfile

script, data = sys.argv[1], sys.argv[2]
cases = [("warmstart", "warmstart-small.csv"), ("iterations", "bench-gjk-small.csv"),
         ("time", "bench-gjk-small.csv"), ("speedups", "bench-gjk-small.csv"),
         ("peers", "bench-gjk-small.csv"), ("cast", "bench-cast-small.csv"),
         ("smooth", "bench-smooth-small.csv")]
failures = []
with tempfile.TemporaryDirectory() as tmp:
    for figure, csv_name in cases:
        out = os.path.join(tmp, figure + ".png")
        run = subprocess.run([sys.executable, script, figure, os.path.join(data, csv_name),
                              "-o", out], capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"{figure}: exit {run.returncode}: {run.stderr.strip()}")
            continue
        with open(out, "rb") as f:
            png = f.read()
        if not png.startswith(b"\x89PNG\r\n\x1a\n") or len(png) < 10_000:
            failures.append(f"{figure}: {out} is not a drawn PNG ({len(png)} bytes)")

    wrong = os.path.join(tmp, "wrong.csv")
    with open(wrong, "w") as f:
        f.write("a,b\n1,2\n")
    run = subprocess.run([sys.executable, script, "warmstart", wrong, "-o",
                          os.path.join(tmp, "x.png")], capture_output=True, text=True)
    if run.returncode != 1 or "missing column" not in run.stderr:
        failures.append(f"wrong columns: exit {run.returncode}, stderr {run.stderr!r}")

for f in failures:
    print("FAIL", f)
print(f"{len(cases) + 1 - len(failures)} of {len(cases) + 1} checks passed")
sys.exit(1 if failures else 0)
