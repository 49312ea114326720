//! The job scripts in `pbs/`, run as a scheduler would run them: with the
//! variables PBS Professional, Torque and Slurm set in a job, from another
//! working directory, checking the mpirun command line they build and the
//! answer of the run. A recording launcher (`MPIRUN`) keeps each command
//! line; it passes the run on to the real mpirun, without the scheduler's
//! variables, which no real scheduler backs here.

#![cfg(feature = "mpi")]

use crate::common;

use common::{A000170, run_with_timeout};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// The workspace's root, where the job scripts are.
static REPO: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| crate::common::root().to_string_lossy().into_owned());
/// The sweep tool (the tools package).
fn sweep_bin() -> String {
    common::workspace_bin("hysolve-sweep")
}

/// A launcher that writes its arguments (and the hostfile it is given) to
/// `$RECORD`, then runs the real mpirun unless `$RECORD_ONLY` is set.
const RECORDER: &str = r#"#!/bin/bash
printf '%s\n' "$*" > "$RECORD"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[i]}" = --hostfile ]; then cp "${args[i + 1]}" "$RECORD.hosts"; fi
done
[ -n "${RECORD_ONLY:-}" ] && exit 0
for v in $(compgen -e); do
  case "$v" in SLURM_*|PBS_*) unset "$v" ;; esac
done
exec mpirun "$@"
"#;

struct Job {
    dir: tempfile::TempDir,
}

impl Job {
    fn new() -> Job {
        let dir = tempfile::tempdir().unwrap();
        let recorder = dir.path().join("mpirun-recorder");
        std::fs::write(&recorder, RECORDER).unwrap();
        chmod_x(&recorder);
        Job { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `bash SCRIPT` from the job's own folder (not the checkout), with a
    /// clean scheduler environment plus `vars`.
    fn run(&self, script: &str, vars: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(Path::new(&*REPO).join(script))
            .current_dir(self.dir.path())
            .env("BIN", &*common::BIN)
            .env("MPIRUN", self.path("mpirun-recorder"))
            .env("RECORD", self.path("mpirun.args"));
        common::mpi_env(&mut cmd);
        for (k, _) in std::env::vars() {
            if k.starts_with("PBS_")
                || k.starts_with("SLURM_")
                || [
                    "NCPUS",
                    "OMP_NUM_THREADS",
                    "RANKS",
                    "THREADS",
                    "PROBLEM",
                    "MODE",
                ]
                .contains(&k.as_str())
            {
                cmd.env_remove(k);
            }
        }
        for (k, v) in vars {
            cmd.env(k, v);
        }
        run_with_timeout(cmd, Duration::from_secs(120))
    }

    /// The recorded mpirun command line.
    fn mpirun_args(&self) -> String {
        std::fs::read_to_string(self.path("mpirun.args")).expect("mpirun was run")
    }
}

fn chmod_x(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The run succeeded and its JSON line gives `solutions` on ranks x threads.
fn check_run(out: &Output, solutions: u64, ranks: u64, threads: u64) -> serde_json::Value {
    let v = common::json_of(out);
    assert_eq!(v["solutions"], solutions, "{}", text(out));
    assert_eq!(v["ranks"], ranks, "{}", text(out));
    assert_eq!(v["threads"], threads, "{}", text(out));
    v
}

/// The fields of a CSV line (double-quoted fields may hold commas and "").
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn hybrid_sh_under_pbs_professional_runs_one_rank_per_node() {
    let job = Job::new();
    // select=1:ncpus=2:mpiprocs=1:ompthreads=2 on this host.
    std::fs::write(job.path("nodefile"), format!("{}\n", host_name())).unwrap();
    let nodefile = job.path("nodefile");
    let out = job.run(
        "pbs/hybrid.sh",
        &[
            ("PBS_JOBID", "4242.pbs-server"),
            ("PBS_O_WORKDIR", &*REPO),
            ("PBS_NODEFILE", nodefile.to_str().unwrap()),
            ("NCPUS", "2"),
            ("OMP_NUM_THREADS", "2"),
            ("PROBLEM", "queens 9"),
        ],
    );
    let all = text(&out);
    assert!(
        all.contains("scheduler: PBS (job 4242.pbs-server)"),
        "{all}"
    );
    assert!(
        all.contains(&format!("in {}", *REPO)),
        "works in the submit directory: {all}"
    );
    let args = job.mpirun_args();
    for part in [
        "--hostfile",
        "-np 1 ",
        "ppr:1:node",
        "--threads 2 ",
        "--mode count",
        "queens 9",
    ] {
        assert!(args.contains(part), "'{part}' missing from: {args}");
    }
    let hosts = std::fs::read_to_string(job.path("mpirun.args.hosts")).unwrap();
    assert_eq!(hosts, format!("{} slots=1\n", host_name()));
    check_run(&out, A000170[8], 1, 2);
}

#[test]
fn hybrid_sh_reads_torque_and_pbs_node_files() {
    // Torque: nodes=2:ppn=4 lists each node once per core.
    let job = Job::new();
    let torque = "node01\nnode01\nnode01\nnode01\nnode02\nnode02\nnode02\nnode02\n";
    std::fs::write(job.path("nodefile"), torque).unwrap();
    let nodefile = job.path("nodefile");
    let out = job.run(
        "pbs/hybrid.sh",
        &[
            ("PBS_JOBID", "17.torque"),
            ("PBS_O_WORKDIR", &*REPO),
            ("PBS_NODEFILE", nodefile.to_str().unwrap()),
            ("PBS_NUM_PPN", "4"),
            ("RECORD_ONLY", "1"),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let args = job.mpirun_args();
    for part in ["-np 2 ", "ppr:1:node", "--threads 4 ", "-x OMP_NUM_THREADS"] {
        assert!(args.contains(part), "'{part}' missing from: {args}");
    }
    let hosts = std::fs::read_to_string(job.path("mpirun.args.hosts")).unwrap();
    assert_eq!(hosts, "node01 slots=1\nnode02 slots=1\n");

    // PBS Professional, select=3:ncpus=16:mpiprocs=1:ompthreads=16, and a
    // problem and mode passed with qsub -v.
    let job = Job::new();
    std::fs::write(job.path("nodefile"), "a\nb\nc\n").unwrap();
    let nodefile = job.path("nodefile");
    let out = job.run(
        "pbs/hybrid.sh",
        &[
            ("PBS_JOBID", "5.pbs"),
            ("PBS_O_WORKDIR", &*REPO),
            ("PBS_NODEFILE", nodefile.to_str().unwrap()),
            ("NCPUS", "16"),
            ("OMP_NUM_THREADS", "16"),
            ("PROBLEM", "hitori+examples/hitori/gen-50x50.txt"),
            ("MODE", "unique"),
            ("ARGS", "--stats"),
            ("RECORD_ONLY", "1"),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let args = job.mpirun_args();
    for part in [
        "-np 3 ",
        "--threads 16 --mode unique --stats --json hitori examples/hitori/gen-50x50.txt",
    ] {
        assert!(args.contains(part), "'{part}' missing from: {args}");
    }
}

#[test]
fn slurm_sh_under_slurm_runs_the_tasks_slurm_granted() {
    let job = Job::new();
    // sbatch --nodes=1 --ntasks-per-node=2 --cpus-per-task=1
    let out = job.run(
        "pbs/slurm.sh",
        &[
            ("SLURM_JOB_ID", "777"),
            ("SLURM_SUBMIT_DIR", &*REPO),
            ("SLURM_JOB_NUM_NODES", "1"),
            ("SLURM_NTASKS", "2"),
            ("SLURM_CPUS_PER_TASK", "1"),
            ("SLURM_CPUS_ON_NODE", "2"),
            ("PROBLEM", "queens 10"),
        ],
    );
    let all = text(&out);
    assert!(all.contains("scheduler: Slurm (job 777)"), "{all}");
    let args = job.mpirun_args();
    for part in ["-np 2 ", "ppr:2:node", "--threads 1 ", "queens 10"] {
        assert!(args.contains(part), "'{part}' missing from: {args}");
    }
    assert!(
        !args.contains("--hostfile"),
        "Slurm's mpirun finds the nodes itself: {args}"
    );
    check_run(&out, A000170[9], 2, 1);
}

#[test]
fn scripts_run_on_a_laptop_without_a_scheduler() {
    for script in ["pbs/hybrid.sh", "pbs/slurm.sh"] {
        let job = Job::new();
        let out = job.run(
            script,
            &[("RANKS", "2"), ("THREADS", "1"), ("PROBLEM", "queens 8")],
        );
        let all = text(&out);
        assert!(all.contains("scheduler: none"), "{script}: {all}");
        assert!(job.mpirun_args().contains("-np 2 "), "{script}");
        check_run(&out, A000170[7], 2, 1);
    }
}

#[test]
fn bad_thread_counts_are_one_line_errors() {
    let job = Job::new();
    let out = job.run(
        "pbs/hybrid.sh",
        &[("THREADS", "many"), ("RECORD_ONLY", "1")],
    );
    assert_eq!(out.status.code(), Some(2));
    let all = text(&out);
    assert_eq!(all.trim().lines().count(), 1, "{all}");
    assert!(
        all.contains("THREADS='many' is not a positive number"),
        "{all}"
    );
    assert!(!job.path("mpirun.args").exists());
}

#[test]
fn hybrid_sh_keeps_the_json_summary_in_result() {
    let job = Job::new();
    let result = job.path("run.json");
    let out = job.run(
        "pbs/hybrid.sh",
        &[
            ("RANKS", "1"),
            ("THREADS", "2"),
            ("PROBLEM", "queens 7"),
            ("RESULT", result.to_str().unwrap()),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap();
    assert_eq!(v["solutions"], A000170[6]);

    let failed = job.path("bad.json");
    let out = job.run(
        "pbs/hybrid.sh",
        &[
            ("RANKS", "1"),
            ("PROBLEM", "hitori /nonexistent.txt"),
            ("RESULT", failed.to_str().unwrap()),
        ],
    );
    assert!(!out.status.success());
    assert!(!failed.exists());
    assert!(job.path("bad.json.failed").exists(), "{}", text(&out));
}

#[test]
fn sweep_sh_submits_a_series_and_gathers_one_csv() {
    let job = Job::new();
    let bin = job.path("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(
        Path::new(&*REPO).join("tests/scheduler/fake-qsub"),
        bin.join("qsub"),
    )
    .unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out_dir = job.path("sweep");
    let mut cmd = Command::new("bash");
    cmd.arg(Path::new(&*REPO).join("pbs/sweep.sh"))
        .current_dir(job.dir.path())
        .env("PATH", path)
        .env("BIN", &*common::BIN)
        .env("SWEEP", sweep_bin())
        .env("NODES", "1")
        .env("THREADS", "1 2")
        .env("REPS", "2")
        .env("PROBLEM", "queens 9")
        .env("OUT", &out_dir)
        .env("WAIT", "100")
        .env("FAKE_QSUB_SPOOL", job.dir.path())
        .env_remove("MPIRUN");
    common::mpi_env(&mut cmd);
    let out = run_with_timeout(cmd, Duration::from_secs(150));
    assert!(out.status.success(), "{}", text(&out));
    let csv = std::fs::read_to_string(out_dir.join("sweep.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    let header = csv_fields(lines[0]);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    for (line, threads) in lines[1..].iter().zip(["1", "2"]) {
        let fields = csv_fields(line);
        assert_eq!(fields[col("ranks")], "1", "{line}");
        assert_eq!(fields[col("threads")], threads, "{line}");
        assert_eq!(fields[col("reps")], "2", "{line}");
        assert_eq!(fields[col("solutions")], A000170[8].to_string(), "{line}");
        assert_eq!(fields[col("problem")], "queens", "{line}");
    }
    for f in [
        "sweep-time.svg",
        "sweep-speedup.svg",
        "sweep-efficiency.svg",
        "sweep-balance.svg",
    ] {
        let svg = std::fs::read_to_string(out_dir.join(f)).unwrap();
        assert!(svg.starts_with("<svg"), "{f}");
        let label = if f.contains("balance") {
            "busy"
        } else {
            "workers (ranks x threads)"
        };
        assert!(svg.contains(label), "{f} has no '{label}' label");
    }
    let readme = std::fs::read_to_string(out_dir.join("README.md")).unwrap();
    assert!(readme.contains("| 2 | 1x2 | 1 |"), "{readme}");
    // Every job's output is in the sweep folder, each with its scheduler
    // line, and every job ran the BIN the sweep was given (passed by -v:
    // a job inherits nothing else from its submitter).
    let logs: Vec<PathBuf> = std::fs::read_dir(&out_dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "out"))
        .collect();
    assert_eq!(logs.len(), 4);
    for log in &logs {
        let text = std::fs::read_to_string(log).unwrap();
        let command = text
            .lines()
            .find(|l| l.contains("command: "))
            .unwrap_or_else(|| panic!("{}: no command line: {text}", log.display()));
        assert!(
            command.contains(&*common::BIN),
            "{}: the job did not run {}: {command}",
            log.display(),
            &*common::BIN
        );
    }
}

#[test]
fn hybrid_sh_resumes_from_its_checkpoint() {
    let job = Job::new();
    let ckpt = job.path("q16.ckpt");
    let ck = ckpt.to_str().unwrap().to_string();
    // A job that dies at its walltime: SIGTERM to the run.
    let mut cmd = Command::new("bash");
    cmd.arg(Path::new(&*REPO).join("pbs/hybrid.sh"))
        .current_dir(job.dir.path())
        .env("BIN", &*common::BIN)
        .env("RANKS", "1")
        .env("THREADS", "1")
        .env("PROBLEM", "queens 16")
        .env("CHECKPOINT", &ck)
        .env("ARGS", "--checkpoint-every 0.05")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().unwrap();
    // Killed once its first checkpoint is written, 0.05 s in: N-Queens 16
    // runs 1.6 s on one worker of a 2-core AMD EPYC VM.
    common::wait_for_file(&mut child, &ckpt, Duration::from_secs(30));
    // The scheduler signals every process of the job.
    Command::new("pkill")
        .args(["-TERM", "-f", &ck])
        .status()
        .unwrap();
    let _ = child.wait();
    assert!(ckpt.exists(), "the killed job left its checkpoint");
    // The resubmitted job resumes on its own, on two ranks this time.
    let out = job.run(
        "pbs/hybrid.sh",
        &[
            ("RANKS", "2"),
            ("THREADS", "1"),
            ("PROBLEM", "queens 16"),
            ("CHECKPOINT", &ck),
        ],
    );
    let all = text(&out);
    assert!(
        all.contains(&format!("resuming from the checkpoint {ck}")),
        "{all}"
    );
    assert!(job.mpirun_args().contains(&format!("--resume {ck}")));
    check_run(&out, A000170[15], 2, 1);
    assert!(!ckpt.exists());
}
