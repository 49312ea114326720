#!/bin/bash
# One hybrid hysolve run: one MPI rank per node, THREADS worker threads each.
#
#   qsub pbs/hybrid.sh                                   # defaults below
#   qsub -v PROBLEM="queens 17" pbs/hybrid.sh            # another problem
#   qsub -v PROBLEM="queens 16",MODE=count,ARGS="--stats" pbs/hybrid.sh
#   qsub -l select=4:ncpus=16:mpiprocs=1:ompthreads=16 pbs/hybrid.sh   # 4 nodes x 16 threads
#   qsub -l walltime=02:00:00 pbs/hybrid.sh              # longer walltime
#   bash pbs/hybrid.sh                                   # laptop: mpirun with RANKS (default 2)
#
# Nodes: the N in select=N. Threads per rank: ncpus/ompthreads (PBS sets
# OMP_NUM_THREADS and NCPUS from them), or THREADS=... through -v.
#PBS -N hysolve
#PBS -l select=2:ncpus=8:mpiprocs=1:ompthreads=8
#PBS -l place=scatter:excl
#PBS -l walltime=00:30:00
#PBS -j oe
set -euo pipefail

# Under PBS the script runs from a copy: the submit directory is the checkout.
if [ -n "${PBS_O_WORKDIR:-}" ]; then
  cd "$PBS_O_WORKDIR"
else
  cd "$(dirname "$0")/.."
fi

PROBLEM=${PROBLEM:-"queens 16"}
MODE=${MODE:-count}
ARGS=${ARGS:-}
BIN=${BIN:-target/release/hysolve}

if [ -n "${PBS_NODEFILE:-}" ] && [ -r "$PBS_NODEFILE" ]; then
  # mpiprocs=1: each node appears once in the node file.
  RANKS=${RANKS:-$(wc -l < "$PBS_NODEFILE")}
  THREADS=${THREADS:-${OMP_NUM_THREADS:-${NCPUS:-1}}}
  HOSTS=(--hostfile "$PBS_NODEFILE")
else
  RANKS=${RANKS:-2}
  cores=$(nproc 2>/dev/null || echo 2)
  THREADS=${THREADS:-$(( cores / RANKS > 0 ? cores / RANKS : 1 ))}
  HOSTS=(--oversubscribe)
fi

# Build only where no binary exists (never on a compute node that has one).
[ -x "$BIN" ] || make build

if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

echo "hysolve: $RANKS rank(s) x $THREADS thread(s): $PROBLEM (mode $MODE)" >&2
# One rank per node, its threads free to use the node's cores.
# shellcheck disable=SC2086 # PROBLEM and ARGS are word lists on purpose
exec mpirun "${HOSTS[@]}" -np "$RANKS" --map-by ppr:1:node --bind-to none \
  -x OMP_NUM_THREADS="$THREADS" \
  "$BIN" --threads "$THREADS" --mode "$MODE" $ARGS --json $PROBLEM
