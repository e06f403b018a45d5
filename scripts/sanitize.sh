#!/usr/bin/env bash
# The sanitizer job of CI: the fuzz preset (clang -O1, AddressSanitizer + UndefinedBehaviorSanitizer,
# libFuzzer) builds the dynamics, physics and engine suites and the four fuzz targets, runs the
# suites sanitized, then fuzzes each target for SECONDS (default 20) from its seed corpus.
# Left out, for CI's time: the collision suite (11 minutes sanitized, docs/testing.md) and the
# command-line suite.
# Usage: scripts/sanitize.sh [SECONDS]   (after scripts/install-deps.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target hb_dynamics_tests hb_physics_tests \
  hb_engine_tests fuzz_query fuzz_scene fuzz_obj_hull fuzz_recording
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export HEAVYBALL_DATA="$PWD"  # the shipped files the suites read
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
for suite in hb_dynamics_tests hb_physics_tests hb_engine_tests; do
  echo "sanitize.sh: $suite"
  build/fuzz/tests/$suite --gtest_brief=1
done
scripts/fuzz.sh "$seconds" query scene obj_hull recording
