//! Helpers for the tests of the library (`tests/`) and of the command line
//! (`cli/tests/`, which include this file): running the hysolve binary,
//! alone or under mpirun, and ranks as threads.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// A binary of the workspace (`hysolve`, `hysolve-sweep`): beside this
/// test's own executable, in the same profile's folder (`cargo test` builds
/// them first: the command-line and tools packages have tests of their own).
pub fn workspace_bin(name: &str) -> String {
    let bin = profile_dir().join(name);
    assert!(
        bin.exists(),
        "{} is not built: run `cargo build --profile {}` (make test does)",
        bin.display(),
        profile()
    );
    bin.to_string_lossy().into_owned()
}

/// The folder of the profile this test was built with, where its binaries
/// are: target/<profile>/deps/<test> -> target/<profile>.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>")
        .to_path_buf()
}

/// The profile this test was built with (`testing` under make test), for
/// the cargo builds a test runs itself: the folder's name, but `dev` for
/// `debug`.
pub fn profile() -> String {
    let dir = profile_dir();
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => "dev".to_string(),
        Some(name) => name.to_string(),
        None => panic!("no profile in {}", dir.display()),
    }
}

/// The `hysolve` binary.
pub static BIN: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| workspace_bin("hysolve"));

/// OEIS A000170: solutions of the n-queens problem, n = 1..=17.
pub const A000170: [u64; 17] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512, 95815104,
];

/// The configurations every count is checked in: (ranks, threads per rank).
pub const CONFIGS: [(usize, usize); 6] = [(1, 1), (1, 2), (2, 1), (2, 2), (3, 2), (4, 1)];

/// Waits until the running `child` has written `path` (a checkpoint): the
/// moment a run can be killed and resumed, whatever the machine's speed. A
/// fixed sleep instead fails on a machine fast enough to finish first.
pub fn wait_for_file(child: &mut Child, path: &Path, limit: Duration) {
    let t = Instant::now();
    while !path.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it wrote {}",
            path.display()
        );
        assert!(t.elapsed() < limit, "no {} after {limit:?}", path.display());
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Waits until the running `child` has written `path` again `times` times
/// after the version there now (a checkpoint is written beside its name and
/// renamed into place, so each write is a new file): an event, not a time,
/// however fast the machine. Fails if the run ends first.
pub fn wait_for_rewrites(child: &mut Child, path: &Path, times: usize, limit: Duration) {
    use std::os::unix::fs::MetadataExt;
    let stamp = |p: &Path| {
        std::fs::metadata(p)
            .ok()
            .map(|m| (m.ino(), m.mtime(), m.mtime_nsec(), m.len()))
    };
    let t = Instant::now();
    let mut last = stamp(path);
    let mut seen = 0;
    while seen < times {
        let now = stamp(path);
        if now.is_some() && now != last {
            seen += 1;
            last = now;
            continue;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it wrote {} {times} more times ({seen} seen)",
            path.display()
        );
        assert!(
            t.elapsed() < limit,
            "{} written {seen} of {times} more times after {limit:?}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Runs a command with a time limit; a run past it is killed and fails the test.
pub fn run_with_timeout(mut cmd: Command, limit: Duration) -> Output {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawning the command");
    // Drain the pipes on threads so a chatty child cannot block on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).ok();
        v
    });
    let t_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).ok();
        v
    });
    let status = match child.wait_timeout(limit).expect("waiting for the command") {
        Some(status) => status,
        None => {
            child.kill().ok();
            child.wait().ok();
            panic!("command timed out after {limit:?}: {cmd:?}");
        }
    };
    Output {
        status,
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
    }
}

/// The workspace's root, where the tests' relative paths start (the
/// library's tests run there; the command line's in `cli/`).
pub fn root() -> PathBuf {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    match package.join("Cargo.lock").exists() {
        true => package.to_path_buf(),
        false => package.parent().expect("a workspace member").to_path_buf(),
    }
}

/// A piece set or figure as the command line takes it, for a search built
/// in the test: a built-in name as it is, a file (a path with a `/`) from
/// the workspace's root (the puzzles' tests run in `puzzles/`).
pub fn at_root(spec: &str) -> String {
    match spec.contains('/') {
        true => root().join(spec).to_string_lossy().into_owned(),
        false => spec.to_string(),
    }
}

/// `hysolve ARGS` as one plain process, in the workspace's root.
pub fn hysolve(args: &[&str]) -> Output {
    let mut cmd = Command::new(&*BIN);
    cmd.args(args).current_dir(root()).env_remove("RUST_LOG");
    run_with_timeout(cmd, Duration::from_secs(120))
}

/// The environment every mpirun of the tests gets: root allowed, loopback
/// only (CI machines have no cluster network), no log filter, and Open
/// MPI's own point-to-point layer (`pml ob1` over shared memory and TCP)
/// rather than UCX, which buys nothing on one host and made each launch
/// wait about 0.2 s longer on a 2-core machine (0.41 s against 0.20 for 2
/// ranks): the suite launches mpirun some 270 times.
pub fn mpi_env(cmd: &mut Command) -> &mut Command {
    cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_pml", "ob1")
        .env("OMPI_MCA_btl", "self,vader,tcp")
        .env("OMPI_MCA_btl_tcp_if_include", "lo")
        .env("OMPI_MCA_oob_tcp_if_include", "lo")
        .env_remove("RUST_LOG")
}

/// `mpirun -np RANKS hysolve --threads THREADS ARGS`.
pub fn mpirun(ranks: usize, threads: usize, args: &[&str]) -> Output {
    let mut cmd = Command::new("mpirun");
    cmd.args(["--oversubscribe", "--bind-to", "none", "-np"])
        .arg(ranks.to_string())
        .arg(&*BIN)
        .args(["--threads", &threads.to_string()])
        .args(args)
        .current_dir(root());
    mpi_env(&mut cmd);
    run_with_timeout(cmd, Duration::from_secs(180))
}

/// The JSON object on the last line of stdout of a successful run.
pub fn json_of(out: &Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "run failed ({:?}):\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("last line is not JSON ({e}): {last}"))
}

/// Solutions in a solutions file: blocks separated by blank lines.
pub fn read_solutions(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("reading the solutions file");
    text.split("\n\n")
        .map(|b| b.trim_matches('\n').to_string())
        .filter(|b| !b.is_empty())
        .collect()
}

/// Runs `problem` with `ranks` ranks as threads (joined by channels) of
/// `threads` workers each; returns the outcome and what `all` mode wrote.
pub fn run_threads<P: hysolve::Problem>(
    problem: &std::sync::Arc<P>,
    mode: hysolve::Mode,
    ranks: usize,
    threads: usize,
) -> (hysolve::Outcome, Vec<u8>) {
    let config = hysolve::RunConfig::new(mode)
        .threads(threads)
        .prefixes_per_worker(4);
    let mut sink = Vec::new();
    let outcome = hysolve::advanced::run_threaded(problem.clone(), &config, ranks, &mut sink)
        .expect("the run succeeds");
    (outcome, sink)
}

/// The solutions in a stream: blocks separated by blank lines.
pub fn blocks(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .split("\n\n")
        .map(|b| b.trim_matches('\n').to_owned())
        .filter(|b| !b.is_empty())
        .collect()
}

/// N queens in Knuth's exact-cover format: rows and columns primary,
/// diagonals secondary (examples/xc/queens-13.xc is `queens_xc(13)`).
pub fn queens_xc(n: usize) -> String {
    let mut s = format!("| {n} queens\n");
    let rows = (0..n).map(|i| format!("r{i}"));
    let cols = (0..n).map(|j| format!("c{j}"));
    let diags = (0..2 * n - 1).flat_map(|d| [format!("a{d}"), format!("b{d}")]);
    s += &rows.chain(cols).collect::<Vec<_>>().join(" ");
    s += " | ";
    s += &diags.collect::<Vec<_>>().join(" ");
    s += "\n";
    for i in 0..n {
        for j in 0..n {
            s += &format!("r{i} c{j} a{} b{}\n", i + j, i + n - 1 - j);
        }
    }
    s
}
