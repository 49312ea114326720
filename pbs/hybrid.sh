#!/bin/bash
# One hybrid hysolve run: one MPI rank per node, THREADS worker threads each.
#
# Submit (PBS Professional, OpenPBS; Torque reads the same file):
#   qsub pbs/hybrid.sh                                     # the defaults below
#   qsub -v PROBLEM="queens 17" pbs/hybrid.sh              # another problem
#   qsub -v PROBLEM="hitori examples/hitori/gen-100x100.txt",MODE=unique pbs/hybrid.sh
#   qsub -v ARGS="--stats" pbs/hybrid.sh                   # extra hysolve flags
# Nodes and threads: the select line. N chunks of T cores, one rank each:
#   qsub -l select=4:ncpus=16:mpiprocs=1:ompthreads=16 pbs/hybrid.sh   # 4 nodes x 16 threads
#   qsub -l nodes=4:ppn=16 pbs/hybrid.sh                   # the same on Torque
# Walltime:
#   qsub -l walltime=02:00:00 pbs/hybrid.sh
# Slurm sites: sbatch pbs/slurm.sh (same variables), or Slurm's qsub wrapper.
# Laptop or workstation, no scheduler: mpirun on this machine,
#   bash pbs/hybrid.sh                  # RANKS=2, threads = cores / RANKS
#   RANKS=4 THREADS=1 PROBLEM="queens 16" bash pbs/hybrid.sh
#
# Variables (qsub -v, sbatch --export, or the environment):
#   PROBLEM  problem and its arguments  (default: count the shadings of the
#            shipped open 16x16 Hitori grid, 2,358,720 of them). Words may
#            also be joined with '+' (PROBLEM=queens+17), for qsub front ends
#            that do not quote -v values, such as Slurm's qsub wrapper.
#   MODE     count | all | first | unique (default: count)
#   ARGS     more hysolve flags, e.g. "--stats" or "--out solutions.txt" ('+'
#            joins words here too)
#   THREADS  worker threads per rank (default: what the scheduler granted)
#   RANKS    ranks (default: one per node granted; 2 without a scheduler)
#   RESULT   file to write the run's JSON summary to (pbs/sweep.sh sets it);
#            RESULT.failed gets the exit status when the run fails
#   BIN      the hysolve binary (default target/release/hysolve; built with
#            `make build` only when it does not exist)
#   BIND     mpirun's mapping and binding flags (default: one rank per node
#            bound to THREADS cores; --bind-to none when they do not fit)
#   MPIRUN   the launcher (default mpirun)
#   CHECKPOINT  checkpoint file (count mode, or all mode with --out in ARGS):
#            default hysolve-<digest of MODE, PROBLEM, ARGS>.ckpt in the
#            submit directory; "none": off. When it exists the run resumes
#            from it: resubmit a job killed at its walltime and it goes on.
#            Add ARGS="--checkpoint-every 600" for another interval than 60 s.
#PBS -N hysolve
#PBS -l select=2:ncpus=8:mpiprocs=1:ompthreads=8
#PBS -l place=scatter:excl
#PBS -l walltime=00:30:00
#PBS -j oe
set -euo pipefail
# Some schedulers start jobs with an empty environment (Slurm's qsub wrapper
# exports none): give the job the usual search path.
export PATH=${PATH:-/usr/local/bin:/usr/bin:/bin}

log() { echo "hysolve job: $*"; }

# Where the checkout is, and what the scheduler granted.
if [ -n "${PBS_JOBID:-}" ]; then
  SCHEDULER="PBS (job $PBS_JOBID)"
  cd "${PBS_O_WORKDIR:?PBS_JOBID is set but PBS_O_WORKDIR is not}"
  # PBS Pro lists a host once per MPI process (mpiprocs), Torque once per
  # core: each distinct host is one node either way.
  mapfile -t HOST_LIST < <(awk 'NF && !seen[$1]++ {print $1}' "${PBS_NODEFILE:?PBS_NODEFILE is not set}")
  NODES=${#HOST_LIST[@]}
  GRANTED_THREADS=${OMP_NUM_THREADS:-${NCPUS:-${PBS_NUM_PPN:-1}}}
elif [ -n "${SLURM_JOB_ID:-}" ]; then
  SCHEDULER="Slurm (job $SLURM_JOB_ID)"
  cd "${SLURM_SUBMIT_DIR:?SLURM_JOB_ID is set but SLURM_SUBMIT_DIR is not}"
  HOST_LIST=()
  NODES=${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-1}}
  tasks=${SLURM_NTASKS:-$NODES}
  # Cores per task: what Slurm was asked for, else the node's share.
  GRANTED_THREADS=${SLURM_CPUS_PER_TASK:-$(( ${SLURM_CPUS_ON_NODE:-1} / ((tasks + NODES - 1) / NODES) ))}
  RANKS=${RANKS:-$tasks}
else
  SCHEDULER="none (mpirun on this machine)"
  cd "$(dirname "$0")/.."
  HOST_LIST=()
  NODES=1
  RANKS=${RANKS:-2}
  cores=$(nproc 2>/dev/null || echo 2)
  GRANTED_THREADS=$(( cores / RANKS > 0 ? cores / RANKS : 1 ))
fi

PROBLEM=${PROBLEM:-"hitori examples/hitori/open-16x16.txt"}
PROBLEM=${PROBLEM//+/ }
MODE=${MODE:-count}
ARGS=${ARGS:-}
ARGS=${ARGS//+/ }
BIN=${BIN:-target/release/hysolve}
MPIRUN=${MPIRUN:-mpirun}
RANKS=${RANKS:-$NODES}
THREADS=${THREADS:-$GRANTED_THREADS}
[ "$THREADS" -ge 1 ] 2>/dev/null || { log "error: THREADS='$THREADS' is not a positive number"; exit 2; }
[ "$RANKS" -ge 1 ] 2>/dev/null || { log "error: RANKS='$RANKS' is not a positive number"; exit 2; }
PER_NODE=$(( (RANKS + NODES - 1) / NODES ))

CHECKPOINT=${CHECKPOINT:-}
if [ -z "$CHECKPOINT" ]; then
  if [ "$MODE" = count ] || { [ "$MODE" = all ] && [[ " $ARGS " == *" --out "* ]]; }; then
    CHECKPOINT="hysolve-$(printf '%s|%s|%s' "$MODE" "$PROBLEM" "$ARGS" | cksum | cut -d' ' -f1).ckpt"
  else
    CHECKPOINT=none
  fi
fi
CK_ARGS=()
if [ "$CHECKPOINT" != none ]; then
  CK_ARGS=(--checkpoint "$CHECKPOINT")
  if [ -f "$CHECKPOINT" ]; then
    CK_ARGS+=(--resume "$CHECKPOINT")
  fi
fi

# Build only where no binary exists (never on a compute node that has one).
if [ ! -x "$BIN" ]; then
  log "$BIN not found: building it"
  make build
fi

LAUNCH=()
if [ ${#HOST_LIST[@]} -gt 0 ]; then
  hostfile=$(mktemp "${TMPDIR:-/tmp}/hysolve-hosts.XXXXXX")
  trap 'rm -f "$hostfile"' EXIT
  for h in "${HOST_LIST[@]}"; do echo "$h slots=$PER_NODE"; done > "$hostfile"
  LAUNCH+=(--hostfile "$hostfile")
fi
if [ "$SCHEDULER" = "none (mpirun on this machine)" ] && [ $(( RANKS * THREADS )) -gt "$(nproc)" ]; then
  LAUNCH+=(--oversubscribe)
fi
if [ -z "${BIND:-}" ]; then
  # Each rank bound to its own THREADS cores where they fit on a node;
  # otherwise unbound, so threads are never squeezed onto one core.
  if [ $(( PER_NODE * THREADS )) -le "$(nproc)" ]; then
    BIND="--map-by ppr:$PER_NODE:node:PE=$THREADS --bind-to core"
  else
    BIND="--map-by ppr:$PER_NODE:node --bind-to none"
  fi
fi
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMP_NUM_THREADS=$THREADS

# shellcheck disable=SC2206 # BIND, ARGS and PROBLEM are word lists on purpose
CMD=("$MPIRUN" "${LAUNCH[@]}" -np "$RANKS" $BIND -x OMP_NUM_THREADS
     "$BIN" --threads "$THREADS" --mode "$MODE" $ARGS "${CK_ARGS[@]}" --json $PROBLEM)
log "scheduler: $SCHEDULER"
log "$NODES node(s), $RANKS rank(s) x $THREADS thread(s): $PROBLEM (mode $MODE), in $PWD"
if [ ${#CK_ARGS[@]} -gt 2 ]; then
  log "resuming from the checkpoint $CHECKPOINT"
elif [ ${#CK_ARGS[@]} -gt 0 ]; then
  log "checkpoints in $CHECKPOINT (resubmit to resume a job that dies)"
fi
log "command: ${CMD[*]}"

if [ -z "${RESULT:-}" ]; then
  exec "${CMD[@]}"
fi
# With RESULT: keep the JSON summary (the last line) for pbs/sweep.sh.
output=$(mktemp "${TMPDIR:-/tmp}/hysolve-out.XXXXXX")
trap 'rm -f "${hostfile:-}" "$output"' EXIT
trap 'echo "terminated by a signal" > "$RESULT.failed"; exit 143' TERM INT
status=0
"${CMD[@]}" | tee "$output" || status=$?
if [ "$status" -eq 0 ] && tail -n 1 "$output" | grep -q '^{'; then
  tail -n 1 "$output" > "$RESULT.tmp"
  mv "$RESULT.tmp" "$RESULT"
else
  echo "exit status $status" > "$RESULT.failed"
  exit $(( status > 0 ? status : 1 ))
fi
