#!/usr/bin/env bash
# Multi-class grid timing (issue 41, "grid per pair"): a 5 x 5 (C, gamma)
# grid on letter.scale (15,000 rows, 26 classes, 325 class pairs), 10 folds,
# `svm-grid` (grid.py, one worker, LIBSVM's folds, svm-train -m $M) against
# the release `cvbench grid` on the same grid, folds and -m, per reuse level
# (default: `all`, the C path per (fold, pair) on the shared cache, and the
# exact `gamma+threads`), with each run's final line (C gamma rate) and the
# load average before / after it.
#
# Usage: benches/multiclass_grid.sh
# Env: CVBENCH_DATA_DIR (letter.scale.xz), BIN (release cvbench, default
# target/release/cvbench), THREADS (2), GRID (grid.py's range options,
# default "-log2c -1,7,2 -log2g 3,-5,-2": C = 2^-1 .. 2^7, gamma = 2^3 ..
# 2^-5), FOLDS (10), M (svm-train's -m, 2000), REUSES ("all gamma+threads"),
# SVM_GRID=0 (skip svm-grid, e.g. when timed earlier), WORK (temp).
# Prints a Markdown table on stdout (progress on stderr); every run once.
set -euo pipefail
DATA=${CVBENCH_DATA_DIR:-/work/shared/datasets}
BIN=${BIN:-target/release/cvbench}
THREADS=${THREADS:-2}
GRID=${GRID:--log2c -1,7,2 -log2g 3,-5,-2}
FOLDS=${FOLDS:-10}
M=${M:-2000}
REUSES=${REUSES:-all gamma+threads}
SVM_GRID=${SVM_GRID:-1}
WORK=${WORK:-$(mktemp -d)}
[ -x "$BIN" ] || { echo "no $BIN: run cargo build --release --locked" >&2; exit 2; }
if [ "$SVM_GRID" = 1 ]; then
  for p in python3 svm-grid svm-train; do
    command -v $p >/dev/null || { echo "$p not installed (make peers)" >&2; exit 2; }
  done
fi
f="$WORK/letter.scale"
[ -f "$f" ] || xz -dc "$DATA/letter.scale.xz" >"$f"

load() { cut -d' ' -f1 /proc/loadavg; }
# Seconds of one run of "$@" (its stdout in $WORK/last.out).
once() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$WORK/last.out" 2>"$WORK/last.err"
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}
final() { tail -1 "$WORK/last.out"; }

echo "| tool | seconds | final line (C gamma rate) | SMO iterations | load before / after |"
echo "|---|---|---|---|---|"
# shellcheck disable=SC2086 # GRID is a list of options
if [ "$SVM_GRID" = 1 ]; then
  echo "[letter] svm-grid $GRID -v $FOLDS -m $M" >&2
  l=$(load)
  s=$(once python3 "$(command -v svm-grid)" -svmtrain "$(command -v svm-train)" \
    -gnuplot null -out null $GRID -v "$FOLDS" -m "$M" "$f")
  echo "| svm-grid (one worker) | $s | $(final) | | $l / $(load) |"
fi
for reuse in $REUSES; do
  echo "[letter] cvbench grid --reuse $reuse --threads $THREADS" >&2
  l=$(load)
  s=$(once "$BIN" grid -gnuplot null -out null $GRID -v "$FOLDS" -m "$M" \
    --reuse "$reuse" --threads "$THREADS" --json "$WORK/ours-$reuse.json" "$f")
  it=$(python3 -c "import json,sys; print(sum(p['iterations'] for p in json.load(open(sys.argv[1]))['points']))" "$WORK/ours-$reuse.json")
  echo "| cvbench grid --reuse $reuse --threads $THREADS | $s | $(final) | $it | $l / $(load) |"
done
