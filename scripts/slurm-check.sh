#!/usr/bin/env bash
# make slurm-check: a real test on a real SLURM.
#
# Starts a throwaway single-node SLURM cluster on this machine (munged,
# slurmctld and slurmd on localhost, every state file in a temporary folder),
# submits the quick configs as a job array of 3 tasks plus the dependent
# collect job (`cvbench slurm ... --tasks 3 --submit`), waits for them, checks
# that the collected records equal a single-machine run of the same configs
# (timing and `_sched` columns aside), and shuts the cluster down (also on
# failure).
#
# Needs root (daemons, apt). Installs the Debian packages slurm-wlm and munge
# with apt-get when they are missing. Exit: 0 pass, 1 fail, 2 cannot run here.
#
# Environment: BIN (the cvbench binary; default target/debug/cvbench under
# CARGO_TARGET_DIR or ./target), CONFIGS (default configs/quick/*.toml),
# TASKS (default 3), TIMEOUT (seconds to wait for the jobs, default 1800).
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
    echo "slurm-check: needs root (it installs slurm-wlm and munge and starts slurmctld, slurmd and munged); run it as root, e.g. sudo make slurm-check" >&2
    exit 2
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=${BIN:-$TARGET/debug/cvbench}
TASKS=${TASKS:-3}
TIMEOUT=${TIMEOUT:-1800}
if [ -z "${CONFIGS:-}" ]; then
    CONFIGS=$(ls "$ROOT"/configs/quick/*.toml)
fi
if [ ! -x "$BIN" ]; then
    echo "slurm-check: no cvbench binary at $BIN (cargo build first, or set BIN=...)" >&2
    exit 2
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    echo "slurm-check: installing slurm-wlm and munge with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm munge >/dev/null || {
        echo "slurm-check: apt-get install slurm-wlm munge failed" >&2
        exit 2
    }
fi

WORK=$(mktemp -d /tmp/cvbench-slurm.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
    set +e
    command -v scancel >/dev/null && SLURM_CONF=$WORK/slurm.conf scancel --user=root >/dev/null 2>&1
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    sleep 1
    for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
    if [ -z "${KEEP:-}" ]; then rm -rf "$WORK"; else echo "slurm-check: kept $WORK"; fi
}
trap cleanup EXIT

# --- munge: a fresh key and socket in the temporary folder -------------------
mkdir -p "$WORK/munge" "$WORK/munge-run" "$WORK/munge-log"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$WORK/munge" "$WORK/munge-run"
chmod 400 "$WORK/munge/munge.key"
SOCK=$WORK/munge-run/munge.socket
munged --force --key-file="$WORK/munge/munge.key" --socket="$SOCK" \
    --pid-file="$WORK/munge-run/munged.pid" --log-file="$WORK/munge-log/munged.log" \
    --seed-file="$WORK/munge/munge.seed"
sleep 0.5
PIDS+=("$(cat "$WORK/munge-run/munged.pid")")

# --- slurm.conf: one node (this machine), one partition ----------------------
CPUS=$(nproc)
MEM=$(awk '/MemTotal/ {m = int($2 / 1024) - 1024; if (m < 512) m = 512; print m}' /proc/meminfo)
mkdir -p "$WORK/spool/ctld" "$WORK/spool/d" "$WORK/log"
cat >"$WORK/slurm.conf" <<EOF
ClusterName=cvbench-check
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCK
CredType=cred/munge
StateSaveLocation=$WORK/spool/ctld
SlurmdSpoolDir=$WORK/spool/d
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
NodeName=localhost CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$WORK/slurm.conf

slurmctld -f "$SLURM_CONF" -i
slurmd -f "$SLURM_CONF"
sleep 1
PIDS+=("$(cat "$WORK/slurmctld.pid")" "$(cat "$WORK/slurmd.pid")")
for _ in $(seq 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then break; fi
    sleep 1
done
if ! sinfo -h -o '%T' | grep -qE '^(idle|mixed|allocated)'; then
    echo "slurm-check: the node did not come up:" >&2
    sinfo >&2 || true
    tail -20 "$WORK/log/slurmctld.log" "$WORK/log/slurmd.log" >&2 || true
    exit 1
fi
echo "slurm-check: cluster up ($CPUS CPUs, ${MEM} MB): $(sinfo -h -o '%P %T %D')"

# --- the cluster run ---------------------------------------------------------
DATA=$WORK/data
mkdir -p "$DATA"
cd "$ROOT"
# shellcheck disable=SC2086
"$BIN" slurm $CONFIGS --tasks "$TASKS" --cpus 1 --out "$WORK/cluster" --data-dir "$DATA" --submit \
    | tee "$WORK/submit.out"
ARRAY=$(sed -n 's/^submitted array job \([0-9]*\).*/\1/p' "$WORK/submit.out")
COLLECT=$(sed -n 's/.*collect job \([0-9]*\).*/\1/p' "$WORK/submit.out")
[ -n "$ARRAY" ] && [ -n "$COLLECT" ] || { echo "slurm-check: no job ids from cvbench slurm" >&2; exit 1; }

# --- meanwhile, the single-machine run ---------------------------------------
# shellcheck disable=SC2086
"$BIN" run $CONFIGS --out "$WORK/single" --data-dir "$DATA" >"$WORK/single.out" 2>&1 || {
    cat "$WORK/single.out" >&2
    exit 1
}

start=$(date +%s)
while squeue -h -j "$ARRAY,$COLLECT" 2>/dev/null | grep -q .; do
    if [ $(($(date +%s) - start)) -gt "$TIMEOUT" ]; then
        echo "slurm-check: jobs still queued after ${TIMEOUT}s:" >&2
        squeue >&2
        exit 1
    fi
    sleep 2
done
SLURM_DIR=$WORK/cluster/slurm
if [ "$(echo $CONFIGS | wc -w)" -eq 1 ]; then SLURM_DIR=$(ls -d "$WORK"/cluster/*/slurm); fi
echo "slurm-check: array job $ARRAY and collect job $COLLECT left the queue"
for f in "$SLURM_DIR"/*.out; do
    echo "--- $(basename "$f")"
    cat "$f"
done

# --- compare ------------------------------------------------------------------
# Records are stored as Parquet; compare their CSV exports without the columns
# that may differ between runs (timings, `_sched` counters:
# src/results/columns.rs, through `cvbench export --reproducible`).
fail=0
runs=0
for d in "$WORK"/single/*/; do
    name=$(basename "$d")
    runs=$((runs + 1))
    if [ ! -f "$WORK/cluster/$name/records.parquet" ]; then
        echo "slurm-check: FAIL $name: no collected records.parquet" >&2
        fail=1
        continue
    fi
    "$BIN" export --reproducible "$d" -o "$WORK/single-$name.csv" >/dev/null
    "$BIN" export --reproducible "$WORK/cluster/$name" -o "$WORK/cluster-$name.csv" >/dev/null
    if diff "$WORK/single-$name.csv" "$WORK/cluster-$name.csv" >"$WORK/diff.txt"; then
        shards=$(grep -o '"shard": "[^"]*"' "$WORK/cluster/$name/cells/runs.json" | sort -u | tr '\n' ' ')
        echo "slurm-check: $name: $(($(wc -l <"$WORK/single-$name.csv") - 1)) records equal (timing and _sched columns aside); cells by $shards"
    else
        echo "slurm-check: FAIL $name: collected records differ from the single-machine run:" >&2
        head -20 "$WORK/diff.txt" >&2
        fail=1
    fi
done
if [ "$runs" -eq 0 ]; then
    echo "slurm-check: FAIL: the single-machine run wrote nothing" >&2
    exit 1
fi
# The collect job (not only the last shard) must have assembled every run.
collected=$(cat "$SLURM_DIR"/collect-*.out 2>/dev/null | grep -c ': assembled ' || true)
if [ "$collected" -ne "$runs" ]; then
    echo "slurm-check: FAIL: the collect job assembled $collected of $runs runs" >&2
    fail=1
fi
if [ "$fail" -ne 0 ]; then exit 1; fi
echo "slurm-check: PASS ($runs runs, array of $TASKS tasks + collect job)"
