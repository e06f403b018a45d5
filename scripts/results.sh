#!/usr/bin/env bash
# Regenerates docs/results/ (every table and figure that docs/results.md shows),
# docs/simulation.md, the measured figures of the other pages (tools/doc_figures.py) and the
# viewer's pictures in docs/images/, on this machine. Installs
# what is missing and builds the Release preset first.
#
#   scripts/results.sh           # the sizes of docs/results.md (about 20 minutes on 2 cores)
#   scripts/results.sh --quick   # small sizes, to check the pipeline (a few minutes)
#
# Raw CSVs and recordings go to build/results/ (large); docs/results/ gets the tables and figures.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
[ "${1:-}" = "--quick" ] && quick=1
if [ $quick -eq 1 ]; then
  pairs=6 poses=4 repeats=10 fw_pairs=10 fw_poses=10 table1_poses=10 runs=10 study_repeats=10
  sim_objects=20 sim_seconds=2 cast_sizes=200,800 cast_configurations=10 smooth_poses=20
else
  pairs=60 poses=20 repeats=50 fw_pairs=100 fw_poses=10 table1_poses=100 runs=1000
  study_repeats=20 sim_objects=100 sim_seconds=10
  cast_sizes=200,800,3200,12800,51200,204800 cast_configurations=50 smooth_poses=10000
fi

scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target heavyball
hb=build/release/apps/heavyball
out=docs/results
data=build/results
mkdir -p "$out" "$data"
plot() { /usr/bin/python3 tools/plot.py "$@"; }
# Runs a command, keeps what it prints (with the command line on top) in docs/results/NAME.txt.
table() {
  local name=$1
  shift
  echo "== $name: $*" >&2
  { echo "\$ $*"; "$@"; } >"$out/$name.txt"
}
dense="-0.1,-0.05,-0.02,-0.01,-0.005,-0.002,-0.001,0,0.001,0.002,0.005,0.01,0.02,0.05,0.1,0.2,0.5,1"

# Fig. 7: iterations against signed distance on ellipsoids, distance and Boolean.
table bench-gjk-ellipsoids "$hb" bench gjk --shapes ellipsoids --pairs $((pairs * 2)) \
  --poses "$poses" --repeats "$repeats" --distances "$dense" --methods gjk,polyak,nesterov \
  --csv "$data/ellipsoids.csv"
plot iterations "$data/ellipsoids.csv" -o "$out/fig7-ellipsoids-iterations.png"

# Fig. 9, 10, 11: iterations, time and per-problem speed-ups on YCB hulls.
table bench-gjk-ycb-distances "$hb" bench gjk --shapes ycb --pairs "$pairs" --poses "$poses" \
  --repeats "$repeats" --distances "$dense" --methods gjk,polyak,nesterov --csv "$data/ycb.csv"
plot iterations "$data/ycb.csv" -o "$out/fig9-ycb-iterations.png"
plot time "$data/ycb.csv" -o "$out/fig10-ycb-time.png"
plot speedups "$data/ycb.csv" -o "$out/fig11-ycb-speedups.png"

# Fig. 12: heavyball and the peer libraries, Boolean checks in three distance categories.
table bench-gjk-peers "$hb" bench gjk --table peers --pairs "$pairs" --poses "$poses" \
  --repeats "$repeats" --csv "$data/peers.csv"
plot peers "$data/peers.csv" -o "$out/fig12-peers.png"

# Table I: three meshes of increasing vertex count, -0.01 <= d <= 0.01 m.
table table1-meshes "$hb" bench gjk --table meshes --poses "$table1_poses" --repeats "$repeats"

# Table II of the RSS version: Frank-Wolfe baselines against GJK and Nesterov, in iterations.
table table2-fw-ellipsoids "$hb" bench gjk --table fw --shapes ellipsoids --pairs "$fw_pairs" \
  --poses "$fw_poses"
table table2-fw-cubes "$hb" bench gjk --table fw --shapes cubes --pairs "$fw_pairs" \
  --poses "$fw_poses"

# Fig. 13: the warm-start study on the paper's dataset (random YCB pairs dropped into the funnel,
# 1 s at 120 Hz each).
rm -rf "$data/funnel-pair"
"$hb" batch --scene assets/scenes/funnel-pair.json --runs "$runs" --seconds 1 --record \
  --out "$data/funnel-pair" >/dev/null
table study-warmstart "$hb" study warmstart "$data/funnel-pair" --repeats "$study_repeats" \
  --csv "$data/study-warmstart.csv" --plot "$out/fig13-warmstart.png"

# Simulation peers: the funnel in heavyball, Bullet and MuJoCo.
table bench-sim "$hb" bench sim --scene assets/scenes/funnel.json --objects "$sim_objects" \
  --seconds "$sim_seconds"

# Collision translations (the collision-translations paper's Figs. 11-18): heavyball's GJK cast
# and CTA against Bullet's two casts and FCL's on polyhedra of 200 to 200,000 vertices (about 8
# minutes).
table bench-cast "$hb" bench cast --sizes "$cast_sizes" --configurations "$cast_configurations" \
  --sequences 2 --csv "$data/cast.csv"
plot cast "$data/cast.csv" -o "$out/cast.png"

# Smooth convex bodies (the smooth-bodies paper's Table II and Fig. 5): RTR against heavyball's
# GJK + EPA and libccd's GJK-EPA on the paper's Table I shapes in contact (about 4 minutes).
table bench-smooth "$hb" bench smooth --poses "$smooth_poses" --csv "$data/smooth.csv"
plot smooth "$data/smooth.csv" -o "$out/smooth.png"

# docs/simulation.md: the funnel set-ups, a recording's size, the broad phase.
echo "== docs/simulation.md" >&2
/usr/bin/python3 tools/simulation_report.py "$hb" docs/simulation.md $([ $quick -eq 1 ] && echo --quick)
# The other pages' measured figures (marked <!-- figure NAME --> in README.md and docs/).
echo "== measured figures of the docs (tools/doc_figures.py)" >&2
/usr/bin/python3 tools/doc_figures.py "$hb" $([ $quick -eq 1 ] && echo --quick)

# The viewer's picture (README, docs/viewer.md), under a virtual X server when there is no display.
cmake --build --preset release -j "$(nproc)" --target heavyball-viewer
viewer=build/release/apps/viewer/heavyball-viewer
if [ -x "$viewer" ]; then
  echo "== docs/images/viewer.png" >&2
  tests/viewer/run_under_xvfb.sh "$viewer" --scene assets/scenes/funnel.json --drop 45 \
    --rain-rate 10 --warmup 4 --frames 30 --size 1280x720 --msaa 4 --no-settings \
    --screenshot docs/images/viewer.png >/dev/null
  echo "== docs/images/viewer-debug-selected.png" >&2
  tests/viewer/run_under_xvfb.sh "$viewer" --scene assets/scenes/funnel.json --drop 60 \
    --rain-rate 20 --warmup 2 --frames 60 --size 1280x720 --no-settings \
    --debug contacts,pairs,hulls --select 12 \
    --screenshot docs/images/viewer-debug-selected.png >/dev/null
fi

echo "results in $out/ (raw data in $data/)" >&2
