#!/bin/bash
# A strong-scaling series on the cluster: one job of pbs/hybrid.sh (or
# pbs/slurm.sh) per nodes x threads point and repetition, then, when every
# job has finished, one CSV, Markdown tables and SVG plots of them all
# (through hysolve-sweep gather).
#
#   pbs/sweep.sh                                        # defaults below
#   NODES="1 2 4 8" THREADS="16" REPS=5 pbs/sweep.sh
#   PROBLEM="queens 17" MODE=count pbs/sweep.sh
#   SUBMIT=sbatch pbs/sweep.sh                          # Slurm's sbatch
#   WAIT=0 pbs/sweep.sh                                 # submit only; gather later with
#       target/release/hysolve-sweep gather DIR --out-dir DIR
#
# Variables:
#   NODES     node counts to run (default "1 2 4")
#   THREADS   threads per node to run (default "1 2 4 8 16")
#   REPS      repetitions of each point (default 3)
#   PROBLEM, MODE, ARGS   the workload, as for pbs/hybrid.sh
#   WALLTIME  per job (default 00:30:00)
#   SUBMIT    qsub (PBS Pro, OpenPBS, Torque, Slurm's wrapper) or sbatch
#   OUT       folder for the job outputs, results and plots
#             (default sweep-<date>-<time>)
#   NAME      name of the sweep's files (default sweep)
#   WAIT      seconds to wait for the jobs before giving up (default one
#             day; 0: do not wait)
#   QSUB_ARGS more arguments for every submission (account, queue, ...)
#   BIN       the hysolve binary the jobs run (default target/release/hysolve)
#   SWEEP     the hysolve-sweep binary that gathers (default
#             target/release/hysolve-sweep)
set -euo pipefail
cd "$(dirname "$0")/.."

NODES=${NODES:-"1 2 4"}
THREADS=${THREADS:-"1 2 4 8 16"}
REPS=${REPS:-3}
PROBLEM=${PROBLEM:-"hitori examples/hitori/open-16x16.txt"}
MODE=${MODE:-count}
ARGS=${ARGS:-}
WALLTIME=${WALLTIME:-00:30:00}
SUBMIT=${SUBMIT:-qsub}
OUT=${OUT:-sweep-$(date +%Y%m%d-%H%M%S)}
NAME=${NAME:-sweep}
WAIT=${WAIT:-86400}
QSUB_ARGS=${QSUB_ARGS:-}
BIN=${BIN:-target/release/hysolve}
# Absolute, so that a job finds it wherever it starts.
case "$BIN" in /*) ;; *) BIN=$PWD/$BIN ;; esac
SWEEP=${SWEEP:-target/release/hysolve-sweep}

for v in $NODES $THREADS $REPS; do
  [ "$v" -ge 1 ] 2>/dev/null || { echo "pbs/sweep.sh: error: '$v' in NODES, THREADS or REPS is not a positive number" >&2; exit 2; }
done
case "$PROBLEM$MODE$ARGS$BIN" in
  *,*|*+*) echo "pbs/sweep.sh: error: PROBLEM, MODE, ARGS and BIN cannot hold ',' or '+' (qsub -v splits on commas; '+' joins words)" >&2; exit 2 ;;
esac
if [ ! -x "$BIN" ] || [ ! -x "$SWEEP" ]; then make build; fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

expected=()
for rep in $(seq 1 "$REPS"); do
  for n in $NODES; do
    for t in $THREADS; do
      result="$OUT/${n}x${t}-rep${rep}.json"
      rm -f "$result" "$result.failed"
      name="hys-${n}x${t}-r${rep}"
      # Words joined with '+' (pbs/hybrid.sh splits them again): some qsub
      # front ends, Slurm's wrapper among them, do not quote -v values.
      vars="PROBLEM=${PROBLEM// /+},MODE=$MODE,ARGS=${ARGS// /+},THREADS=$t,RESULT=$result,BIN=$BIN"
      # shellcheck disable=SC2086 # QSUB_ARGS is a word list on purpose
      case "$SUBMIT" in
        sbatch)
          # Submitted from the checkout: pbs/slurm.sh finds pbs/hybrid.sh
          # from the submit directory; the output lands in $OUT.
          id=$(sbatch --parsable $QSUB_ARGS --job-name="$name" --nodes="$n" \
                 --ntasks-per-node=1 --cpus-per-task="$t" --time="$WALLTIME" \
                 --output="$OUT/$name-%j.out" --export="ALL,$vars" pbs/slurm.sh) ;;
        *)
          # qsub -v passes the values; the job starts in the submit
          # directory's checkout (PBS_O_WORKDIR), its output lands in $OUT
          # (Slurm's wrapper puts it in the checkout whatever -o says).
          # One -l: Slurm's wrapper keeps only the last one.
          id=$(qsub $QSUB_ARGS -N "$name" \
                 -l "select=$n:ncpus=$t:mpiprocs=1:ompthreads=$t,place=scatter:excl,walltime=$WALLTIME" \
                 -j oe -o "$OUT/$name.out" -v "$vars" pbs/hybrid.sh) ;;
      esac
      echo "submitted $name: job $id"
      expected+=("$result")
    done
  done
done

gather=("$SWEEP" gather "$OUT" --out-dir "$OUT" --name "$NAME"
        --command "NODES=\"$NODES\" THREADS=\"$THREADS\" REPS=$REPS PROBLEM=\"$PROBLEM\" MODE=$MODE pbs/sweep.sh")
if [ "$WAIT" -eq 0 ]; then
  echo "not waiting; when the jobs are done: ${gather[*]}"
  exit 0
fi

echo "waiting for ${#expected[@]} job(s) (at most $WAIT s)"
deadline=$(( $(date +%s) + WAIT ))
while :; do
  left=0
  for r in "${expected[@]}"; do
    [ -e "$r" ] || [ -e "$r.failed" ] || left=$(( left + 1 ))
  done
  [ "$left" -eq 0 ] && break
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "pbs/sweep.sh: error: $left job(s) still unfinished after $WAIT s; gather later with: ${gather[*]}" >&2
    exit 1
  fi
  sleep 5
done

failed=0
for r in "${expected[@]}"; do
  if [ -e "$r.failed" ]; then
    echo "pbs/sweep.sh: $(basename "$r" .json) failed: $(cat "$r.failed")" >&2
    failed=$(( failed + 1 ))
  fi
done
"${gather[@]}"
echo "results: $OUT/$NAME.csv, plots and README.md in $OUT"
[ "$failed" -eq 0 ] || { echo "pbs/sweep.sh: $failed job(s) failed (see their .out files in $OUT)" >&2; exit 1; }
