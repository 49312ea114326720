# hysolve: `make run` and `make test` set up everything they need on a fresh
# Debian/Ubuntu machine (OpenMPI and libclang through apt-get, with sudo when
# not root), build, then run the main job / every test.

SHELL := /bin/bash
CARGO ?= cargo
BIN := target/release/hysolve
NPROC := $(shell nproc 2>/dev/null || echo 2)
RANKS ?= 2
THREADS ?= $(shell echo $$(( $(NPROC) / $(RANKS) > 0 ? $(NPROC) / $(RANKS) : 1 )))
# mpirun refuses root unless told; harmless otherwise.
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
MPIRUN := mpirun --oversubscribe --bind-to none

.PHONY: all deps build run test test-scheduler lint no-mpi bench bench-ranks sweep verify clean

all: build

# Installs what the build and the tests use, when missing: OpenMPI (mpicc,
# which the mpi crate's build runs, and mpirun), libclang (the library
# bindgen loads: libclang.so or libclang-N.so, never libclang-cpp),
# shellcheck (the job scripts) and Chromium (the viewer's browser test). On
# Debian and Ubuntu the package manager is asked; elsewhere the places
# clang-sys searches. What cannot be installed (no root, no sudo, no
# apt-get, no network) is named in one line, and the target fails.
# DPKG_QUERY and LIBCLANG_DIRS exist for tests/deps.rs.
DPKG_QUERY ?= dpkg-query
LIBCLANG_DIRS ?= /usr/lib /usr/lib/* /usr/lib64 /usr/local/lib /usr/local/lib/* /usr/lib/llvm-*/lib /usr/local/llvm*/lib
deps:
	@missing=""; \
	pkg_ok() { command -v $(DPKG_QUERY) >/dev/null 2>&1 && \
	  [ "$$($(DPKG_QUERY) -W -f='$${Status}' "$$1" 2>/dev/null)" = "install ok installed" ]; }; \
	has_libclang() { for f in "$$@"; do \
	  case "$${f##*/}" in *-cpp.*) ;; libclang.so*|libclang-[0-9]*.so*) [ -e "$$f" ] && return 0;; esac; \
	  done; return 1; }; \
	mpicc -show >/dev/null 2>&1 || missing="$$missing libopenmpi-dev"; \
	mpirun --version >/dev/null 2>&1 || missing="$$missing openmpi-bin"; \
	if [ -n "$${LIBCLANG_PATH:-}" ]; then \
	  has_libclang "$$LIBCLANG_PATH"/libclang* || { \
	    echo "make deps: LIBCLANG_PATH=$$LIBCLANG_PATH holds no libclang.so or libclang-N.so: fix it or unset it"; exit 1; }; \
	elif command -v $(DPKG_QUERY) >/dev/null 2>&1; then \
	  pkg_ok libclang-dev || missing="$$missing libclang-dev"; \
	else \
	  shopt -s nullglob; set -- $(foreach d,$(LIBCLANG_DIRS),$(d)/libclang*); \
	  has_libclang "$$@" || missing="$$missing libclang-dev"; \
	fi; \
	shellcheck --version >/dev/null 2>&1 || missing="$$missing shellcheck"; \
	command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  command -v google-chrome >/dev/null 2>&1 || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  by_hand="make deps: missing$$missing: install by hand (apt-get install -y$$missing), then run make again"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif sudo -n true >/dev/null 2>&1; then SUDO="sudo -n"; \
	  else echo "$$by_hand (needs root or password-less sudo)"; exit 1; fi; \
	  command -v apt-get >/dev/null 2>&1 || { echo "$$by_hand (no apt-get here: use your package manager)"; exit 1; }; \
	  echo "installing:$$missing"; \
	  { $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; } >/tmp/hysolve-deps.log 2>&1 || \
	    { echo "$$by_hand (apt-get failed: see /tmp/hysolve-deps.log)"; exit 1; }; \
	fi; \
	command -v $(CARGO) >/dev/null 2>&1 || { echo "make deps: cargo not found: install Rust from https://rustup.rs"; exit 1; }

build: deps
	$(CARGO) build --release

# The main job: the seed's 25x25 Hitori timing grid (5431 s serial in the
# seed) on $(RANKS) ranks x $(THREADS) threads, proved to have more than one
# solution (two shown); then two searches that spread over both ranks, with
# statistics: the 2,358,720 shadings of the open 16x16 grid on 2 ranks of
# one thread (ranks run dry, ask, and the master has busy ranks donate
# subtrees), and N-Queens 16 on 2 ranks of 2 threads (threads steal and
# donate inside each rank). About 15 s on 2 cores after the build.
# `make run RUN_ARGS="..."` runs only the given job.
RUN_ARGS ?= --mode unique hitori examples/hitori/seed/test2-25x25.txt
run: build
	$(MPIRUN) -np $(RANKS) $(BIN) --threads $(THREADS) $(RUN_ARGS)
ifneq ($(origin RUN_ARGS),command line)
	$(MPIRUN) -np 2 $(BIN) --threads 1 --mode count hitori examples/hitori/open-16x16.txt --stats
	$(MPIRUN) -np 2 $(BIN) --threads 2 queens 16 --stats
endif

lint: deps
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps
	shellcheck pbs/*.sh tests/scheduler/* tests/verify.sh

# The threads-only build a laptop without OpenMPI gets (cargo install
# --no-default-features): it must build, hold no mpi crate and link no
# libmpi. Its own target folder keeps the main build's cache intact.
NO_MPI_BIN := target/no-mpi/debug/hysolve
no-mpi:
	$(CARGO) build --no-default-features --target-dir target/no-mpi --bin hysolve --example custom_problem
	@if $(CARGO) tree --no-default-features -e normal -i mpi >/dev/null 2>&1; then \
	  echo "no-mpi: the mpi crate is still a dependency without default features"; exit 1; fi
	@if ldd $(NO_MPI_BIN) | grep -i mpi; then \
	  echo "no-mpi: $(NO_MPI_BIN) links an MPI library"; exit 1; fi
	$(NO_MPI_BIN) --threads 2 queens 8 | grep -q "92 solutions"
	target/no-mpi/debug/examples/custom_problem 7 --distinct | grep -q "L(2,7) = 26 "
	@echo "no-mpi: threads-only hysolve builds, without the mpi crate or libmpi"

# Every test: unit, engine (ranks as threads), CLI, real mpirun runs, the
# job scripts, then the job scripts through a real one-node Slurm.
test: lint no-mpi
	$(CARGO) test --release --lib --bins --tests
	$(CARGO) test --release --doc
	$(MAKE) test-scheduler

# qsub pbs/hybrid.sh, sbatch pbs/slurm.sh and a tiny pbs/sweep.sh through a
# private one-node Slurm cluster (installed when missing; stopped after).
test-scheduler: deps
	bash tests/scheduler/slurm-harness.sh

# The long counts the project quotes and `make test` cannot afford (N-Queens
# 18, UTS T1XL, Bedlam, every 5x5 magic square, the pentomino rectangles,
# IQ Fit and Soma through xc exports), each printed with its published
# source; writes bench-results/verify.txt. About 6 minutes on 2 cores. Run it
# before figures are published.
verify: build
	bash tests/verify.sh $(BIN)

HITORI_SEED := $(shell ls examples/hitori/seed/*.txt | tr '\n' ',' | sed 's/,$$//')
MAGIC4_FILES := examples/magic/seed_4x4_br15.txt,examples/magic/empty_4x4.txt
# Each 5x5 file by cells and by lines, side by side.
MAGIC5_BY := $(shell for f in 5x5_diag_sample00 5x5_row_1_2_13_24_25 5x5_siamese_13blank; do \
  printf '"--by cells examples/magic/%s.txt","--by lines examples/magic/%s.txt",' $$f $$f; done | sed 's/,$$//')
XC_FILES := examples/xc/pentominoes-6x10.xc,examples/xc/langford-12.xc,examples/xc/queens-13.xc,examples/xc/soma.xc
BENCH := $(CARGO) run --release --bin hysolve-bench --
SOLID := tests/data/packing/solid-pentominoes.pieces

# Medians of several runs side by side, appended to CSVs in bench-results/:
# N-Queens 14..17 and Hitori (every seed grid and the generated 50x50 and
# 100x100 in unique mode; the open 16x16 grid's 2,358,720 shadings counted)
# in 1x1, 1x2 and 2x1; Hitori generation times; magic squares (the seed's
# 4x4 benchmark, the empty 4x4, the 5x5 instances by cells and by lines)
# and every 5x5 square counted, up to symmetry in 1x1, 1x2 and 2x1 and all
# of them in 1x2 (about 8 minutes in all); packing
# (IQ Fit 11x5 counted and written out, Soma, pentominoes 6x10, Bedlam);
# the cost of checkpoints (none, the default interval, every 0.1 s); UTS
# T1L and T3L beside N-Queens 16 (the anchor their rates are quoted against);
# the requests per second of the master's bookkeeping (master-bench).
# Every time is prepare_s + wall_s as the run reports it (bench-results/README.md).
# Packing beside our plain C first-empty-cell counter (src/bench/c/pack.c),
# one thread; 3D packing beside our plain C counter with kept placement
# lists (src/bench/c/pack3.c: three of BCSolve's pruning rules, not its
# parity rule): Soma and the solid pentominoes in two boxes. Exact cover:
# the files of examples/xc beside our plain C dancing-links
# counter (src/bench/c/dlx.c), the pentomino file on both structures beside
# the packing solver, and the pentomino and Langford files in 1x1, 1x2, 2x1.
# The plain C peers of our counters (src/bench/c), built as the benchmark's
# command-line twins of hysolve (same arguments, same JSON summary).
PEER_CFLAGS := -O3 -march=native
target/bench-c/%: src/bench/c/%.c
	@mkdir -p target/bench-c
	$(CC) $(PEER_CFLAGS) -o $@ $<

bench: build bench-ranks target/bench-c/queens target/bench-c/dlx target/bench-c/pack target/bench-c/pack3
	$(BENCH) --reps 3 --configs 1x1 --out bench-results/pack-peer.csv \
	  --bin target/release/hysolve,target/bench-c/pack --problem "pack --pieces {}" \
	  --values "pentominoes --board 10x6","iqfit --board 11x5"
	$(BENCH) --reps 3 --configs 1x1 --out bench-results/pack3-peer.csv \
	  --bin target/release/hysolve,target/bench-c/pack3 --problem "pack --pieces {}" \
	  --values "soma --board 3x3x3","$(SOLID) --board 10x3x2","$(SOLID) --board 6x5x2"
	$(BENCH) --reps 5 --configs 1x1 --out bench-results/xc-peer.csv \
	  --bin target/release/hysolve,target/bench-c/dlx --problem "xc {}" --values $(XC_FILES)
	$(BENCH) --reps 5 --configs 1x1 --out bench-results/xc-peer.csv --problem "{}" \
	  --values "xc examples/xc/pentominoes-6x10.xc","xc --engine links examples/xc/pentominoes-6x10.xc","pack --pieces pentominoes --board 6x10"
	$(BENCH) --reps 9 --out bench-results/xc.csv --problem "xc {}" \
	  --values examples/xc/pentominoes-6x10.xc,examples/xc/langford-12.xc
	$(BENCH) --reps 5 --configs 1x1 --out bench-results/queens-peer.csv \
	  --bin "target/release/hysolve,HYSOLVE_SIMD=avx2 target/release/hysolve,HYSOLVE_SIMD=none target/release/hysolve,target/bench-c/queens" \
	  --values 16,17
	$(BENCH) --reps 1 --configs 1x2 --out bench-results/queens.csv --values 18,19
	$(BENCH) --reps 3 --out bench-results/queens.csv
	$(BENCH) --reps 5 --configs 1x1,2x1 --out bench-results/hitori.csv \
	  --problem "--mode unique hitori {}" --values $(HITORI_SEED),examples/hitori/gen-50x50.txt,examples/hitori/gen-100x100.txt
	$(BENCH) --reps 3 --out bench-results/hitori.csv \
	  --problem "--mode count hitori {}" --values examples/hitori/open-16x16.txt
	$(BENCH) --reps 3 --configs 1x1 --out bench-results/hitori-generate.csv \
	  --problem "generate hitori --size {} --seed 1" --values 25,50,100,200
	$(BENCH) --reps 5 --out bench-results/magic.csv --problem "magic {}" \
	  --values=$(MAGIC4_FILES),$(MAGIC5_BY)
	$(BENCH) --reps 1 --configs 1x1,1x2,2x1 --out bench-results/magic5.csv \
	  --problem "magic --empty 5 {}" --values=--distinct
	$(BENCH) --reps 1 --configs 1x2 --out bench-results/magic5.csv \
	  --problem "magic --empty 5 {}" --values="--by lines"
	$(BENCH) --reps 3 --out bench-results/pack.csv --problem "pack --pieces {}" \
	  --values "iqfit --board 11x5","soma --board 3x3x3","pentominoes --board 10x6"
	$(BENCH) --reps 3 --out bench-results/pack.csv \
	  --problem "--mode all --out /tmp/hysolve-iqfit.txt pack --pieces iqfit --board {}" --values 11x5
	$(BENCH) --reps 1 --configs 1x2,2x1 --out bench-results/pack.csv --problem "pack --distinct --pieces bedlam --board {}" --values 4x4x4
	$(BENCH) --reps 1 --configs 1x2 --out bench-results/pack.csv --problem "pack --distinct --pieces $(SOLID) --board {}" --values 5x4x3
	$(BENCH) --reps 3 --out bench-results/uts.csv --problem "{}" \
	  --values "uts --tree T1L","uts --tree T3L","queens 16"
	$(CARGO) run --release --bin master-bench -- --out bench-results/master.csv
	$(BENCH) --reps 7 --configs 1x2 --out bench-results/checkpoint.csv \
	  --problem "{} queens 16" --values ",--checkpoint target/bench.ckpt,--checkpoint target/bench.ckpt --checkpoint-every 0.1"
	$(BENCH) --reps 7 --configs 1x2 --out bench-results/checkpoint.csv \
	  --problem "{} --mode all --out /tmp/hysolve-pent.txt pack --pieces pentominoes --board 10x6" \
	  --values ",--checkpoint target/bench.ckpt,--checkpoint target/bench.ckpt --checkpoint-every 0.1"

# The protocol at many ranks, on this machine (so oversubscribed): N-Queens
# 17 on 2 and 128 ranks of one thread, UTS T1L and T3L on 2 and 64, side by
# side; the search time and the master's messages per rank
# (bench-results/ranks.csv). About 5 minutes on 2 cores.
bench-ranks: build
	$(BENCH) --reps 3 --configs 2x1,128x1 --messages --out bench-results/ranks.csv \
	  --problem "queens {}" --values 17
	$(BENCH) --reps 3 --configs 2x1,64x1 --messages --out bench-results/ranks.csv \
	  --problem "uts --tree {}" --values T1L,T3L

# Strong scaling on this machine: N-Queens 16, the open 16x16 Hitori
# count and UTS T1L and T3L over every ranks x threads split of 1, 2, 4, ... workers up to twice
# the cores (the last step oversubscribed), SWEEP_REPS runs each, medians.
# Writes bench-results/sweep.csv, sweep-runs.jsonl, the SVG plots and the
# sweep's section of bench-results/README.md.
SWEEP_REPS ?= 3
SWEEP_ARGS ?=
sweep: build
	target/release/hysolve-sweep run --reps $(SWEEP_REPS) $(SWEEP_ARGS) \
	  --workload "--mode count queens 16" \
	  --workload "--mode count hitori examples/hitori/open-16x16.txt" \
	  --workload "uts --tree T1L" \
	  --workload "uts --tree T3L"

clean:
	$(CARGO) clean
