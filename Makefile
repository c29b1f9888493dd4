# cvbench — two commands on a fresh machine:
#   make reproduce   every reproduction config, then the report (release build)
#   make test        the test suite (debug build)
# Data: set CVBENCH_DATA_DIR (or DATA_DIR=...) to a folder with the datasets;
# `make fetch` downloads them from their canonical sources.

CARGO      ?= cargo
DATA_DIR   ?= $(if $(CVBENCH_DATA_DIR),$(CVBENCH_DATA_DIR),data)
RESULTS    ?= results
THREADS    ?=
# The binary is where cargo puts it (CARGO_TARGET_DIR respected). PROFILE=debug
# uses the test profile's binary (fast to build; CI's `make ci-targets`).
PROFILE    ?= release
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
BIN        ?= $(TARGET_DIR)/$(PROFILE)/cvbench
BUILDFLAGS := $(if $(filter debug,$(PROFILE)),,--profile $(PROFILE))
# DRY=1: plan every config (parse, load data, list cells) but run nothing.
DRY        ?=
DATAFLAGS  := --data-dir $(DATA_DIR) $(if $(THREADS),--threads $(THREADS),) $(if $(DRY),--dry-run,)
RUNFLAGS   := $(DATAFLAGS) --out $(RESULTS)
# Datasets `make fetch` downloads (default: all).
FETCH_NAMES ?=
# `make bench` runs `cargo $(BENCH)`; CI uses BENCH="test --benches" (each benchmark once, debug).
BENCH      ?= bench

# Reproduction configs whose data is on this kind of machine or synthetic.
# (configs/*/paper-*.toml need covtype / YearPredictionMSD: `make paper-data`.)
REPRODUCE_CONFIGS := $(sort $(wildcard configs/treecv/*.toml) $(wildcard configs/progressive/*.toml) $(wildcard configs/svm/*.toml))
REPRODUCE_CONFIGS := $(filter-out %/paper-covtype.toml %/paper-msd.toml %-paper.toml,$(REPRODUCE_CONFIGS))
# The SVM paper settings on a9a (k = 3, 10) and w8a (k = 3) take about 65 and
# 40 minutes here with their svm-train peers, alpha seeding on a9a at the paper
# setting (seeding-a9a-paper) about 30: `make reproduce-long`.
LONG_CONFIGS      := $(wildcard configs/svm/*-paper.toml)
QUICK_CONFIGS     := $(sort $(wildcard configs/quick/*.toml))
# Datasets the reproduction configs read (fetched and verified first; files
# already in the data directory are only verified).
REPRODUCE_DATA    := a9a a9a.t w8a housing_scale mnist-even-odd mnist-even-odd.t heart_scale heart madelon madelon.t

.PHONY: python bench-python recipes all build reproduce reproduce-long refresh quick test bench figures fetch datasets peers paper-data check doc-check clean-results toolchain ci-targets fuzz

all: build

toolchain:
	@command -v $(CARGO) >/dev/null 2>&1 || { echo "cargo not found: install Rust from https://rustup.rs (tested with stable 1.95)"; exit 2; }

# SKIP_BUILD=1: the binary is built already (CI's `make ci-targets`, which
# runs clippy beside these targets): no cargo call.
SKIP_BUILD ?=
build: toolchain
ifeq ($(SKIP_BUILD),)
	$(CARGO) build $(BUILDFLAGS) --locked
else
	@test -x $(BIN) || { echo "SKIP_BUILD=1 but there is no $(BIN): build it first"; exit 2; }
endif

reproduce: build
	$(BIN) fetch --data-dir $(DATA_DIR) $(REPRODUCE_DATA)
	$(BIN) run $(RUNFLAGS) $(REPRODUCE_CONFIGS)
	$(BIN) report $(RESULTS)

# Re-run exactly the stored runs the report calls stale (made before a
# commit that may have moved their numbers: `cvbench report --stale` lists
# their configs), then the report. Resumable: a finished run is current and
# drops off the list; an interrupted one resumes from its cells/ folder.
# DRY=1 only lists what it would re-run (`make ci-targets`).
refresh: build
	@stale="$$($(BIN) report --stale $(RESULTS))"; \
	if [ -z "$$stale" ]; then echo "refresh: every stored run under $(RESULTS) is current"; \
	elif [ -n "$(DRY)" ]; then echo "refresh would re-run:"; echo "$$stale"; \
	else $(BIN) run $(RUNFLAGS) $$stale && $(BIN) report $(RESULTS); fi

quick: build
	$(BIN) run $(DATAFLAGS) --out $(RESULTS)/quick $(QUICK_CONFIGS)
	$(BIN) report $(RESULTS)/quick

paper-data: build
	$(BIN) fetch --data-dir $(DATA_DIR) covtype-binary yearpredictionmsd
	$(BIN) run $(RUNFLAGS) $(wildcard configs/*/paper-*.toml)
	$(BIN) report $(RESULTS)

test: toolchain
	$(CARGO) test --locked

check: toolchain
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets --locked -- -D warnings

# The API docs of both crates, every rustdoc warning an error (a broken
# intra-doc link among them): the public view (the engine's face, `api`)
# and the contributors' view with private items, where the hidden rooms'
# links resolve. About a minute on 2 cores from a checked tree.
doc-check: toolchain
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --locked
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --locked --document-private-items

bench: toolchain
	$(CARGO) $(BENCH) --locked

figures: build
	$(BIN) report $(RESULTS)

fetch: build
	$(BIN) fetch --data-dir $(DATA_DIR) $(FETCH_NAMES)

datasets: build
	$(BIN) datasets --data-dir $(DATA_DIR)

# Multi-class CV timing (issue 41): svm-train -v 10, cvbench svm (per solve,
# shared cache, seeded per class pair) and oneDAL on letter.scale and MNIST's
# first 10,000 digits (minutes; not part of ci-targets). Table on stdout.
# On 2026-11-27 (2 cores): letter 15.2x svm-train and 21.4x oneDAL, MNIST-10k
# 159x and 18.7x; log: experiments/engine/logs/2026-11-27-multiclass-cv.md.
.PHONY: bench-multiclass
bench-multiclass: toolchain
	$(CARGO) build --release --locked
	BIN=$(TARGET_DIR)/release/cvbench CVBENCH_DATA_DIR=$(DATA_DIR) benches/multiclass_cv.sh

# The batched working-set solver (issue 44): one training with --solver
# smo / batched against oneDAL's one fit on a9a, w8a, MNIST-5k even/odd and
# madelon scaled, objective gaps and flipped predictions, and a9a's 10-fold
# CV (minutes; not part of ci-targets). Table on stdout. On 2026-11-27 (2
# idle cores) one a9a training took 0.68x oneDAL's fit and was 2.22x faster
# than the SMO; log: experiments/engine/logs/2026-11-27-batched-solver.md.
.PHONY: bench-batched
bench-batched: toolchain
	$(CARGO) build --release --locked
	BIN=$(TARGET_DIR)/release/cvbench CVBENCH_DATA_DIR=$(DATA_DIR) benches/batched_solver.py

# Multi-class grid timing (issue 41): a 5 x 5 (C, gamma) grid on letter.scale,
# 10 folds, svm-grid (one worker) against cvbench grid per reuse level (about
# half an hour; not part of ci-targets). On 2026-11-27 `--reuse all` took
# 60.6 s against svm-grid's 1261.3 s (20.8x); log:
# experiments/engine/logs/2026-11-27-multiclass-cv.md.
.PHONY: bench-multiclass-grid
bench-multiclass-grid: toolchain
	$(CARGO) build --release --locked
	BIN=$(TARGET_DIR)/release/cvbench CVBENCH_DATA_DIR=$(DATA_DIR) benches/multiclass_grid.sh

# Is `cvbench svm -v 10` fast with no flags? (issue 54) The no-flag CV against
# the best flags (the whole matrix in a shared cache, every core) on letter,
# a9a and MNIST's first 10,000 digits (minutes; not part of ci-targets).
.PHONY: bench-defaults
bench-defaults: toolchain
	$(CARGO) build --release --locked
	BIN=$(TARGET_DIR)/release/cvbench CVBENCH_DATA_DIR=$(DATA_DIR) benches/default_speed.sh

# LIBSVM's svm-train/svm-predict, the peer the SVM solver is checked against.
peers:
	@command -v svm-train >/dev/null 2>&1 || { apt-get update && apt-get install -y libsvm-tools; }
	@# scikit-learn's GridSearchCV, a parallel peer of `cvbench grid` (best effort).
	@python3 -c 'import sklearn' >/dev/null 2>&1 || pip install scikit-learn || echo "note: scikit-learn not installed (GridSearchCV peer skipped)"
	@# Intel's scikit-learn-intelex (oneDAL), the fastest CPU SVC: the `onedal` peer of svm_cv (best effort).
	@python3 -c 'import sklearnex, daal4py' >/dev/null 2>&1 || pip install scikit-learn-intelex || echo "note: scikit-learn-intelex not installed (oneDAL peer skipped)"

reproduce-long: build
	$(BIN) fetch --data-dir $(DATA_DIR) a9a w8a
	$(BIN) run $(RUNFLAGS) $(LONG_CONFIGS)
	$(BIN) report $(RESULTS)

# A real test on a real SLURM (root; installs slurm-wlm and munge from apt if
# missing): a throwaway single-node cluster on localhost runs the quick configs
# as an array of 3 tasks plus the collect job, and the collected records must
# equal a single-machine run. Uses the debug binary (BIN=... to override).
.PHONY: slurm-check
slurm-check: toolchain
ifeq ($(SKIP_BUILD),)
	$(CARGO) build --locked
endif
	BIN=$${BIN:-$${CARGO_TARGET_DIR:-target}/debug/cvbench} scripts/slurm-check.sh
# A long fuzz campaign: rounds of FUZZ_CASES cases per fuzz
# test (the readers and the config path), each round with fresh random
# inputs, until FUZZ_MINUTES have passed (0: one round); stops at the first
# failure. Prints each round's counts and the total of inputs tried.
FUZZ_CASES   ?= 200000
FUZZ_MINUTES ?= 0
FUZZ_LOG     ?= $(TARGET_DIR)/fuzz.log
# Cargo's profile flags for the campaign: default the test profile, whose
# overflow checks and debug assertions turn more bad inputs into failures
# (`--release` tries several times more inputs per minute).
FUZZ_FLAGS   ?=
fuzz: toolchain
	@mkdir -p $(TARGET_DIR)
	$(CARGO) test $(FUZZ_FLAGS) --locked --test fuzz_inputs --no-run
	@: > $(FUZZ_LOG); start=$$(date +%s); round=0; \
	while :; do \
	  round=$$((round + 1)); \
	  FUZZ_SEED=random FUZZ_CASES=$(FUZZ_CASES) $(CARGO) test $(FUZZ_FLAGS) --locked --test fuzz_inputs -- --nocapture --test-threads 1 >> $(FUZZ_LOG) 2>&1; \
	  status=$$?; \
	  echo "fuzz round $$round: exit $$status, $$(( $$(date +%s) - start )) s"; \
	  [ $$status -ne 0 ] && break; \
	  [ $$(( $$(date +%s) - start )) -ge $$(( $(FUZZ_MINUTES) * 60 )) ] && break; \
	done; \
	grep -E 'panicked|FAILED' $(FUZZ_LOG); \
	grep -oE 'fuzz-inputs [a-z]+ [0-9]+' $(FUZZ_LOG) | awk '{ n += $$3 } END { print "fuzz: " n + 0 " inputs tried (log: $(FUZZ_LOG))" }'; \
	exit $$status

# Every target the README names, each in a form that takes seconds, with the
# debug binary (CI runs this after `make test`): the quick configs for real,
# the reproduction configs planned (DRY=1) and the stale stored runs listed
# (refresh, DRY=1, on a copy of the stored results), figures re-rendered from
# a copy of one stored run per kind (CI_FIGURE_RUNS; the suite renders every
# stored run), fetch verifying one dataset already present, bench as a test
# run (each benchmark once, a9a cut to its first 1,000 rows), fuzz as one
# short round of 20 random cases per test (the test run has the fixed-seed
# hundreds); paper-data is only expanded (it needs data not on this
# machine), and so is slurm-check unless CI_SLURM=1 (it needs root: CI runs
# it). Needs DATA_DIR with the datasets (CI: ../shared/datasets).
# The cargo steps (fuzz, bench) run first; then two groups at once (make -j2,
# each group's output printed whole when it ends): clippy and the docs, whose
# dependency checks leave a core idle much of the time, beside the targets
# that run the built binary (SKIP_BUILD=1, so that no cargo call waits on
# clippy's lock on the target folder).
CI_TMP ?= $(TARGET_DIR)/ci-targets
CI_SLURM ?=
CI_FIGURE_RUNS ?= progressive-stream svm-cv-heart grid-guide treecv-table2-pegasos-mnist
ci-targets:
	rm -rf $(CI_TMP) && mkdir -p $(CI_TMP)/empty $(CI_TMP)/figures
	$(MAKE) --no-print-directory fuzz FUZZ_CASES=20 FUZZ_LOG=$(CI_TMP)/fuzz.log
	CVBENCH_BENCH_A9A_ROWS=1000 $(MAKE) --no-print-directory bench BENCH="test --benches"
	$(MAKE) --no-print-directory build PROFILE=debug
	$(MAKE) --no-print-directory -j2 --output-sync=recurse ci-checks ci-binary-targets
	rm -rf $(CI_TMP)
	@echo "ci-targets: every README target ran"

.PHONY: ci-checks ci-binary-targets
ci-checks:
	$(MAKE) --no-print-directory check
	$(MAKE) --no-print-directory doc-check

ci-binary-targets:
	$(MAKE) --no-print-directory quick PROFILE=debug SKIP_BUILD=1 RESULTS=$(CI_TMP)/results
	test -s $(CI_TMP)/results/quick/REPORT.md
	cp -r results $(CI_TMP)/stored && rm -rf $(CI_TMP)/stored/quick
	for r in $(CI_FIGURE_RUNS); do cp -r results/$$r $(CI_TMP)/figures/ || exit 1; done
	$(MAKE) --no-print-directory figures PROFILE=debug SKIP_BUILD=1 RESULTS=$(CI_TMP)/figures
	test -s $(CI_TMP)/figures/REPORT.md
	$(MAKE) --no-print-directory refresh PROFILE=debug SKIP_BUILD=1 DRY=1 RESULTS=$(CI_TMP)/stored 2>/dev/null
	$(MAKE) --no-print-directory datasets PROFILE=debug SKIP_BUILD=1
	$(MAKE) --no-print-directory fetch PROFILE=debug SKIP_BUILD=1 FETCH_NAMES=heart_scale
	$(MAKE) --no-print-directory reproduce PROFILE=debug SKIP_BUILD=1 DRY=1 RESULTS=$(CI_TMP)/empty
	$(MAKE) --no-print-directory reproduce-long PROFILE=debug SKIP_BUILD=1 DRY=1 RESULTS=$(CI_TMP)/empty
	$(MAKE) --no-print-directory -n paper-data >/dev/null
	$(MAKE) --no-print-directory recipes PROFILE=debug SKIP_BUILD=1 RECIPES_TMP=$(CI_TMP)/recipes
	$(MAKE) --no-print-directory peers || echo "note: make peers could not install libsvm-tools (svm-train comparisons are SKIPPED)"
ifeq ($(CI_SLURM),)
	$(MAKE) --no-print-directory -n slurm-check >/dev/null
else
	$(MAKE) --no-print-directory slurm-check SKIP_BUILD=1
endif

# The README's first-page recipes, run as written there (CI: `make
# ci-targets`): one paper table re-run and reported; the example configs of
# configs/examples/ on a LibSVM file (a generated SYNTHETIC stand-in for the
# user's file); `cvbench svm` in place of `svm-train -v 10` and `svm-train`.
RECIPES_TMP ?= $(TARGET_DIR)/recipes
OWN         := $(RECIPES_TMP)/own
recipes: build
	rm -rf $(RECIPES_TMP) && mkdir -p $(OWN)
	@echo "recipe 1: re-run one paper table (TreeCV Table 2, LSQSGD on housing)"
	$(BIN) fetch --data-dir $(DATA_DIR) housing_scale
	$(BIN) run --data-dir $(DATA_DIR) --out $(RECIPES_TMP)/results --quiet configs/treecv/table2-lsqsgd-housing.toml
	$(BIN) report $(RECIPES_TMP)/results
	grep -q "treecv-table2-lsqsgd-housing" $(RECIPES_TMP)/results/REPORT.md
	@echo "recipe 2: cross-validate your own LibSVM file (here a generated SYNTHETIC one)"
	awk 'BEGIN { srand(7); for (i = 0; i < 300; i++) { a = rand(); b = rand(); c = rand(); \
	  printf "%s 1:%.4f 2:%.4f 3:%.4f\n", (a + 0.5 * b + 0.2 * rand() > 0.85 ? "+1" : "-1"), a, b, c } }' \
	  > $(OWN)/my-data-synthetic.libsvm
	for f in configs/examples/*.toml; do sed 's/my-data\.libsvm/my-data-synthetic.libsvm/' $$f > $(OWN)/$$(basename $$f); done
	$(BIN) validate $(OWN)/treecv-my-data.toml
	$(BIN) run --out $(OWN)/results --quiet $(OWN)/svm-cv-my-data.toml $(OWN)/treecv-my-data.toml
	$(BIN) report $(OWN)/results
	test -s $(OWN)/results/svm-cv-my-data/records.parquet && test -s $(OWN)/results/treecv-my-data/records.parquet
	$(BIN) export $(OWN)/results/svm-cv-my-data
	@echo "recipe 3: cvbench svm for svm-train -v 10, and svm-train"
	cd $(OWN) && $(abspath $(BIN)) svm -c 4 -g 0.5 -v 10 my-data-synthetic.libsvm | tail -1 | grep "^Cross Validation Accuracy = "
	cd $(OWN) && $(abspath $(BIN)) svm -c 4 -g 0.5 -q my-data-synthetic.libsvm && test -s my-data-synthetic.libsvm.model
	cd $(OWN) && $(abspath $(BIN)) svm -c 4 -g 0.5 my-data-synthetic.libsvm --test my-data-synthetic.libsvm | tail -1 | grep "^Accuracy = "
	cd $(OWN) && $(abspath $(BIN)) svm --solver batched -c 4 -g 0.5 my-data-synthetic.libsvm --test my-data-synthetic.libsvm | tail -1 | grep "^Accuracy = "
	rm -rf $(RECIPES_TMP)

# The Python package (python/): a fresh virtual environment, `pip install
# ./python` (maturin builds the lean library in release), and its tests
# against scikit-learn's SVC, GridSearchCV and svm-train (CI runs this after
# `make ci-targets`).
# PY_PROFILE: the cargo profile maturin builds with; release (the default) is
# what `pip install ./python` gives users. CI says dev: the package is a
# member of the workspace, so the build reuses the test build's compiled
# engine and dependencies (seconds, not minutes; python/Cargo.toml's feature
# pins), and the same tests run on an engine with overflow checks on.
PY_VENV    ?= $(TARGET_DIR)/python-venv
PYTHON     ?= python3
PY_PROFILE ?= release
python:
	rm -rf $(PY_VENV)
	$(PYTHON) -m venv $(PY_VENV)
	start=$$(date +%s); $(if $(filter-out release,$(PY_PROFILE)),MATURIN_PEP517_ARGS="--profile $(PY_PROFILE)") \
	  $(PY_VENV)/bin/pip install -v ./python numpy scipy scikit-learn pytest pytest-xdist \
	  > $(PY_VENV)/pip-install.log 2>&1 \
	  || { tail -n 60 $(PY_VENV)/pip-install.log; echo "python: pip install failed; the whole log: $(PY_VENV)/pip-install.log"; exit 1; }; \
	  echo "python: pip install ./python took $$(( $$(date +%s) - start )) s; cargo compiled: $$(grep -o 'Compiling [A-Za-z0-9_-]*' $(PY_VENV)/pip-install.log | cut -d' ' -f2 | sort -u | tr '\n' ' ')"
	cd python/tests && $(abspath $(PY_VENV))/bin/python -m pytest -q -n auto .

# The Python package against scikit-learn's GridSearchCV and
# scikit-learn-intelex's SVC (issue 42's benchmark: minutes, not in CI; after
# `make python`): svmguide1 and a9a from DATA_DIR; the table goes to a dated
# log, experiments/engine/logs/<UTC date>-python-vs-scikit-learn.md. On
# 2026-11-27 (2 loaded cores) GridSearchSVC was 13.7x GridSearchCV and a
# SIR-seeded a9a CV 5.3x scikit-learn-intelex's; log:
# experiments/engine/logs/2026-11-27-python-vs-scikit-learn.md.
bench-python:
	@test -x $(PY_VENV)/bin/python || { echo "bench-python: no $(PY_VENV): run 'make python' first"; exit 2; }
	$(PY_VENV)/bin/pip install --quiet scikit-learn-intelex
	CVBENCH_DATA_DIR=$(abspath $(DATA_DIR)) $(PY_VENV)/bin/python python/bench/bench_sklearn.py --out experiments/engine/logs/$$(date -u +%Y-%m-%d)-python-vs-scikit-learn.md
