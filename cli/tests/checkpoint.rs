//! Runs that die and come back: SIGTERM (a scheduler's walltime), SIGKILL of
//! a rank or of mpirun itself at random moments, then `--resume` in another
//! configuration. The count must be exact and the solutions file must hold
//! exactly the uninterrupted run's solutions, each once.

#![cfg(feature = "mpi")]

use crate::common;

use common::{A000170, BIN, json_of, mpi_env, read_solutions, run_with_timeout};
use rand::{RngExt, SeedableRng};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `mpirun -np RANKS hysolve --threads THREADS ARGS` (plain hysolve for one rank).
fn command(ranks: usize, threads: usize, args: &[&str]) -> Command {
    let mut cmd = if ranks == 1 {
        Command::new(&*BIN)
    } else {
        let mut c = Command::new("mpirun");
        c.args([
            "--oversubscribe",
            "--bind-to",
            "none",
            "-np",
            &ranks.to_string(),
            &BIN,
        ]);
        c
    };
    cmd.args(["--threads", &threads.to_string()]).args(args);
    mpi_env(&mut cmd);
    cmd
}

fn spawn(ranks: usize, threads: usize, args: &[&str]) -> Child {
    command(ranks, threads, args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The hysolve processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<(u32, Option<u32>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline);
        if !cmdline.starts_with(BIN.as_str()) || !cmdline.contains(marker) {
            continue;
        }
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let rank = String::from_utf8_lossy(&environ)
            .split('\0')
            .find_map(|v| v.strip_prefix("OMPI_COMM_WORLD_RANK=")?.parse().ok());
        found.push((pid, rank));
    }
    found
}

/// Sends `signal` to `pid`; false if there was no such process.
fn kill(pid: u32, signal: &str) -> bool {
    Command::new("kill")
        .args([signal, &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// Waits until no process of the run is left (a killed mpirun's ranks
/// notice and exit), so that nothing writes the checkpoint behind the resume.
fn wait_gone(marker: &str) {
    let t = Instant::now();
    while !processes_with(marker).is_empty() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "stray ranks of {marker}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait_exit(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    use wait_timeout::ChildExt;
    match child.wait_timeout(limit).unwrap() {
        Some(s) => s,
        None => {
            child.kill().ok();
            panic!("the run did not end within {limit:?}");
        }
    }
}

/// Runs to completion, resuming from `ckpt` when it exists, in the given
/// configuration; returns the JSON summary.
fn finish(ranks: usize, threads: usize, ckpt: &Path, args: &[&str]) -> serde_json::Value {
    let ck = ckpt.to_str().unwrap();
    let mut full: Vec<&str> = vec!["--json", "--checkpoint", ck];
    if ckpt.exists() {
        full.extend(["--resume", ck]);
    }
    full.extend(args);
    let out = run_with_timeout(command(ranks, threads, &full), Duration::from_secs(120));
    json_of(&out)
}

#[test]
fn sigterm_writes_a_checkpoint_and_the_resume_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("q17.ckpt");
    let ck = ckpt.to_str().unwrap();
    let mut child = spawn(
        1,
        2,
        &[
            "--checkpoint",
            ck,
            "--checkpoint-every",
            "0.2",
            "queens",
            "17",
        ],
    );
    // Under way: its first checkpoint written, then written again (units
    // done since).
    common::wait_for_file(&mut child, &ckpt, Duration::from_secs(20));
    common::wait_for_rewrites(&mut child, &ckpt, 1, Duration::from_secs(20));
    let sent = Instant::now();
    assert!(kill(child.id(), "-TERM"), "the run ended before SIGTERM");
    let status = wait_exit(&mut child, Duration::from_secs(10));
    let took = sent.elapsed();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(!status.success());
    assert!(
        stderr.contains(&format!("continue with --resume {ck}")),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    eprintln!("SIGTERM to exit: {:.0} ms", took.as_secs_f64() * 1e3);
    assert!(took < Duration::from_secs(3), "took {took:?}");
    let c: serde_json::Value = serde_json::from_slice(&std::fs::read(&ckpt).unwrap()).unwrap();
    assert!(c["remaining"].as_array().unwrap().len() < c["units"].as_u64().unwrap() as usize);
    // Resumed on two ranks instead of one.
    let v = finish(2, 1, &ckpt, &["queens", "17"]);
    assert_eq!(v["solutions"], A000170[16]);
    assert!(!ckpt.exists(), "the finished run removes its checkpoint");
}

#[test]
fn killed_ranks_and_launchers_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("reference.txt");
    let pent = ["pack", "--pieces", "pentominoes", "--board", "10x6"];
    let out = run_with_timeout(
        command(
            1,
            2,
            &[
                &["--mode", "all", "--out", reference.to_str().unwrap()][..],
                &pent[..],
            ]
            .concat(),
        ),
        Duration::from_secs(60),
    );
    assert!(out.status.success());
    let mut want = read_solutions(&reference);
    want.sort();
    assert_eq!(want.len(), 9356);

    let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(2026);
    let configs = [(1, 2), (2, 1), (3, 1), (2, 2)];
    for trial in 0..8 {
        let all = trial % 2 == 0;
        let kill_launcher = trial % 4 >= 2;
        let ckpt = dir.path().join(format!("t{trial}.ckpt"));
        let sols = dir.path().join(format!("t{trial}.txt"));
        let ck = ckpt.to_str().unwrap();
        let sols_s = sols.to_str().unwrap();
        // N-Queens 16 lasts about 1 s on 2 ranks of a 2-core AMD EPYC VM
        // (1.9 s of CPU, where 17 took 11 s): with a checkpoint every
        // 0.02 s, the kill comes in the first fifth of the run even on
        // cores twice as fast.
        let every = if all { "0.05" } else { "0.02" };
        let mut args: Vec<&str> = vec!["--checkpoint", ck, "--checkpoint-every", every];
        let problem: Vec<&str> = if all {
            [&["--mode", "all", "--out", sols_s][..], &pent[..]].concat()
        } else {
            vec!["queens", "16"]
        };
        args.extend(&problem);
        let mut child = spawn(2, 1, &args);
        // A random moment once the run is under way, chosen by events: its
        // first checkpoint written and rank 1 started, then 0 to 2 more
        // checkpoints written (one each interval), never a fixed time.
        let t = Instant::now();
        let rank1 = loop {
            let rank1 = processes_with(ck)
                .into_iter()
                .find(|&(_, rank)| rank == Some(1))
                .map(|(pid, _)| pid);
            if let (Some(pid), true) = (rank1, ckpt.exists()) {
                break pid;
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "trial {trial}: the run ended before its first checkpoint"
            );
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "trial {trial}: no checkpoint"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        let more = rng.random_range(0..3);
        common::wait_for_rewrites(&mut child, &ckpt, more, Duration::from_secs(20));
        let victim = if kill_launcher { child.id() } else { rank1 };
        assert!(
            kill(victim, "-KILL"),
            "trial {trial}: the run ended before the kill"
        );
        let status = wait_exit(&mut child, Duration::from_secs(20));
        wait_gone(ck);
        assert!(!status.success(), "trial {trial}: the killed run succeeded");
        assert!(ckpt.exists(), "trial {trial}: no checkpoint left to resume");
        let (r, t) = configs[rng.random_range(0..configs.len())];
        let v = finish(r, t, &ckpt, &problem);
        if all {
            let mut got = read_solutions(&sols);
            got.sort();
            assert_eq!(
                got.len(),
                want.len(),
                "trial {trial}: lost or duplicated solutions"
            );
            assert!(
                got == want,
                "trial {trial}: other solutions than the reference"
            );
        } else {
            assert_eq!(v["solutions"], A000170[15], "trial {trial}");
        }
        assert!(!ckpt.exists());
    }
    eprintln!("8 kill trials, each resumed from its checkpoint");
}

#[test]
fn a_dead_rank_ends_the_job_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("dead.ckpt");
    let marker = marker.to_str().unwrap();
    let args = [
        "--checkpoint",
        marker,
        "--checkpoint-every",
        "0.05",
        "queens",
        "17",
    ];
    let mut child = command(2, 1, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Under way, by events: the first checkpoint written (every rank has
    // started and been dealt work), and rank 1's process found.
    common::wait_for_file(&mut child, Path::new(marker), Duration::from_secs(20));
    let t = Instant::now();
    let rank1 = loop {
        if let Some(&(pid, _)) = processes_with(marker).iter().find(|&&(_, r)| r == Some(1)) {
            break pid;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        assert!(t.elapsed() < Duration::from_secs(20), "no rank 1");
        std::thread::sleep(Duration::from_millis(5));
    };
    let t = Instant::now();
    assert!(kill(rank1, "-KILL"), "rank 1 ended before the kill");
    let status = wait_exit(&mut child, Duration::from_secs(15));
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(!status.success());
    assert!(stderr.contains("rank 1"), "{stderr}");
    eprintln!(
        "a killed rank ended the job in {:.2} s",
        t.elapsed().as_secs_f64()
    );
}

/// A rank whose run fails ends the job under mpirun with its one-line
/// error, within seconds, instead of waiting in `MPI_Finalize` for ranks
/// that wait for it (they did, forever). Here rank 0's checkpoint can no
/// longer be written: its folder was moved away; the checkpoint written
/// before is whole.
#[test]
fn a_rank_that_fails_ends_the_job_with_its_error() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let ckpt = sub.join("failing.ckpt");
    let ck = ckpt.to_str().unwrap();
    let args = [
        "--checkpoint",
        ck,
        "--checkpoint-every",
        "0.05",
        "queens",
        "18",
    ];
    let mut child = spawn(2, 1, &args);
    common::wait_for_file(&mut child, &ckpt, Duration::from_secs(20));
    let moved = dir.path().join("moved");
    std::fs::rename(&sub, &moved).unwrap();
    let t = Instant::now();
    let status = wait_exit(&mut child, Duration::from_secs(30));
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(!status.success());
    assert!(
        stderr.contains(&format!("{ck}: writing the checkpoint")),
        "{stderr}"
    );
    let kept = std::fs::read(moved.join("failing.ckpt")).unwrap();
    serde_json::from_slice::<serde_json::Value>(&kept).expect("the checkpoint is whole");
    eprintln!(
        "the failing rank ended the job in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    wait_gone(ck);
}

/// In a run of groups (16 ranks in groups of 8, forced: rank 0, then
/// ranks 1 to 8 and 9 to 15), a rank killed with 30 % of the units done (a
/// member of the last group, then that group's master) ends the job
/// within seconds, naming it, and leaves the checkpoint,
/// whose units are the root's: the resume, in another shape of ranks,
/// threads and groups, counts exactly.
#[test]
fn a_dead_rank_or_group_master_in_groups_ends_the_job_and_the_resume_is_exact() {
    for victim in [13, 9] {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join(format!("groups-{victim}.ckpt"));
        let ck = ckpt.to_str().unwrap();
        let args = [
            "--group-size",
            "8",
            "--checkpoint",
            ck,
            "--checkpoint-every",
            "0.01",
            "queens",
            "16",
        ];
        // Killed once the checkpoint has 30 % of the units done (it is
        // rewritten every 10 ms, whole: a rename), while every rank still
        // holds work. A test starved of the processor can first see the
        // checkpoint far later, when idle ranks may be killed and the run
        // then ends whole (and removes its checkpoint, as a finished run
        // does): past 60 % the job is stopped and started again.
        let mut attempts = 0;
        let (mut child, pid, done) = loop {
            attempts += 1;
            let mut child = command(16, 1, &args)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            common::wait_for_file(&mut child, &ckpt, Duration::from_secs(30));
            let t = Instant::now();
            let pid = loop {
                let found = processes_with(ck);
                if let Some(&(pid, _)) = found.iter().find(|&&(_, r)| r == Some(victim)) {
                    break pid;
                }
                assert!(child.try_wait().unwrap().is_none(), "the run ended first");
                assert!(t.elapsed() < Duration::from_secs(20), "no rank {victim}");
                std::thread::sleep(Duration::from_millis(5));
            };
            let done = loop {
                assert!(child.try_wait().unwrap().is_none(), "the run ended first");
                let c = std::fs::read(&ckpt).expect("the checkpoint, while the run lasts");
                let c: serde_json::Value = serde_json::from_slice(&c).expect("a whole checkpoint");
                let units = c["units"].as_u64().unwrap() as f64;
                let done = 1.0 - c["remaining"].as_array().unwrap().len() as f64 / units;
                if done >= 0.3 {
                    break done;
                }
                assert!(t.elapsed() < Duration::from_secs(60), "no progress");
                std::thread::sleep(Duration::from_millis(2));
            };
            if done <= 0.6 {
                break (child, pid, done);
            }
            assert!(
                attempts < 10,
                "the checkpoint was first seen past 60 % 10 times"
            );
            kill(child.id(), "-KILL");
            let _ = child.wait();
            for (left, _) in processes_with(ck) {
                kill(left, "-KILL");
            }
            wait_gone(ck);
            let _ = std::fs::remove_file(&ckpt);
        };
        assert!(kill(pid, "-KILL"), "rank {victim} ended before the kill");
        let killed = Instant::now();
        let status = wait_exit(&mut child, Duration::from_secs(30));
        let ended = killed.elapsed().as_secs_f64();
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        assert!(!status.success());
        assert!(stderr.contains(&format!("rank {victim}")), "{stderr}");
        eprintln!(
            "rank {victim} killed with {:.0} % of the units done; the job ended {ended:.2} s later",
            done * 100.0
        );
        assert!(ended < 20.0, "the job took {ended:.2} s to end");
        wait_gone(ck);
        assert!(ckpt.exists(), "the checkpoint is kept");
        // Resumed on 6 ranks of 1 thread in groups of 4, and on 3 of 2
        // threads in one group.
        let shape = if victim == 13 {
            (6, 1, "4")
        } else {
            (3, 2, "0")
        };
        let v = finish(
            shape.0,
            shape.1,
            &ckpt,
            &["--group-size", shape.2, "queens", "16"],
        );
        assert_eq!(v["solutions"], A000170[15], "after rank {victim} died");
        assert!(!ckpt.exists());
    }
}

#[test]
fn checkpoints_of_other_runs_and_bad_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("q16.ckpt");
    let ck = ckpt.to_str().unwrap();
    let mut child = spawn(
        1,
        1,
        &[
            "--checkpoint",
            ck,
            "--checkpoint-every",
            "0.01",
            "queens",
            "16",
        ],
    );
    common::wait_for_file(&mut child, &ckpt, Duration::from_secs(20));
    assert!(kill(child.id(), "-TERM"), "the run ended before SIGTERM");
    wait_exit(&mut child, Duration::from_secs(10));
    assert!(ckpt.exists());
    let garbage = dir.path().join("garbage.ckpt");
    std::fs::write(&garbage, b"{\"format\": 12").unwrap();
    let g = garbage.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["--resume", ck, "queens", "15"],
            "a checkpoint of queens 16",
        ),
        (
            vec![
                "--resume", ck, "--mode", "all", "--out", "x.txt", "queens", "16",
            ],
            "not of queens 16 (all mode",
        ),
        (
            vec!["--resume", g, "queens", "15"],
            "not a hysolve checkpoint",
        ),
        (
            vec!["--resume", "/nonexistent.ckpt", "queens", "15"],
            "/nonexistent.ckpt",
        ),
        (
            vec!["--checkpoint", ck, "--mode", "first", "queens", "8"],
            "for count, all and optimise modes",
        ),
        (
            vec!["--checkpoint", ck, "--mode", "all", "queens", "8"],
            "need --out FILE",
        ),
        (
            vec!["--checkpoint", ck, "--checkpoint-every", "0", "queens", "8"],
            "not a number of seconds",
        ),
    ] {
        let out = run_with_timeout(command(1, 1, &args), Duration::from_secs(30));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    // The refused resumes left the checkpoint as it was: it still resumes.
    let v = finish(1, 2, &ckpt, &["queens", "16"]);
    assert_eq!(v["solutions"], A000170[15]);
}
