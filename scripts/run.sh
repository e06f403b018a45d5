#!/usr/bin/env bash
# Installs what is missing, builds the Release preset and runs the main job: YCB objects dropped
# into the funnel at 120 Hz, headless, with a summary of the run. Extra arguments go to
# `heavyball simulate` (e.g. --seconds 20 --objects 50 --variant gjk --json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target heavyball
build/release/apps/heavyball simulate --scene assets/scenes/funnel.json --seconds 10 "$@"
