#!/usr/bin/env bash
# Installs what is missing, builds the Release preset and runs the main job: YCB objects dropped
# into the funnel at 120 Hz. With a display, in the viewer; without one, headless with a summary
# of the run (extra arguments then go to `heavyball simulate`, e.g. --seconds 20 --json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target heavyball heavyball-viewer
viewer=build/release/apps/viewer/heavyball-viewer
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$viewer" ]; then
  # Exit code 2: the display could not be opened; fall back to the headless run.
  status=0
  "$viewer" --scene assets/scenes/funnel.json || status=$?
  [ "$status" -ne 2 ] && exit "$status"
fi
build/release/apps/heavyball simulate --scene assets/scenes/funnel.json --seconds 10 "$@"
