#!/usr/bin/env bash
# Runs every libFuzzer target of the fuzz preset for SECONDS each (default 30) on a scratch copy
# of its seed corpus (tests/fuzz/corpus/<target>). A crash, a leak, a sanitizer report or an
# input slower than 10 s stops the run with a non-zero status; the input is saved in
# build/fuzz/findings/ and becomes a regression test's input (docs/testing.md).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (build first: cmake --build --preset fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(query scene obj_hull recording run_file)
findings=build/fuzz/findings
mkdir -p "$findings"
for target in "${targets[@]}"; do
  binary=build/fuzz/tests/fuzz/fuzz_$target
  [ -x "$binary" ] || { echo "fuzz.sh: $binary is not built (cmake --build --preset fuzz)" >&2; exit 2; }
  corpus=$(mktemp -d)
  trap 'rm -rf "$corpus"' EXIT
  cp -r tests/fuzz/corpus/"$target"/. "$corpus"/
  echo "fuzz_$target: ${seconds} s"
  # One process: the recording target writes its input to a file named after the process.
  if ! "$binary" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
       -artifact_prefix="$findings/$target-" -print_final_stats=1 > "$findings/$target.log" 2>&1; then
    tail -n 40 "$findings/$target.log" >&2
    echo "fuzz.sh: fuzz_$target found a failing input in $findings" >&2
    exit 1
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$findings/$target.log" | tr '\n' ' '
  echo
  rm -rf "$corpus"
  trap - EXIT
done
