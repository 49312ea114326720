#!/bin/bash
# The job scripts through a real scheduler: a private one-node Slurm cluster
# on this machine (Debian's slurm-wlm, with its PBS/Torque qsub wrapper).
#
#   bash tests/scheduler/slurm-harness.sh        # `make test` runs it
#   KEEP=1 bash tests/scheduler/slurm-harness.sh # keep the logs and state
#
# It installs the packages when missing, starts munged, slurmctld and slurmd
# with their own key, state, spool, log folders and ports under a temporary
# folder, then checks:
#   1. qsub pbs/hybrid.sh with PBS Professional resources (1 rank x all
#      cores, then 2 ranks x 1 thread), a small problem through -v: the
#      answer, the JSON summary, the ranks and threads the resources asked;
#   2. sbatch pbs/slurm.sh, the same;
#   3. pbs/sweep.sh, two configurations and one repetition through qsub,
#      then one through sbatch: their CSVs.
# Every daemon it started is stopped by PID when it ends, also on failure,
# and checked gone. Job outputs that land in the checkout (the qsub wrapper
# writes them to the submit directory) are moved to the temporary folder.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
say() { echo "slurm-harness: $*"; }
fail() { say "FAILED: $*"; exit 1; }

SUDO=""
if [ "$(id -u)" != 0 ]; then
  sudo -n true 2>/dev/null || fail "needs root or password-less sudo to run slurmctld, slurmd and munged"
  SUDO="sudo -n"
fi

# 1. Packages: on Debian and Ubuntu dpkg says what is installed (the qsub
# wrapper is a package of its own); elsewhere the daemons must be on PATH.
missing=""
if command -v dpkg-query >/dev/null 2>&1; then
  for pkg in slurm-wlm slurmctld slurmd munge slurm-wlm-torque; do
    [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" = "install ok installed" ] || missing="$missing $pkg"
  done
else
  for cmd in sbatch slurmctld slurmd munged qsub; do
    command -v "$cmd" >/dev/null 2>&1 || [ -x "/usr/sbin/$cmd" ] || fail "no $cmd: install Slurm (with its qsub wrapper) and munge by hand"
  done
fi
if [ -n "$missing" ]; then
  say "installing:$missing"
  command -v apt-get >/dev/null 2>&1 || fail "missing$missing: install by hand"
  # shellcheck disable=SC2086 # a word list
  { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; } >/dev/null 2>&1 ||
    fail "missing$missing: apt-get failed; install by hand (apt-get install -y$missing)"
fi
QSUB=/usr/bin/qsub   # Slurm's wrapper, not whatever else is on PATH
# The binaries the jobs run: release's by default; `make test` passes those
# of the profile it tests (BIN, SWEEP).
BIN=${BIN:-target/release/hysolve}
SWEEP=${SWEEP:-target/release/hysolve-sweep}
if [ ! -x "$BIN" ] || [ ! -x "$SWEEP" ]; then make build; fi
if [ ! -x "$BIN" ] || [ ! -x "$SWEEP" ]; then fail "no $BIN or $SWEEP: build them"; fi
export BIN SWEEP

# 2. A private cluster.
T=$(mktemp -d /tmp/hysolve-slurm.XXXXXX)
chmod 711 "$T"
PIDS=()
cleanup() {
  status=$?
  set +e
  for pid in "${PIDS[@]}"; do $SUDO kill -TERM "$pid" 2>/dev/null; done
  for _ in $(seq 50); do
    alive=0
    for pid in "${PIDS[@]}"; do $SUDO kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.2
  done
  for pid in "${PIDS[@]}"; do
    if $SUDO kill -0 "$pid" 2>/dev/null; then
      $SUDO kill -KILL "$pid" 2>/dev/null
      say "daemon $pid needed SIGKILL"
    fi
  done
  sleep 0.2
  for pid in "${PIDS[@]}"; do
    if $SUDO kill -0 "$pid" 2>/dev/null; then say "daemon $pid is still running"; status=1; fi
  done
  mkdir -p "$T/jobs"
  mv -f hybrid.sh.[oe][0-9]* hysolve-[0-9]*.out "$T/jobs/" 2>/dev/null
  if [ "$status" != 0 ]; then
    for f in "$T"/log/* "$T"/jobs/*; do
      [ -f "$f" ] && { echo "----- $f"; tail -n 30 "$f"; }
    done
  fi
  if [ -n "${KEEP:-}" ] || [ "$status" != 0 ]; then
    say "state and logs kept in $T"
  else
    $SUDO rm -rf "$T"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  local p
  while :; do
    p=$(( 20000 + RANDOM % 20000 ))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
}
HOST=$(hostname -s)
CPUS=$(nproc)
CTLD_PORT=$(free_port)
SLURMD_PORT=$(free_port)
while [ "$SLURMD_PORT" = "$CTLD_PORT" ]; do SLURMD_PORT=$(free_port); done
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log"
chmod 711 "$T/munge"
head -c 1024 /dev/urandom > "$T/munge/munge.key"
chmod 400 "$T/munge/munge.key"
$SUDO chown -R munge:munge "$T/munge"
cat > "$T/slurm.conf" <<EOF
ClusterName=hysolvetest
SlurmctldHost=$HOST
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
PlugStackConfig=$T/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MinJobAge=600
KillWait=5
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=hysolve Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
: > "$T/plugstack.conf"
export SLURM_CONF=$T/slurm.conf

$SUDO runuser -u munge -- /usr/sbin/munged -F --key-file="$T/munge/munge.key" \
  --socket="$T/munge/munge.sock" --pid-file="$T/munge/munged.pid" \
  --log-file="$T/log/munged.log" --seed-file="$T/munge/munged.seed" > "$T/log/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$T/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$T/munge/munge.sock" ] || fail "munged did not start"
$SUDO /usr/sbin/slurmctld -D -f "$T/slurm.conf" > "$T/log/slurmctld.out" 2>&1 &
PIDS+=($!)
$SUDO /usr/sbin/slurmd -D -f "$T/slurm.conf" > "$T/log/slurmd.out" 2>&1 &
PIDS+=($!)
say "cluster of one node ($HOST, $CPUS CPUs) on ports $CTLD_PORT/$SLURMD_PORT, state in $T"
state=""
for _ in $(seq 120); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || fail "the node is '$state', not idle, after 60 s"

# Waits for job $1 to leave the queue (at most $2 seconds); prints its state.
wait_job() {
  local id=$1 limit=$2 s
  for _ in $(seq $(( limit * 2 ))); do
    s=$(scontrol show job "$id" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case "$s" in PENDING|RUNNING|CONFIGURING|COMPLETING|"") sleep 0.5 ;; *) echo "$s"; return ;; esac
  done
  scancel "$id" 2>/dev/null || true
  echo "STILL-RUNNING"
}

# Checks a job's output: the answer, the scheduler line and the JSON summary.
check_output() {
  local file=$1 id=$2 solutions=$3 ranks=$4 threads=$5 json
  [ -f "$file" ] || fail "job $id wrote no $file"
  grep -q "scheduler: Slurm (job $id)" "$file" || fail "$file: no 'scheduler: Slurm (job $id)' line"
  grep -q ": $solutions solutions (count mode, $ranks rank" "$file" || fail "$file: not $solutions solutions on $ranks rank(s)"
  json=$(grep '^{' "$file" | tail -n 1)
  for kv in "\"solutions\":$solutions" "\"ranks\":$ranks" "\"threads\":$threads"; do
    grep -qE "${kv}[,}]" <<< "$json" || fail "$file: JSON summary lacks $kv: $json"
  done
  say "job $id: $solutions solutions on $ranks rank(s) x $threads thread(s), as asked"
}

# 3a. qsub pbs/hybrid.sh, one rank with every core.
id=$($QSUB -l "select=1:ncpus=$CPUS:mpiprocs=1:ompthreads=$CPUS,place=scatter:excl,walltime=00:05:00" \
       -v "PROBLEM=queens+9,MODE=count,BIN=$BIN" pbs/hybrid.sh)
[ "$(wait_job "$id" 120)" = COMPLETED ] || fail "qsub job $id did not complete"
check_output "hybrid.sh.o$id" "$id" 352 1 "$CPUS"

# 3b. qsub, two ranks of one thread (mpiprocs=2).
if [ "$CPUS" -ge 2 ]; then
  id=$($QSUB -l "select=1:ncpus=2:mpiprocs=2:ompthreads=1,walltime=00:05:00" \
         -v "PROBLEM=queens+10,BIN=$BIN" pbs/hybrid.sh)
  [ "$(wait_job "$id" 120)" = COMPLETED ] || fail "qsub job $id did not complete"
  check_output "hybrid.sh.o$id" "$id" 724 2 1
else
  say "SKIPPED 3b (qsub, 2 ranks x 1 thread): this machine has $CPUS CPU, Slurm grants no second one"
fi

# 3c. sbatch pbs/slurm.sh.
id=$(sbatch --parsable --nodes=1 --ntasks-per-node=1 --cpus-per-task="$CPUS" \
       --export="ALL,PROBLEM=queens+8,BIN=$BIN" pbs/slurm.sh)
[ "$(wait_job "$id" 120)" = COMPLETED ] || fail "sbatch job $id did not complete"
check_output "hysolve-$id.out" "$id" 92 1 "$CPUS"

# check_sweep SUBMIT THREADS N SOLUTIONS: a tiny pbs/sweep.sh of N-Queens N
# through SUBMIT, one repetition of each of THREADS (a list) on one node;
# its CSV must hold one row of SOLUTIONS for each.
check_sweep() {
  local submit=$1 threads=$2 n=$3 solutions=$4
  local out="$T/sweep-$submit" t rows
  PATH=/usr/bin:$PATH SUBMIT=$submit NODES=1 THREADS="$threads" REPS=1 PROBLEM="queens $n" \
    OUT="$out" WAIT=120 bash pbs/sweep.sh > "$T/log/sweep-$submit.out" 2>&1 ||
    { cat "$T/log/sweep-$submit.out"; cat "$out"/*.out 2>/dev/null; fail "pbs/sweep.sh with $submit failed"; }
  for t in $threads; do
    rows=$(grep -c ",count,1,$t,$t,1,false,1,.*,$solutions," "$out/sweep.csv" || true)
    [ "$rows" = 1 ] || { cat "$out/sweep.csv"; fail "the $submit sweep's CSV does not hold 1x$t with $solutions solutions"; }
  done
  say "pbs/sweep.sh with $submit: 1x{${threads// /,}} gathered into $out/sweep.csv"
}

# 3d. A tiny sweep through qsub: 1x1 and 1x2.
check_sweep qsub "1 2" 9 352
# 3e. One through sbatch: its jobs find pbs/hybrid.sh from the submit
# directory and run the BIN given.
check_sweep sbatch 1 8 92
say "all passed"
