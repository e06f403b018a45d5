#!/bin/bash
# Submits a heavyball batch as a Slurm array of SHARDS tasks and the merge that follows it:
#   scripts/slurm/submit.sh SHARDS SCENE RUNS SECONDS OUT [batch options, e.g. --record]
# Prints the two job ids. Task logs go to OUT. sbatch options go in SBATCH_* variables (e.g.
# SBATCH_PARTITION, SBATCH_TIMELIMIT); the CPUs per task in HEAVYBALL_CPUS_PER_TASK (default 4);
# the binary in HEAVYBALL (default: heavyball on PATH).
set -euo pipefail
if [ $# -lt 5 ]; then
  echo "usage: $0 SHARDS SCENE RUNS SECONDS OUT [batch options]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
shards=$1 scene=$(realpath "$2") runs=$3 seconds=$4 out=$(realpath -m "$5")
shift 5
mkdir -p "$out"
array=$(sbatch --parsable --array="0-$((shards - 1))" --chdir="$out" \
  --cpus-per-task="${HEAVYBALL_CPUS_PER_TASK:-4}" \
  "$here/batch-array.sbatch" "$scene" "$runs" "$seconds" "$out" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --chdir="$out" "$here/merge.sbatch" "$out")
merge=${merge%%;*}
echo "array job $array ($shards tasks), merge job $merge"
