#!/bin/bash
# One hybrid hysolve run on a Slurm site: one MPI rank per node, one task
# per rank with THREADS cores. The same variables and behaviour as
# pbs/hybrid.sh, which does the work (see the list at its top).
#
#   sbatch pbs/slurm.sh                                            # defaults
#   sbatch --export=ALL,PROBLEM="queens 17" pbs/slurm.sh           # another problem
#   sbatch --nodes=4 --cpus-per-task=16 pbs/slurm.sh               # 4 nodes x 16 threads
#   sbatch --time=02:00:00 pbs/slurm.sh                            # longer walltime
#   bash pbs/slurm.sh                                              # no Slurm: mpirun here
#
# The output lands in hysolve-<jobid>.out in the submit directory.
#SBATCH --job-name=hysolve
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=8
#SBATCH --exclusive
#SBATCH --time=00:30:00
#SBATCH --output=hysolve-%j.out
set -euo pipefail

# sbatch runs a copy of this file from its spool: find the checkout from
# the submit directory.
if [ -n "${SLURM_SUBMIT_DIR:-}" ]; then
  here=$SLURM_SUBMIT_DIR/pbs
else
  here=$(dirname "$0")
fi
exec bash "$here/hybrid.sh"
