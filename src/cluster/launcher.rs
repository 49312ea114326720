//! What the MPI launcher (mpirun, mpiexec, srun with PMI) tells a process
//! through its environment, read before MPI is initialised (and in a build
//! without MPI, to refuse a launcher's job clearly).

/// Whether this process was started by an MPI launcher. Without one,
/// hysolve runs as one rank and never initialises MPI.
pub fn launched_by_mpi() -> bool {
    [
        "OMPI_COMM_WORLD_SIZE",
        "PMI_SIZE",
        "PMIX_RANK",
        "PMI_RANK",
        "MPI_LOCALNRANKS",
    ]
    .iter()
    .any(|v| std::env::var_os(v).is_some())
}

/// Whether this process is rank 0 of its job (any process not started by
/// a launcher is).
pub fn is_rank_zero() -> bool {
    ["OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"]
        .iter()
        .find_map(|v| std::env::var(v).ok())
        .is_none_or(|r| r.trim() == "0")
}

/// The ranks the launcher started on this node (1 without a launcher).
pub fn local_ranks() -> usize {
    [
        "OMPI_COMM_WORLD_LOCAL_SIZE",
        "MPI_LOCALNRANKS",
        "SLURM_NTASKS_PER_NODE",
    ]
    .iter()
    .find_map(|v| std::env::var(v).ok()?.trim().parse::<usize>().ok())
    .unwrap_or(1)
}

/// The ranks each node of the job runs, as the job script says
/// (`HYSOLVE_RANKS_PER_NODE`, which `pbs/hybrid.sh` sets), or 1. Only a
/// value that every rank reads alike may shape the groups: a launcher's
/// count of this node's ranks differs between nodes that run different
/// numbers of ranks, so it is not used.
pub(crate) fn ranks_per_node() -> usize {
    std::env::var("HYSOLVE_RANKS_PER_NODE")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1)
}
