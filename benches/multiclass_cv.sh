#!/usr/bin/env bash
# Multi-class C-SVC 10-fold CV timing (issue 41), one run script:
# svm-train -v 10 -m 2000 against `cvbench svm -v 10 -m 2000` per solve,
# with the shared kernel cache, and shared + alpha seeding per class pair
# (tree, sir), at --threads $THREADS, and scikit-learn-intelex (oneDAL)
# SVC + cross_val_score(cv=KFold(10)) with LIBSVM's gamma passed explicitly,
# on letter.scale (15,000 rows, 26 classes) and MNIST's first 10,000
# training digits (pixels / 255, ten classes).
#
# Usage: benches/multiclass_cv.sh [letter] [mnist]   (default: both)
# Env: CVBENCH_DATA_DIR (xz LIBSVM sets and MNIST's IDX files), BIN (release
# cvbench, default target/release/cvbench), or EXAMPLE (the release
# crates/cvbench-engine/examples/multiclass_cv.rs binary: the same engine calls without the
# harness, where the harness cannot be built in release), THREADS (2), REPS
# (3: runs under SHORT_S seconds are repeated, the median kept), SHORT_S
# (30), WORK (temp), VARIANTS (our runs as cache:seeding, default
# "per_solve:none shared:none shared:tree shared:sir"), SVM_TRAIN=0 (skip
# svm-train, e.g. to not run its long MNIST CV twice), ONEDAL=0 (skip oneDAL).
# Prints a Markdown table on stdout (progress on stderr). svm-train's and
# oneDAL's long runs are run once.
set -euo pipefail
DATA=${CVBENCH_DATA_DIR:-/work/shared/datasets}
BIN=${BIN:-target/release/cvbench}
THREADS=${THREADS:-2}
REPS=${REPS:-3}
SHORT_S=${SHORT_S:-30}
WORK=${WORK:-$(mktemp -d)}
SETS=${*:-letter mnist}
VARIANTS=${VARIANTS:-per_solve:none shared:none shared:tree shared:sir}
SVM_TRAIN=${SVM_TRAIN:-1}
ONEDAL=${ONEDAL:-1}
EXAMPLE=${EXAMPLE:-}
if [ -n "$EXAMPLE" ]; then
  [ -x "$EXAMPLE" ] || { echo "no $EXAMPLE: cargo build --release --locked -p cvbench-engine --example multiclass_cv" >&2; exit 2; }
else
  [ -x "$BIN" ] || { echo "no $BIN: run cargo build --release --locked" >&2; exit 2; }
fi
command -v svm-train >/dev/null || { echo "svm-train not installed (make peers)" >&2; exit 2; }

prepare() { # $1 = set name -> path of its LibSVM file
  case $1 in
    letter)
      [ -f "$WORK/letter.scale" ] || xz -dc "$DATA/letter.scale.xz" >"$WORK/letter.scale"
      echo "$WORK/letter.scale" ;;
    mnist)
      [ -f "$WORK/mnist10k.scale" ] || python3 "$(dirname "$0")/mnist_libsvm.py" "$DATA" 10000 "$WORK/mnist10k.scale"
      echo "$WORK/mnist10k.scale" ;;
    *) echo "unknown set $1" >&2; exit 2 ;;
  esac
}

# Seconds of one run of "$@" (its stdout in $WORK/last.out).
once() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$WORK/last.out" 2>"$WORK/last.err"
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}

# Median seconds of "$@": once, and REPS times in all when under SHORT_S.
timed() {
  local first times n
  first=$(once "$@")
  times="$first"
  if (($(echo "$first < $SHORT_S" | bc))); then
    for ((n = 1; n < REPS; n++)); do times="$times $(once "$@")"; done
  fi
  echo "$times" | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] " (" NR " run" (NR>1?"s":"") ")"}'
}

# Our one-vs-one CV: $1 = file, $2 = cache, $3 = seeding.
ours() {
  if [ -n "$EXAMPLE" ]; then
    "$EXAMPLE" "$1" 10 2000 "$2" "$3" "$THREADS"
  else
    "$BIN" svm -v 10 -m 2000 -q --stats --cache "$2" --seeding "$3" --threads "$THREADS" "$1"
  fi
}

acc() { grep -o 'Accuracy = [0-9.]*%' "$WORK/last.out" | tail -1 | sed 's/Accuracy = //'; }
evals() { grep -o 'kernel evals = [0-9]*' "$WORK/last.out" | tail -1 | sed 's/kernel evals = //'; }

onedal() { # $1 = file, $2 = gamma
  python3 - "$1" "$2" <<'EOF'
import sys, time
from sklearnex import patch_sklearn
patch_sklearn(verbose=False)
from sklearn.datasets import load_svmlight_file
from sklearn.model_selection import KFold, cross_val_score
from sklearn.svm import SVC
X, y = load_svmlight_file(sys.argv[1])
X = X.toarray()
t = time.time()
s = cross_val_score(SVC(C=1.0, gamma=float(sys.argv[2]), cache_size=2000), X, y, cv=KFold(10))
print(f"seconds {time.time() - t:.3f}")
print(f"Accuracy = {100 * s.mean():.4f}%")
EOF
}

echo "| set | tool | seconds (median) | CV accuracy | kernel evals | load before/after |"
echo "|---|---|---|---|---|---|"
for set in $SETS; do
  f=$(prepare "$set")
  # LIBSVM's default gamma: 1 / the largest feature index in the file.
  maxi=$(grep -o '[0-9]*:' "$f" | tr -d ':' | sort -n | tail -1)
  gamma=$(python3 -c "print(1/$maxi)")
  row() { echo "| $set | $1 | $2 | $3 | $4 | $5 / $(cut -d' ' -f1 /proc/loadavg) |"; }
  l=$(cut -d' ' -f1 /proc/loadavg)
  if [ "$SVM_TRAIN" = 1 ]; then
    echo "[$set] svm-train" >&2
    s=$(timed svm-train -v 10 -m 2000 -q "$f")
    row "svm-train -v 10 -m 2000" "$s" "$(acc)" "" "$l"
  fi
  for variant in $VARIANTS; do
    set -- ${variant/:/ }
    l=$(cut -d' ' -f1 /proc/loadavg)
    echo "[$set] cvbench $1 $2" >&2
    s=$(timed ours "$f" "$1" "$2")
    row "ours -v 10 -m 2000 --cache $1 --seeding $2 --threads $THREADS${EXAMPLE:+ (example)}" "$s" "$(acc)" "$(evals)" "$l"
  done
  l=$(cut -d' ' -f1 /proc/loadavg)
  [ "$ONEDAL" = 1 ] && echo "[$set] oneDAL" >&2
  if [ "$ONEDAL" != 1 ]; then
    :
  elif python3 -c "import sklearnex" 2>/dev/null; then
    onedal "$f" "$gamma" >"$WORK/last.out" 2>"$WORK/last.err"
    row "oneDAL SVC(gamma=1/$maxi) cross_val_score(KFold(10))" "$(grep -o 'seconds [0-9.]*' "$WORK/last.out" | cut -d' ' -f2) (CV only, 1 run)" "$(acc)" "" "$l"
  else
    row "oneDAL" "not installed" "" "" "$l"
  fi
done
