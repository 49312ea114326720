#!/usr/bin/env bash
# make verify: re-checks, on the built binary, every long count the project
# quotes that `make test` cannot afford, each against its published source
# (or, where none is published, the independent program that reproduced it).
# Prints one line a count and writes the same lines, with the commit and the
# machine, to bench-results/verify.txt. Exits non-zero if any count differs.
# About 4 minutes on 2 cores.
#
#   tests/verify.sh [HYSOLVE_BINARY]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

BIN=${1:-target/release/hysolve}
OUT=bench-results/verify.txt
THREADS=$(nproc 2>/dev/null || echo 2)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

[ -x "$BIN" ] || { echo "verify: $BIN is not built (make build)"; exit 1; }
# The commit the counts are checked at, taken before the runs.
COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- src cli tools Cargo.toml Cargo.lock 2>/dev/null || echo -dirty)"

failed=0
lines=()

# check NAME EXPECTED SOURCE -- hysolve arguments...
check() {
    local name=$1 want=$2 source=$3
    shift 4
    local start end json got took
    start=$(date +%s.%N)
    if ! json=$("$BIN" --threads "$THREADS" --json --quiet "$@" 2>"$TMP/err" | tail -n 1); then
        json=""
    fi
    end=$(date +%s.%N)
    took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    # The top-level count: serde_json writes keys in order, so it follows
    # the per-rank counts of rank_stats.
    got=$(grep -o '"solutions":[0-9]*' <<<"$json" | tail -n 1 | cut -d: -f2)
    local line
    if [ "$got" = "$want" ]; then
        line=$(printf 'ok    %-44s %15s  %6ss  %s' "$name" "$want" "$took" "$source")
    else
        line=$(printf 'FAIL  %-44s %15s  got %s (%s)' "$name" "$want" "${got:-nothing}" "$(head -c 200 "$TMP/err")")
        failed=1
    fi
    echo "$line"
    lines+=("$line")
}

# An xc export of a packing, counted by the exact-cover solver.
export_xc() {
    "$BIN" pack --pieces "$1" --board "$2" --export-xc "$TMP/$1-$2.xc" >/dev/null 2>&1
    echo "$TMP/$1-$2.xc"
}

echo "verify: $BIN, $THREADS threads, commit $COMMIT"

check "N-Queens 18" 666090624 "OEIS A000170" -- queens 18
check "UTS T1XL leaves" 1308100063 "the UTS sample trees (Olivier et al., LCPC 2006)" -- uts --tree T1XL
check "Bedlam cube, up to rotation" 19186 "the maker's figure (Bedlam Puzzles)" -- pack --distinct --pieces bedlam --board 4x4x4
check "Bedlam cube, every packing (weighted count)" 460464 "19,186 x 24 rotations (none symmetric)" -- pack --pieces bedlam --board 4x4x4
check "5x5 magic squares, up to symmetry" 275305224 "Schroeppel 1973, OEIS A006052" -- magic --empty 5 --distinct
check "5x5 magic squares, all" 2202441792 "8 x A006052(5), OEIS A270876" -- magic --empty 5
for board in 6x10 5x12 4x15 3x20; do
    case $board in
        6x10) n=9356 ;; 5x12) n=4040 ;; 4x15) n=1472 ;; 3x20) n=8 ;;
    esac
    check "pentominoes $board through xc" "$n" "4 x Haselgrove 1960 (2339, 1010, 368, 2)" -- xc "$(export_xc pentominoes "$board")"
done
check "IQ Fit 11x5 through xc" 371020 "not published; puzzles/tests/independent/pack.rs" -- xc "$(export_xc iqfit 11x5)"
check "Soma cube through xc" 11520 "48 x 240, Conway and Guy 1961" -- xc "$(export_xc soma 3x3x3)"

{
    echo "# make verify: $(date -u +%Y-%m-%d), commit $COMMIT"
    echo "# machine: $(hostname) ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores), $THREADS threads"
    echo "# columns: status, count, expected, seconds (whole process), source"
    printf '%s\n' "${lines[@]}"
} >"$OUT"

if [ "$failed" = 1 ]; then
    echo "verify: FAILED (see above); $OUT written"
    exit 1
fi
echo "verify: every count as published; $OUT written"
