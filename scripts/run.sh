#!/usr/bin/env bash
# Installs what is missing, builds the Release preset and runs the main job: the GJK benchmark
# on the YCB hulls shipped in assets/ (the paper's protocol, reduced repeats for a quick look).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target heavyball
build/release/apps/heavyball bench gjk --poses 10 --repeats 20 "$@"
