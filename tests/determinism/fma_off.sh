#!/usr/bin/env bash
# The same simulation, recorded, with glibc's FMA versions of the math functions switched off
# (GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA, as on a CPU without FMA) and on: the recordings must
# be the same bytes and the state hashes equal. Before the step's math went through
# collision/portable_math.hpp, a 30-object funnel run already ended with another state hash.
# Usage: fma_off.sh HEAVYBALL SOURCE_DIR
set -euo pipefail
heavyball="$1"
source_dir="$2"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! grep -qw fma /proc/cpuinfo; then
  echo "this CPU has no FMA: both runs would take the same path, nothing to compare"
  exit 77
fi
run() {  # run NAME [TUNABLES]
  GLIBC_TUNABLES="${2:-}" "$heavyball" simulate --scene "$source_dir/assets/scenes/funnel.json" \
    --objects 30 --seconds 3 --threads 2 --record "$dir/$1.h5" --json >"$dir/$1.json"
}
run fma
run nofma glibc.cpu.hwcaps=-FMA
hash() { /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["state_hash"])' "$1"; }
if [ "$(hash "$dir/fma.json")" != "$(hash "$dir/nofma.json")" ]; then
  echo "state hashes differ: $(hash "$dir/fma.json") with FMA, $(hash "$dir/nofma.json") without"
  exit 1
fi
cmp "$dir/fma.h5" "$dir/nofma.h5"
echo "the same state hash $(hash "$dir/fma.json") and the same recording with and without FMA"
