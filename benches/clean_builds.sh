#!/usr/bin/env bash
# Clean-build times of the workspace's pieces (issue 55's measurements), each
# from a fresh clone of HEAD with an empty target folder, one after another:
#   engine     cargo build --release --locked -p cvbench-engine
#   install    cargo install --locked --path . --root <tmp>   (the harness binary)
#   pip        pip install ./python in a fresh venv (maturin, release; needs
#              the package registry for maturin, numpy)
# Prints one Markdown row per piece (seconds, wall clock). Minutes; not in CI.
# Usage: benches/clean_builds.sh [engine] [install] [pip]   (default: all)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
PIECES=${*:-engine install pip}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
git clone --quiet "$REPO" "$WORK/src"
cd "$WORK/src"
echo "| piece | command | seconds |"
echo "|---|---|---:|"
time_it() { local s; s=$(date +%s); "$@" >"$WORK/log" 2>&1 || { tail -20 "$WORK/log" >&2; exit 2; }; echo $(( $(date +%s) - s )); }
for p in $PIECES; do
  case $p in
    engine) t=$(CARGO_TARGET_DIR="$WORK/t-engine" time_it cargo build --release --locked -p cvbench-engine)
            echo "| engine crate | \`cargo build --release --locked -p cvbench-engine\` | $t |" ;;
    install) t=$(CARGO_TARGET_DIR="$WORK/t-install" time_it cargo install --locked --path . --root "$WORK/root")
            echo "| harness binary | \`cargo install --locked --path .\` | $t |" ;;
    pip)    python3 -m venv "$WORK/venv"
            "$WORK/venv/bin/pip" install --quiet --upgrade pip
            t=$(CARGO_TARGET_DIR="$WORK/t-pip" time_it "$WORK/venv/bin/pip" install --quiet ./python)
            echo "| Python package | \`pip install ./python\` (fresh venv) | $t |" ;;
    *) echo "unknown piece $p (engine, install, pip)" >&2; exit 2 ;;
  esac
done
