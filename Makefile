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
# The profile make test and make check build with (Cargo.toml).
TEST_PROFILE := testing
TESTING := --profile $(TEST_PROFILE)

.PHONY: cli-reference all deps deps-build build run test check test-scheduler lint lint-clippy no-mpi aarch64 bench bench-deps bench-clique bench-clisat bench-ranks bench-user-build sweep sim-validate sim-sweep pingpong latency verify clean

all: build

# Installs what the build and the tests use, when missing (.ci/deps.sh:
# OpenMPI, libclang, shellcheck, Chromium, cliquer, with apt-get as root or
# through sudo; one line naming what to install by hand where it cannot).
# `deps-build` (make build, make run) asks only for OpenMPI and libclang.
# DPKG_QUERY and LIBCLANG_DIRS exist for cli/tests/deps.rs.
DPKG_QUERY ?= dpkg-query
LIBCLANG_DIRS ?= /usr/lib /usr/lib/* /usr/lib64 /usr/local/lib /usr/local/lib/* /usr/lib/llvm-*/lib /usr/local/llvm*/lib
DEPS_SH = DPKG_QUERY="$(DPKG_QUERY)" LIBCLANG_DIRS="$(LIBCLANG_DIRS)" CARGO="$(CARGO)" $(SHELL) .ci/deps.sh
deps:
	@$(DEPS_SH)

deps-build:
	@BUILD_ONLY=1 $(DEPS_SH)

build: deps-build
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

# Clippy runs last wherever it runs (`lint-clippy`): on this machine's
# cargo 1.95, the first build of a profile or target folder not built
# before, right after a fresh `cargo clippy`, failed its probe of rustc
# (`failed to run rustc to learn about target-specific information`, the
# probe's input the text of a dependency's warning) and cached the
# failure; run before clippy, every build passes.
#
# The docs build with the tests' profile: the dependencies they check are
# then the ones clippy checks (17 s of make test's clippy instead of 31).
lint: deps
	$(CARGO) fmt --all -- --check
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc $(TESTING) --workspace --no-deps
	# The library could be published as it is: its package builds alone.
	# (hysolve-puzzles depends on it by version, so it packages once
	# hysolve is on a registry.)
	$(ONE_OFF) $(CARGO) package -p hysolve --allow-dirty --quiet --target-dir $(ONE_OFF_DIR)
	shellcheck pbs/*.sh tests/scheduler/* tests/verify.sh .ci/deps.sh .ci/run tools/peers/*

lint-clippy: deps
	$(CARGO) clippy $(TESTING) --workspace --all-targets -- -D warnings

# The library as a user's program gets it (`hysolve` with no features), and
# the threads-only binary a laptop without OpenMPI gets (`cargo install
# --path cli --no-default-features`): the library must not pull in the
# command line's crates, neither may hold the mpi crate, and the binary
# must link no libmpi.
# These builds and the package's (lint) only have to build and run once:
# without debug info and incremental caches (these two took 46 s instead
# of 70 on 2 cores), and in one target folder of their own, which keeps
# the main build's cache and builds the crates the three share once (the
# package and these two, on fresh clones of a 2-core AMD EPYC: 45 s in
# one folder, 68 s when the package built in target/ and these in another).
ONE_OFF := CARGO_PROFILE_DEV_DEBUG=0 CARGO_INCREMENTAL=0
ONE_OFF_DIR := target/one-off
NO_MPI_BIN := $(ONE_OFF_DIR)/debug/hysolve
CLI_ONLY_CRATES := clap indicatif plotters mpi console signal-hook tracing-subscriber
no-mpi:
	@tree=$$($(CARGO) tree -p hysolve --no-default-features -e normal --prefix none); \
	for c in $(CLI_ONLY_CRATES); do \
	  if grep -q "^$$c v" <<<"$$tree"; then echo "no-mpi: the library depends on $$c"; exit 1; fi; \
	done
	$(ONE_OFF) $(CARGO) build -p hysolve-cli --no-default-features --target-dir $(ONE_OFF_DIR) --bin hysolve
	$(ONE_OFF) $(CARGO) build -p hysolve --target-dir $(ONE_OFF_DIR) --example custom_problem
	@if $(CARGO) tree -p hysolve-cli --no-default-features -e normal -i mpi >/dev/null 2>&1; then \
	  echo "no-mpi: the mpi crate is still a dependency without default features"; exit 1; fi
	@if ldd $(NO_MPI_BIN) | grep -i mpi; then \
	  echo "no-mpi: $(NO_MPI_BIN) links an MPI library"; exit 1; fi
	$(NO_MPI_BIN) --threads 2 queens 8 | grep -q "92 solutions"
	$(ONE_OFF_DIR)/debug/examples/custom_problem 7 --distinct | grep -q "L(2,7) = 26 "
	@echo "no-mpi: the library holds none of $(CLI_ONLY_CRATES); threads-only hysolve builds without libmpi"

# The library and the threads-only command line type-check for aarch64
# (Apple silicon under Linux, Graviton): the code without x86 intrinsics,
# on the same paths HYSOLVE_SIMD=none runs here. The target's standard
# library comes through rustup; where it cannot be had, this says NOT
# CHECKED in one line and passes on.
aarch64:
	@if ! command -v rustup >/dev/null 2>&1; then \
	  echo "aarch64: NOT CHECKED: no rustup here to add the target"; \
	elif ! { rustup target list --installed | grep -qx aarch64-unknown-linux-gnu || \
	         rustup target add aarch64-unknown-linux-gnu >/dev/null 2>&1; }; then \
	  echo "aarch64: NOT CHECKED: rustup could not add the target (offline?)"; \
	else \
	  $(CARGO) check -p hysolve -p hysolve-cli --no-default-features \
	    --target aarch64-unknown-linux-gnu --target-dir target/aarch64 && \
	  echo "aarch64: the library and the threads-only hysolve type-check"; \
	fi

# Every test: lint, the library and threads-only builds, unit tests,
# integration tests (the library's, the command line's, real mpirun runs,
# the job scripts), doc tests, then the job scripts through a real one-node
# Slurm. What .ci/run runs.
#
# The tests build with the `testing` profile (why: Cargo.toml); users,
# `make run`, `make bench` and the sweeps get `release`.
#
# The build holds the examples' binaries, which the tests run
# (tests/example.rs builds them the same way when run alone).
# `--tests` selects every target whose tests are on: the library's unit
# tests, the integration tests, the examples'. A `--lib` beside it would
# also build the command line's library as a unit-test binary, though its
# `test = false` (cli/Cargo.toml): 43 s of CPU for no test.
test: lint no-mpi aarch64
	$(CARGO) build $(TESTING) --bins --examples
	$(CARGO) test $(TESTING) --tests
	$(CARGO) test $(TESTING) --doc
	$(MAKE) test-scheduler SCHEDULER_BINS=target/$(TEST_PROFILE)
	$(MAKE) lint-clippy

# The fast loop for developers, on a built tree (under 3 minutes on 2
# cores): format, clippy, unit tests, the doc tests, and the integration
# tests that need neither mpirun nor a browser nor the long counts (the
# puzzles' counts in every configuration and the independent checkers are
# make test's).
# Every command on the whole workspace, so that each builds with the
# features `make test` built with (`-p` alone would rebuild the library).
# The integration tests of the library, the puzzles and the command line
# are each one binary (tests/suite.rs, puzzles/tests/suite.rs,
# cli/tests/suite.rs), a module a file: a filter picks files in all three.
check:
	$(CARGO) fmt --all -- --check
	$(CARGO) build $(TESTING)
	$(CARGO) test $(TESTING) --lib --bin hysolve-sweep --test bench
	$(CARGO) test $(TESTING) --test suite -- layers:: surface:: engine:: check:: conformance:: \
	  magic:: xc:: simd:: uts:: clique:: fuzz:: --skip independent::
	$(CARGO) test $(TESTING) --doc
	$(MAKE) lint-clippy

# The command-line reference, docs/cli.md, written from the clap definition
# (each command's --help); cli/tests/reference.rs fails when it differs.
# The whole workspace builds, so that the tool is the build's, not a build
# of its own with other features.
cli-reference:
	$(CARGO) build $(TESTING)
	target/$(TEST_PROFILE)/cli-reference > docs/cli.md

# qsub pbs/hybrid.sh, sbatch pbs/slurm.sh and a tiny pbs/sweep.sh through a
# private one-node Slurm cluster (installed when missing; stopped after).
# SCHEDULER_BINS: the folder of the hysolve and hysolve-sweep the jobs run.
SCHEDULER_BINS ?= target/release
test-scheduler: deps
	BIN=$(SCHEDULER_BINS)/hysolve SWEEP=$(SCHEDULER_BINS)/hysolve-sweep bash tests/scheduler/slurm-harness.sh

# The long counts the project quotes and `make test` cannot afford (N-Queens
# 18, UTS T1XL, Bedlam, every 5x5 magic square, the pentomino rectangles,
# IQ Fit and Soma through xc exports), each printed with its published
# source; writes bench-results/verify.txt. About 4 minutes on 2 cores. Run it
# before figures are published.
verify: build
	bash tests/verify.sh $(BIN)

HITORI_SEED := $(shell ls examples/hitori/seed/*.txt | tr '\n' ',' | sed 's/,$$//')
MAGIC4_FILES := examples/magic/seed_4x4_br15.txt,examples/magic/empty_4x4.txt
# Each 5x5 file by cells and by lines, side by side.
MAGIC5_BY := $(shell for f in 5x5_diag_sample00 5x5_row_1_2_13_24_25 5x5_siamese_13blank; do \
  printf '"--by cells examples/magic/%s.txt","--by lines examples/magic/%s.txt",' $$f $$f; done | sed 's/,$$//')
XC_FILES := examples/xc/pentominoes-6x10.xc,examples/xc/langford-12.xc,examples/xc/queens-13.xc,examples/xc/soma.xc
BENCH := $(CARGO) run --release -p hysolve-tools --bin hysolve-bench --
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
# Packing beside our plain C first-empty-cell counter (tools/c/pack.c),
# one thread; 3D packing beside our plain C counter with kept placement
# lists (tools/c/pack3.c: three of BCSolve's pruning rules, not its
# parity rule): Soma and the solid pentominoes in two boxes. Exact cover:
# the files of examples/xc beside our plain C dancing-links
# counter (tools/c/dlx.c), the pentomino file on both structures beside
# the packing solver, and the pentomino and Langford files in 1x1, 1x2, 2x1.
# A search of cheap nodes (examples/cheap_nodes.rs, 102,334,155 nodes of a
# few bit operations) on Problem (children by value, and moves applied), on
# Problem with count_cutoff, on Tree, beside its plain Rust recursion, one
# thread (issue 48).
# The same cheap-node search as a user's crate builds it: RUSTFLAGS set
# without target-cpu (it replaces .cargo/config.toml's rustflags, so
# neither x86-64-v2 nor the function alignment applies; `cargo build -v`
# shows the flags), into a target folder of its own; plain, problem, apply
# and tree, one thread, medians of 5, interleaved, into
# bench-results/cheap-nodes-user.csv (src/engine/README.md, "A user's
# build"). About a minute on 2 cores after the build.
USER_TARGET := target/user-build
bench-user-build:
	RUSTFLAGS="-C opt-level=3" CARGO_TARGET_DIR=$(USER_TARGET) $(CARGO) build --release -p hysolve --example cheap_nodes
	$(BENCH) --reps 5 --configs 1x1 --out bench-results/cheap-nodes-user.csv \
	  --bin $(USER_TARGET)/release/examples/cheap_nodes --problem "{} 38" --values plain,problem,apply,tree
# The plain C peers of our counters (tools/c), built as the benchmark's
# command-line twins of hysolve (same arguments, same JSON summary).
PEER_CFLAGS := -O3 -march=native
target/bench-c/%: tools/c/%.c
	@mkdir -p target/bench-c
	$(CC) $(PEER_CFLAGS) -o $@ $<

# What one message costs between two ranks whose receiver polls as the
# manager does (MPI_Improbe, then a sleep): 0, 20 and 100 µs between polls,
# with the default timer slack and with 1 ns (tools/c/mpi-pingpong.c;
# bench-results/log/2026-11-to-12-groups.md, "The simulator on 16 real
# cores again").
target/bench-c/mpi-pingpong: tools/c/mpi-pingpong.c
	@mkdir -p target/bench-c
	mpicc -O2 -o $@ $<

# Then a busy receiver's look, one probe or two (tools/c/mpi-busy-poll.c;
# src/cluster/README.md, "Noticing a message").
target/bench-c/mpi-busy-poll: tools/c/mpi-busy-poll.c
	@mkdir -p target/bench-c
	mpicc -O2 -o $@ $<

pingpong: deps-build target/bench-c/mpi-pingpong target/bench-c/mpi-busy-poll
	for us in 0 20 100; do for slack in default slack; do \
	  $(MPIRUN) -np 2 target/bench-c/mpi-pingpong $$us $$slack || exit 1; done; done
	for probes in once twice; do \
	  $(MPIRUN) -np 2 target/bench-c/mpi-busy-poll 20 $$probes || exit 1; done

# A hop and a steal's round trip of the real protocol, against the
# simulator's: MPI's own one-way hop (mpi-pingpong, the receiver
# spinning; mpi-busy-poll, a receiver busy 20 µs between looks that probes
# twice, as the transport does), then UTS T3L's steal round trips (a rank's request for work
# to the work, `--json`'s steal_round_trip_us) in 5 real runs on 2 ranks
# of one thread and in the simulator; on a host of 16 cores or more also
# 16x1. Appends to bench-results/latency.csv (src/cluster/README.md,
# "Noticing a message"). About a minute on 2 cores.
latency: build target/bench-c/mpi-pingpong target/bench-c/mpi-busy-poll
	$(MPIRUN) -np 2 target/bench-c/mpi-pingpong 0 default
	$(MPIRUN) -np 2 target/bench-c/mpi-busy-poll 20 twice
	configs=2x1; if [ "$$(nproc)" -ge 16 ]; then configs=2x1,16x1; fi; \
	target/release/hysolve-latency --reps 5 --configs $$configs \
	  --out bench-results/latency.csv

# Maximum clique beside Debian's cliquer (tools/peers/cliquer-json), one
# thread each, on random G(200, 0.75) graphs; then G(200, 0.9), which
# cliquer does not finish in 10 minutes, and G(210, 0.9) (18 s on one
# thread), alone in 1x1, 1x2 and 2x1 (the speedup and the nodes of each
# split against one thread). The graphs are made by the generator, into
# target/bench-graphs. Then the DIMACS challenge graphs (below): ours
# beside cliquer where it finishes, every one in 1x1 and 1x2, and our
# nodes beside MCSa1's published colourings; first `bench-clisat` (below).
# About 21 minutes.
GRAPHS := target/bench-graphs
# The DIMACS challenge graphs of ../shared/data/clique (README there): all
# of them in 1x1 and 1x2, and those cliquer finishes in seconds beside it.
SHARED_CLIQUE := ../shared/data/clique
DIMACS := $(GRAPHS)/dimacs
DIMACS_ALL := $(shell printf '$(DIMACS)/%s.clq,' brock400_4 gen400_p0.9_75 p_hat1500-1 p_hat300-3 MANN_a27 \
  gen200_p0.9_44 p_hat700-1 gen200_p0.9_55 p_hat300-2 brock200_4 hamming8-4 C125.9 keller4 p_hat300-1 brock200_2 | sed 's/,$$//')
DIMACS_PEER := $(shell printf '$(DIMACS)/%s.clq,' brock200_2 p_hat300-1 keller4 hamming8-4 p_hat700-1 C125.9 | sed 's/,$$//')
# Maximum clique beside CliSAT (San Segundo et al. 2023, the public-domain
# binary in ../shared/peers/clisat; tools/peers/clisat-json), on the 15
# DIMACS graphs of ../shared/data/clique, medians of 3: ours on one thread
# interleaved with CliSAT in its degree order (1) and colour order (2),
# then ours on two threads (the speedup over the first), into
# bench-results/clique-clisat.csv, and the table (tools/clique-clisat.awk).
# Skipped, with a line saying so, where ../shared holds no CliSAT. About
# 5 minutes on 2 cores after the build (CliSAT's degree order takes 50 s
# of brock400_4 a run).
CLISAT := ../shared/peers/clisat/CliSAT
bench-clisat: build
	@mkdir -p $(DIMACS)
	@if [ -x $(CLISAT) ]; then \
	  for f in $(SHARED_CLIQUE)/*.clq.gz; do gunzip -c $$f > $(DIMACS)/$$(basename $$f .gz); done && \
	  $(BENCH) --reps 3 --configs 1x1 --out bench-results/clique-clisat.csv \
	    --bin "target/release/hysolve,tools/peers/clisat-json,CLISAT_ORDERING=2 tools/peers/clisat-json" \
	    --problem "clique {}" --values $(DIMACS_ALL) && \
	  $(BENCH) --reps 3 --configs 1x2 --out bench-results/clique-clisat.csv --problem "clique {}" \
	    --values $(DIMACS_ALL) && \
	  awk -f tools/csv.awk -f tools/clique-clisat.awk bench-results/clique-clisat.csv; \
	else echo "bench-clisat: skipped: no CliSAT binary at $(CLISAT) (../shared/peers/clisat)"; fi

# The peers `make bench` runs beside us and `make test` does not need.
bench-deps:
	@BENCH_PEERS=1 $(DEPS_SH)

bench-clique: build bench-clisat
	@mkdir -p $(GRAPHS)
	for s in 1 2 3; do $(BIN) generate clique random 200 0.75 --seed $$s --out $(GRAPHS)/g200-0.75-$$s.col; done
	$(BIN) generate clique random 200 0.9 --seed 1 --out $(GRAPHS)/g200-0.9-1.col
	$(BIN) generate clique random 210 0.9 --seed 1 --out $(GRAPHS)/g210-0.9-1.col
	$(BENCH) --reps 3 --configs 1x1 --out bench-results/clique-peer.csv \
	  --bin target/release/hysolve,tools/peers/cliquer-json --problem "clique {}" \
	  --values $(GRAPHS)/g200-0.75-1.col,$(GRAPHS)/g200-0.75-2.col,$(GRAPHS)/g200-0.75-3.col
	$(BENCH) --reps 3 --configs 1x1,1x2,2x1 --out bench-results/clique.csv --problem "clique {}" \
	  --values $(GRAPHS)/g200-0.9-1.col,$(GRAPHS)/g210-0.9-1.col
	@mkdir -p $(GRAPHS)/dimacs
	for f in $(SHARED_CLIQUE)/*.clq.gz; do gunzip -c $$f > $(GRAPHS)/dimacs/$$(basename $$f .gz); done
	$(BENCH) --reps 3 --configs 1x1 --out bench-results/clique-dimacs-peer.csv \
	  --bin target/release/hysolve,tools/peers/cliquer-json --problem "clique {}" \
	  --values $(DIMACS_PEER)
	$(BENCH) --reps 3 --configs 1x1,1x2 --out bench-results/clique-dimacs.csv --problem "clique {}" \
	  --values $(DIMACS_ALL)
	@echo "Our nodes (1x1, the last run of bench-results/clique-dimacs.csv) beside MCSa1's colourings"
	@echo "(published, not measured here: bench-results/clique-mcsa1-published.csv names the source and machine):"
	@awk -f tools/csv.awk -f tools/clique-mcsa1.awk bench-results/clique-mcsa1-published.csv bench-results/clique-dimacs.csv

bench: build bench-deps bench-ranks bench-clique target/bench-c/queens target/bench-c/dlx target/bench-c/pack target/bench-c/pack3 target/bench-c/langford
	$(CARGO) build --release -p hysolve --example custom_problem
	$(BENCH) --reps 5 --configs 1x1 --out bench-results/custom-peer.csv \
	  --bin target/release/examples/custom_problem,target/release/langford-plain,target/bench-c/langford \
	  --problem "{}" --values 12
	$(CARGO) build --release -p hysolve --example cheap_nodes
	$(BENCH) --reps 5 --configs 1x1,1x2 --out bench-results/cheap-nodes.csv \
	  --bin target/release/examples/cheap_nodes --problem "{} 38" --values plain,problem,apply,cutoff,tree
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
	  --bin target/release/hysolve,tools/peers/singles-json --problem "generate hitori --size {}" \
	  --values "30 --seed 1 --difficulty hard,50 --seed 1 --difficulty hard"
	$(BENCH) --reps 3 --configs 1x1 --out bench-results/hitori-generate.csv \
	  --problem "generate hitori --size {}" \
	  --values "30 --seed 1,50 --seed 1,100 --seed 1,100 --seed 1 --difficulty hard,400 --seed 1,400 --seed 1 --difficulty hard"
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
	$(CARGO) run --release -p hysolve-tools --bin master-bench -- --out bench-results/master.csv
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

# The simulator (hysolve-sim) against real runs here, before any prediction
# is quoted: wall_s on 1x1, 1x2 and 2x1, master messages on 64 and 128
# oversubscribed ranks, for UTS T1L and T3L and N-Queens 17
# (bench-results/sim-validation.csv; src/cluster/sim/README.md, "Validation").
# About 8 minutes on 2 cores.
sim-validate: build
	target/release/sim-validate

# Strong scaling in simulation, 1 to 16,384 workers as ranks x 16 threads
# and ranks x 1 thread (bench-results/sim-sweep.csv and
# sim-sweep-efficiency.svg). Each point runs the real search, so a point
# takes about the workload's time on one core, more at many ranks.
# A group axis: SIM_SWEEP_ARGS="--group-sizes 0,8,32" (0: one group;
# the columns groups and group_master_busy say what ran).
SIM_SWEEP_ARGS ?=
sim-sweep: build
	target/release/sim-sweep $(SIM_SWEEP_ARGS)

clean:
	$(CARGO) clean
