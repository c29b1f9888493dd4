# cvbench — two commands on a fresh machine:
#   make reproduce   every reproduction config, then the report (release build)
#   make test        the test suite (debug build)
# Data: set CVBENCH_DATA_DIR (or DATA_DIR=...) to a folder with the datasets;
# `make fetch` downloads them from their canonical sources.

CARGO      ?= cargo
DATA_DIR   ?= $(if $(CVBENCH_DATA_DIR),$(CVBENCH_DATA_DIR),data)
RESULTS    ?= results
THREADS    ?=
BIN        := target/release/cvbench
RUNFLAGS   := --data-dir $(DATA_DIR) --out $(RESULTS) $(if $(THREADS),--threads $(THREADS),)

# Reproduction configs whose data is on this kind of machine or synthetic.
# (configs/*/paper-*.toml need covtype / YearPredictionMSD: `make paper-data`.)
REPRODUCE_CONFIGS := $(sort $(wildcard configs/treecv/*.toml) $(wildcard configs/progressive/*.toml) $(wildcard configs/svm/*.toml))
REPRODUCE_CONFIGS := $(filter-out %/paper-covtype.toml %/paper-msd.toml %-paper.toml,$(REPRODUCE_CONFIGS))
# The SVM paper settings on a9a (k = 3, 10) and w8a (k = 3) take about 65 and
# 40 minutes here with their svm-train peers: `make reproduce-long`.
LONG_CONFIGS      := $(wildcard configs/svm/*-paper.toml)
QUICK_CONFIGS     := $(sort $(wildcard configs/quick/*.toml))
# Datasets the reproduction configs read (fetched and verified first; files
# already in the data directory are only verified).
REPRODUCE_DATA    := a9a a9a.t w8a housing_scale mnist-even-odd mnist-even-odd.t heart_scale madelon madelon.t

.PHONY: all build reproduce reproduce-long quick test bench figures fetch datasets peers paper-data check clean-results toolchain

all: build

toolchain:
	@command -v $(CARGO) >/dev/null 2>&1 || { echo "cargo not found: install Rust from https://rustup.rs (tested with stable 1.95)"; exit 2; }

build: toolchain
	$(CARGO) build --release --locked

reproduce: build
	$(BIN) fetch --data-dir $(DATA_DIR) $(REPRODUCE_DATA)
	$(BIN) run $(RUNFLAGS) $(REPRODUCE_CONFIGS)
	$(BIN) report $(RESULTS)

quick: build
	$(BIN) run $(RUNFLAGS) --out $(RESULTS)/quick $(QUICK_CONFIGS)
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

bench: toolchain
	$(CARGO) bench --locked

figures: build
	$(BIN) report $(RESULTS)

fetch: build
	$(BIN) fetch --data-dir $(DATA_DIR)

datasets: build
	$(BIN) datasets --data-dir $(DATA_DIR)

# LIBSVM's svm-train/svm-predict, the peer the SVM solver is checked against.
peers:
	@command -v svm-train >/dev/null 2>&1 || { apt-get update && apt-get install -y libsvm-tools; }

reproduce-long: build
	$(BIN) fetch --data-dir $(DATA_DIR) a9a w8a
	$(BIN) run $(RUNFLAGS) $(LONG_CONFIGS)
	$(BIN) report $(RESULTS)
