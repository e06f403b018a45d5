#!/usr/bin/env bash
# The sanitizer job of CI: the fuzz preset (clang -O1, AddressSanitizer + UndefinedBehaviorSanitizer,
# libFuzzer) builds the dynamics, physics and engine suites and the five fuzz targets, runs the
# suites sanitized, then fuzzes each target for SECONDS (default 12) from its seed corpus.
# Left out, for CI's time: the collision suite (11 minutes sanitized, docs/testing.md) and the
# command-line suite.
# Usage: scripts/sanitize.sh [SECONDS]   (after scripts/install-deps.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-12}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target hb_dynamics_tests hb_physics_tests \
  hb_engine_tests fuzz_query fuzz_scene fuzz_obj_hull fuzz_recording fuzz_run_file
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export HEAVYBALL_DATA="$PWD"  # the shipped files the suites read
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
echo "sanitize.sh: hb_dynamics_tests"
build/fuzz/tests/hb_dynamics_tests --gtest_brief=1
# The physics and engine suites side by side, one core each (4-6 minutes each sanitized). Left
# to the release suite, for CI's time: three long runs of the same code paths as the rest of the
# engine suite (2.5, 1 and 0.8 minutes sanitized), the 40-object column of the substeps suite,
# the shipped pendulum pile and a hundred objects coming to rest in the funnel.
echo "sanitize.sh: hb_physics_tests and hb_engine_tests"
build/fuzz/tests/hb_physics_tests --gtest_brief=1 > build/fuzz/physics-tests.log 2>&1 &
physics=$!
build/fuzz/tests/hb_engine_tests --gtest_brief=1 \
  --gtest_filter=-Substeps.AColumnDroppedAtOnceSinksIntoItselfFarLess:Scene.ShippedPendulumPileSwingsThroughThePile:World.HundredObjectsInTheFunnelComeToRest \
  > build/fuzz/engine-tests.log 2>&1 &
engine=$!
failed=0
for suite in physics engine; do
  pid=physics; [ "$suite" = engine ] && pid=engine
  if wait "${!pid}"; then
    tail -n 2 "build/fuzz/$suite-tests.log"
  else
    cat "build/fuzz/$suite-tests.log" >&2
    echo "sanitize.sh: the sanitized $suite suite failed" >&2
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
scripts/fuzz.sh "$seconds" query scene obj_hull recording run_file
