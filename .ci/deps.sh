#!/usr/bin/env bash
# make deps: installs what the build and the tests use, when missing:
# OpenMPI (mpicc, which the mpi crate's build runs, and mpirun), libclang
# (the library bindgen loads: libclang.so or libclang-N.so, never
# libclang-cpp), shellcheck (the job scripts), Chromium (the viewer's
# browser test) and cliquer (the maximum-clique peer of the tests and
# `make bench`). On Debian and Ubuntu the package manager is asked;
# elsewhere the places clang-sys searches. What cannot be installed (no
# root, no sudo, no apt-get, no network) is named in one line, and the
# script fails.
#
# Environment (for cli/tests/deps.rs): DPKG_QUERY, the dpkg-query to ask;
# LIBCLANG_DIRS, the folders (globs) searched for libclang without dpkg.
# BENCH_PEERS=1 (make bench-deps) also asks for the benchmarks' peers;
# BUILD_ONLY=1 (make build, make run) asks only for what building and
# running hysolve needs (OpenMPI, libclang), not for the tests' tools.
set -u

DPKG_QUERY=${DPKG_QUERY:-dpkg-query}
LIBCLANG_DIRS=${LIBCLANG_DIRS:-/usr/lib /usr/lib/* /usr/lib64 /usr/local/lib /usr/local/lib/* /usr/lib/llvm-*/lib /usr/local/llvm*/lib}

pkg_ok() {
    # ${Status} is dpkg-query's field, not the shell's.
    # shellcheck disable=SC2016
    command -v "$DPKG_QUERY" >/dev/null 2>&1 &&
        [ "$("$DPKG_QUERY" -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

# Whether any of the given files is libclang itself (not libclang-cpp).
has_libclang() {
    local f
    for f in "$@"; do
        case "${f##*/}" in
            *-cpp.*) ;;
            libclang.so* | libclang-[0-9]*.so*) [ -e "$f" ] && return 0 ;;
        esac
    done
    return 1
}

missing=""
mpicc -show >/dev/null 2>&1 || missing="$missing libopenmpi-dev"
mpirun --version >/dev/null 2>&1 || missing="$missing openmpi-bin"
if [ -n "${LIBCLANG_PATH:-}" ]; then
    has_libclang "$LIBCLANG_PATH"/libclang* || {
        echo "make deps: LIBCLANG_PATH=$LIBCLANG_PATH holds no libclang.so or libclang-N.so: fix it or unset it"
        exit 1
    }
elif command -v "$DPKG_QUERY" >/dev/null 2>&1; then
    pkg_ok libclang-dev || missing="$missing libclang-dev"
else
    shopt -s nullglob
    candidates=()
    for dir in $LIBCLANG_DIRS; do # unquoted: each word a folder, or a glob of folders
        candidates+=("$dir"/libclang*)
    done
    has_libclang "${candidates[@]}" || missing="$missing libclang-dev"
fi
if [ -z "${BUILD_ONLY:-}" ]; then
    shellcheck --version >/dev/null 2>&1 || missing="$missing shellcheck"
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
        command -v google-chrome >/dev/null 2>&1 || missing="$missing chromium"
    command -v cliquer >/dev/null 2>&1 || missing="$missing cliquer"
fi
# `make bench` only: the generator of Simon Tatham's Singles, our Hitori
# generator's peer.
if [ -n "${BENCH_PEERS:-}" ]; then
    command -v sgt-singles >/dev/null 2>&1 || [ -x /usr/games/sgt-singles ] || missing="$missing sgt-puzzles"
fi

if [ -n "$missing" ]; then
    by_hand="make deps: missing$missing: install by hand (apt-get install -y$missing), then run make again"
    if [ "$(id -u)" = 0 ]; then
        SUDO=()
    elif sudo -n true >/dev/null 2>&1; then
        SUDO=(sudo -n)
    else
        echo "$by_hand (needs root or password-less sudo)"
        exit 1
    fi
    command -v apt-get >/dev/null 2>&1 || {
        echo "$by_hand (no apt-get here: use your package manager)"
        exit 1
    }
    echo "installing:$missing"
    log=${TMPDIR:-/tmp}/hysolve-deps.log
    # $missing unquoted: one word a package.
    # shellcheck disable=SC2086
    {
        "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
    } >"$log" 2>&1 || {
        echo "$by_hand (apt-get failed: see $log)"
        exit 1
    }
fi
command -v "${CARGO:-cargo}" >/dev/null 2>&1 || {
    echo "make deps: cargo not found: install Rust from https://rustup.rs"
    exit 1
}
