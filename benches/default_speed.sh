#!/usr/bin/env bash
# Is cvbench fast by default? (issue 54, item 18.) `cvbench svm -q -v 10 FILE`
# with no flags against the same CV with the best flags (-m holding the whole
# kernel matrix, the shared cache, every core), on letter.scale (15,000 rows,
# 26 classes), a9a (32,561 rows, two classes) and MNIST's first 10,000
# training digits (pixels / 255, ten classes). Both give the same accuracy
# line (checked). Target: the no-flag time within 1.3x of the best flags'.
#
# Usage: benches/default_speed.sh [letter] [a9a] [mnist]   (default: all three)
# Env: CVBENCH_DATA_DIR (xz LibSVM sets and MNIST's IDX files), BIN (release
# cvbench, default target/release/cvbench), REPS (3: the median is kept),
# WORK (temp folder for the decompressed files).
# Prints a Markdown table on stdout (progress on stderr).
set -euo pipefail
DATA=${CVBENCH_DATA_DIR:-data}
BIN=${BIN:-target/release/cvbench}
REPS=${REPS:-3}
WORK=${WORK:-$(mktemp -d)}
SETS=${*:-letter a9a mnist}
CORES=$(nproc)
[ -x "$BIN" ] || { echo "no $BIN: run cargo build --release --locked" >&2; exit 2; }

prepare() { # $1 = set name -> path of its LibSVM file
  case $1 in
    letter) f=letter.scale ;;
    a9a) f=a9a ;;
    mnist)
      [ -f "$WORK/mnist10k.scale" ] || python3 "$(dirname "$0")/mnist_libsvm.py" "$DATA" 10000 "$WORK/mnist10k.scale"
      echo "$WORK/mnist10k.scale"; return ;;
    *) echo "unknown set $1" >&2; exit 2 ;;
  esac
  [ -f "$DATA/$f.xz" ] || { echo "$f.xz not in $DATA: cvbench fetch $f" >&2; exit 2; }
  [ -f "$WORK/$f" ] || xz -dc "$DATA/$f.xz" >"$WORK/$f"
  echo "$WORK/$f"
}

# Median seconds of REPS runs of "$@"; the accuracy line in $WORK/last.
timed() {
  local times=()
  for _ in $(seq "$REPS"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >"$WORK/out" 2>/dev/null
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc -l)")
    grep '^Cross' "$WORK/out" >"$WORK/last"
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }'
}

echo "| data | no flags (s) | best flags (s) | best flags | no flags / best | target <= 1.3x | accuracy |"
echo "|---|---|---|---|---|---|---|"
for set in $SETS; do
  file=$(prepare "$set")
  rows=$(wc -l <"$file")
  mb=$(awk -v n="$rows" 'BEGIN { printf "%d", n * n * 4 / 1048576 / 0.75 + 101 }')
  best="-m $mb --cache shared --threads $CORES"
  echo "$set: no flags" >&2
  plain=$(timed "$BIN" svm -q -v 10 "$file")
  acc_plain=$(cat "$WORK/last")
  echo "$set: $best" >&2
  # shellcheck disable=SC2086
  fast=$(timed "$BIN" svm -q -v 10 $best "$file")
  acc_fast=$(cat "$WORK/last")
  [ "$acc_plain" = "$acc_fast" ] || { echo "$set: accuracy differs: $acc_plain / $acc_fast" >&2; exit 1; }
  ratio=$(echo "$plain / $fast" | bc -l)
  met=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.3) ? "met" : "not met" }')
  printf '| %s (%s rows) | %s | %s | `%s` | %.2fx | %s | %s |\n' "$set" "$rows" "$plain" "$fast" "$best" "$ratio" "$met" "${acc_plain#Cross Validation Accuracy = }"
done
