#!/bin/bash
# A heavyball batch on a real one-node Slurm cluster, started here in a temporary folder: munged,
# slurmctld and slurmd (as root, on non-default ports, no cgroups). Submits a 4-task array of a
# recorded batch with scripts/slurm/submit.sh, waits for the merge job, and checks that every run
# file is the one a local single-process batch writes (recordings byte for byte, run summaries
# but for their wall-clock fields). Then cancels a task of a second array midway, requeues it
# and checks that the batch completes with nothing lost. Exit 77 (skipped) where the daemons are
# not installed or cannot start; always stops what it started.
#   slurm_cluster_test.sh HEAVYBALL SOURCE_DIR
set -uo pipefail
hb=$(realpath "$1") src=$(realpath "$2")
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*"; for f in "$tmp"/*.log "$tmp"/cluster*/*.out; do [ -f "$f" ] && { echo "== $f"; tail -20 "$f"; }; done; exit 1; }
for c in munged slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
  command -v "$c" >/dev/null || skip "$c is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" = 0 ] || skip "slurmd needs root"

tmp=$(mktemp -d /tmp/hb-slurm-XXXXXX)
stop() {
  for p in slurmd slurmctld munged; do
    [ -f "$tmp/$p.pid" ] && kill "$(cat "$tmp/$p.pid")" 2>/dev/null
  done
  sleep 1
  for p in slurmd slurmctld munged; do
    [ -f "$tmp/$p.pid" ] && kill -9 "$(cat "$tmp/$p.pid")" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap stop EXIT

# munge with its own key and socket.
head -c 1024 /dev/urandom > "$tmp/munge.key" && chmod 400 "$tmp/munge.key"
mkdir -p "$tmp/munge" && chmod 700 "$tmp/munge"
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge/munge.socket" \
  --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munge/seed" ||
  skip "munged does not start ($(tail -1 "$tmp/munged.log" 2>/dev/null))"

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
mkdir -p "$tmp/state" "$tmp/spool"
export SLURM_CONF="$tmp/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=heavyball-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF" || skip "slurmctld does not start"
slurmd -f "$SLURM_CONF" || skip "slurmd does not start"
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 0.5
done
sinfo -h -o %T 2>/dev/null | grep -q idle || skip "the node does not come up idle: $(sinfo 2>&1 | tail -1)"
echo "cluster up: $(sinfo -h -o '%P %D %T %c')"

scene="$src/assets/scenes/funnel-pair.json"
export HEAVYBALL="$hb" HEAVYBALL_CPUS_PER_TASK=1 HEAVYBALL_DATA="$src"
wait_job() {  # until job $1 (and its array tasks) left the queue, at most $2 seconds
  for _ in $(seq $(($2 * 2))); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  return 1
}
same_runs() {  # every run of local batch $1 is in the shards of $2, recordings byte for byte
  local n=0
  for f in "$1"/runs/run-*.h5; do
    local name found
    name=$(basename "$f")
    found=$(ls "$2"/shard-*/runs/"$name" 2>/dev/null | head -1)
    [ -n "$found" ] || { echo "missing $name"; return 1; }
    cmp -s "$f" "$found" || { echo "$name differs"; return 1; }
    /usr/bin/python3 - "${f%.h5}.json" "${found%.h5}.json" <<'PY' || return 1
import json, sys
wall = {"wall_s", "steps_per_s", "real_time_factor", "stage_ms", "setup_wall_s", "checksum", "h5", "json"}
a, b = (json.load(open(p)) for p in sys.argv[1:3])
strip = lambda d: {k: v for k, v in d.items() if k not in wall}
if strip(a) != strip(b):
    sys.exit(f"{sys.argv[1]}: run summaries differ")
PY
    n=$((n + 1))
  done
  echo "$n runs identical"
}

# 1. A 4-task array and its merge, against the same batch in one local process.
"$hb" batch --scene "$scene" --runs 8 --seconds 0.5 --record --out "$tmp/local" --jobs 1 \
  >/dev/null 2>&1 || fail "the local batch"
start=$(date +%s%N)
submitted=$("$src/scripts/slurm/submit.sh" 4 "$scene" 8 0.5 "$tmp/cluster" --record) ||
  fail "submit.sh: $submitted"
echo "$submitted"
merge=$(echo "$submitted" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')
array=$(echo "$submitted" | sed -n 's/array job \([0-9]*\).*/\1/p')
wait_job "$array" 240 || fail "the array job did not finish"
wait_job "$merge" 60 || fail "the merge job did not finish"
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
[ -f "$tmp/cluster/all/index.csv" ] || fail "no merged index (merge job output: $(cat "$tmp"/cluster/heavyball-merge-*.out 2>/dev/null))"
[ "$(tail -n +2 "$tmp/cluster/all/index.csv" | wc -l)" = 8 ] || fail "the merged index lists $(tail -n +2 "$tmp/cluster/all/index.csv" | wc -l) runs, not 8"
same_runs "$tmp/local" "$tmp/cluster" || fail "cluster runs differ from the local ones"
echo "array of 4 tasks and merge: 8 runs in ${elapsed} ms (submission to merged index)"

# 2. Cancel a task midway (scancel), requeue it (scontrol requeue), and lose nothing: the task
# resumes its shard, keeping the runs it finished; the shards then merge.
# Runs of resting bodies cost tens of milliseconds once the assets are loaded: 32 per task keep
# the task busy for about a second after its first run, long enough to cancel it midway.
"$hb" batch --scene "$scene" --runs 64 --seconds 20 --record --out "$tmp/local2" --jobs 1 \
  >/dev/null 2>&1 || fail "the second local batch"
mkdir -p "$tmp/cluster2"
array=$(sbatch --parsable --array=0-1 --chdir="$tmp/cluster2" --cpus-per-task=1 \
  "$src/scripts/slurm/batch-array.sbatch" "$scene" 64 20 "$tmp/cluster2" --record) ||
  fail "sbatch: $array"
array=${array%%;*}
for _ in $(seq 600); do  # until task 1 has finished a run and is on the next
  ls "$tmp"/cluster2/shard-1/runs/run-*.h5 >/dev/null 2>&1 && break
  sleep 0.1
done
done_before=$(ls "$tmp"/cluster2/shard-1/runs/*.h5 2>/dev/null | wc -l)
scancel "${array}_1" || fail "scancel"
for _ in $(seq 40); do
  squeue -h -j "${array}_1" -o %T 2>/dev/null | grep -q RUNNING || break
  sleep 0.25
done
scontrol requeue "${array}_1" || fail "scontrol requeue $(squeue -j "${array}_1" 2>&1 | tail -1)"
# A requeued job is held back for two minutes (its begin time) before it may start again: lift
# that here, once it is pending again.
for _ in $(seq 80); do
  state=$(squeue -h -j "${array}_1" -o %T 2>/dev/null)
  [ "$state" = RUNNING ] && break
  [ "$state" = PENDING ] && scontrol update jobid="${array}_1" StartTime=now >/dev/null 2>&1
  sleep 0.25
done
[ "$done_before" -lt 32 ] || fail "task 1 finished before it could be cancelled"
echo "cancelled and requeued task 1 after $done_before of its 32 runs"
wait_job "$array" 300 || fail "the requeued array did not finish"
grep -q "restart 1" "$tmp"/cluster2/heavyball-batch-*_1.out || fail "task 1 did not restart"
"$hb" batch-merge "$tmp"/cluster2/shard-* --out "$tmp/cluster2/all" >/dev/null 2>&1 ||
  fail "batch-merge after the requeue: $("$hb" batch-merge "$tmp"/cluster2/shard-* 2>&1 | tail -3)"
same_runs "$tmp/local2" "$tmp/cluster2" || fail "runs differ after the requeue"
echo "a task cancelled and requeued midway resumed; nothing lost"
