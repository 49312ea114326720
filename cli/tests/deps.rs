//! `make deps` asks for what the build and the tests really use.
//!
//! Each case runs the Makefile's `deps` target with a `PATH` that holds only
//! stand-ins: `apt-get` records what it is asked to install, `dpkg-query`
//! answers from a list, `mpicc`, `mpirun`, `shellcheck`, `chromium`, `cliquer` and
//! `cargo` exist or not as the case says. A machine with `libclang-cpp`
//! (LLVM's C++ library) but no `libclang` must be asked for `libclang-dev`;
//! a machine with everything must install nothing; a machine where nothing
//! can be installed gets one line and a failure.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TOOLS: [&str; 6] = [
    "mpicc",
    "mpirun",
    "shellcheck",
    "chromium",
    "cliquer",
    "cargo",
];

struct Machine {
    dir: tempfile::TempDir,
    /// Packages `dpkg-query` reports installed; `None`: no dpkg at all.
    dpkg: Option<Vec<&'static str>>,
    /// Files in the one library folder searched when there is no dpkg.
    libs: Vec<&'static str>,
    tools: Vec<&'static str>,
    uid: u32,
    sudo_works: bool,
    apt_fails: bool,
}

impl Machine {
    fn new() -> Self {
        Machine {
            dir: tempfile::tempdir().unwrap(),
            dpkg: Some(vec!["libclang-dev"]),
            libs: Vec::new(),
            tools: TOOLS.to_vec(),
            uid: 0,
            sudo_works: false,
            apt_fails: false,
        }
    }

    fn script(&self, name: &str, body: &str) {
        let path = self.bin().join(name);
        fs::write(&path, format!("#!/bin/bash\n{body}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn bin(&self) -> PathBuf {
        self.dir.path().join("bin")
    }

    fn apt_log(&self) -> PathBuf {
        self.dir.path().join("apt.log")
    }

    /// Runs `make deps` on this machine: (exit success, stdout + stderr, apt-get calls).
    fn make_deps(&self) -> (bool, String, String) {
        self.make("deps")
    }

    /// Runs `make TARGET` (`deps` or `deps-build`) on this machine.
    fn make(&self, target: &str) -> (bool, String, String) {
        fs::create_dir_all(self.bin()).unwrap();
        let lib = self.dir.path().join("lib");
        fs::create_dir_all(&lib).unwrap();
        for name in &self.libs {
            fs::write(lib.join(name), b"").unwrap();
        }
        // The few real programs the recipe and the Makefile's variables use.
        for real in ["env", "ls", "tr", "sed", "cat", "true"] {
            let target = ["/usr/bin", "/bin"]
                .iter()
                .map(|d| Path::new(d).join(real))
                .find(|p| p.exists())
                .unwrap();
            std::os::unix::fs::symlink(target, self.bin().join(real)).unwrap();
        }
        for tool in &self.tools {
            self.script(tool, "exit 0");
        }
        self.script("id", &format!("echo {}", self.uid));
        self.script(
            "sudo",
            if self.sudo_works {
                "[ \"$1\" = -n ] && shift; exec \"$@\""
            } else {
                "exit 1"
            },
        );
        self.script(
            "apt-get",
            &format!(
                "echo \"$*\" >> {}\nexit {}",
                self.apt_log().display(),
                u8::from(self.apt_fails)
            ),
        );
        let dpkg_query = match &self.dpkg {
            Some(installed) => {
                let cases: String = installed
                    .iter()
                    .map(|p| format!("  {p}) printf 'install ok installed';;\n"))
                    .collect();
                self.script(
                    "dpkg-query",
                    &format!("case \"${{@: -1}}\" in\n{cases}  *) exit 1;;\nesac"),
                );
                self.bin().join("dpkg-query")
            }
            None => self.dir.path().join("no-dpkg-query"),
        };
        let out: Output = make_target(target)
            .arg(format!("DPKG_QUERY={}", dpkg_query.display()))
            .arg(format!("LIBCLANG_DIRS={}", lib.display()))
            .env_clear()
            .env("PATH", self.bin())
            .env("HOME", self.dir.path())
            .env("TMPDIR", self.dir.path())
            .output()
            .expect("make runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let apt = fs::read_to_string(self.apt_log()).unwrap_or_default();
        (out.status.success(), text, apt)
    }
}

/// The real `make`, found before `PATH` is replaced by the stand-ins.
fn make() -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("make"))
        .find(|p| p.is_file())
        .expect("make on PATH")
}

/// `make TARGET` in this checkout, quietly.
fn make_target(target: &str) -> Command {
    let mut cmd = Command::new(make());
    cmd.args(["-s", "--no-print-directory", "-C"]);
    cmd.arg(crate::common::root()).arg(target);
    cmd
}

fn installs(apt: &str) -> Vec<String> {
    apt.lines()
        .filter(|l| l.starts_with("install"))
        .flat_map(|l| {
            l.split_whitespace()
                .filter(|w| !w.starts_with('-') && *w != "install")
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn nothing_missing_installs_nothing() {
    let m = Machine::new();
    let (ok, text, apt) = m.make_deps();
    assert!(ok, "{text}");
    assert_eq!(apt, "", "apt-get was called: {text}");
    assert_eq!(text, "");
}

/// `make build` and `make run` ask only for what the build needs: a
/// machine without the tests' tools installs nothing for them, and still
/// gets what the build lacks.
#[test]
fn the_build_asks_only_for_what_it_builds_with() {
    let without_test_tools = || {
        let mut m = Machine::new();
        m.tools
            .retain(|t| !["shellcheck", "chromium", "cliquer"].contains(t));
        m
    };
    let (ok, text, apt) = without_test_tools().make("deps-build");
    assert!(ok, "{text}");
    assert_eq!(apt, "", "apt-get was called: {text}");
    let (ok, text, apt) = without_test_tools().make("deps");
    assert!(ok, "{text}");
    assert_eq!(
        installs(&apt),
        ["shellcheck", "chromium", "cliquer"],
        "{text}"
    );

    let mut m = Machine::new();
    m.tools.retain(|t| !["mpicc", "chromium"].contains(t));
    let (ok, text, apt) = m.make("deps-build");
    assert!(ok, "{text}");
    assert_eq!(installs(&apt), ["libopenmpi-dev"], "{text}");
}

#[test]
fn libclang_cpp_is_not_libclang_for_dpkg() {
    // dpkg knows LLVM's libclang-cpp14 but not libclang-dev.
    let mut m = Machine::new();
    m.dpkg = Some(vec!["libclang-cpp14", "llvm-14"]);
    let (ok, text, apt) = m.make_deps();
    assert!(ok, "{text}");
    assert_eq!(installs(&apt), ["libclang-dev"], "{text}");
}

#[test]
fn libclang_cpp_is_not_libclang_in_library_folders() {
    let mut m = Machine::new();
    m.dpkg = None;
    m.libs = vec!["libclang-cpp.so.14", "libclang-cpp.so"];
    let (ok, text, apt) = m.make_deps();
    assert!(ok, "{text}");
    assert_eq!(installs(&apt), ["libclang-dev"], "{text}");

    let mut m = Machine::new();
    m.dpkg = None;
    m.libs = vec!["libclang-cpp.so.14", "libclang-14.so.1"];
    let (ok, text, apt) = m.make_deps();
    assert!(ok, "{text}");
    assert_eq!(apt, "", "{text}");
}

#[test]
fn each_missing_tool_names_its_package() {
    for (tool, package) in [
        ("mpicc", "libopenmpi-dev"),
        ("mpirun", "openmpi-bin"),
        ("shellcheck", "shellcheck"),
        ("chromium", "chromium"),
        ("cliquer", "cliquer"),
    ] {
        let mut m = Machine::new();
        m.tools.retain(|t| *t != tool);
        let (ok, text, apt) = m.make_deps();
        assert!(ok, "{tool}: {text}");
        assert_eq!(installs(&apt), [package], "{tool}: {text}");
    }
}

#[test]
fn no_root_uses_sudo_or_says_what_to_install() {
    let mut m = Machine::new();
    m.uid = 1000;
    m.sudo_works = true;
    m.dpkg = Some(vec![]);
    let (ok, text, apt) = m.make_deps();
    assert!(ok, "{text}");
    assert_eq!(installs(&apt), ["libclang-dev"], "{text}");

    let mut m = Machine::new();
    m.uid = 1000;
    m.dpkg = Some(vec![]);
    m.tools.retain(|t| *t != "mpicc");
    let (ok, text, apt) = m.make_deps();
    assert!(!ok, "{text}");
    assert_eq!(apt, "");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("make:")).collect();
    assert_eq!(
        lines,
        [
            "make deps: missing libopenmpi-dev libclang-dev: install by hand \
          (apt-get install -y libopenmpi-dev libclang-dev), then run make again \
          (needs root or password-less sudo)"
        ],
        "{text}"
    );
}

#[test]
fn a_failed_install_is_one_line_and_a_failure() {
    let mut m = Machine::new();
    m.dpkg = Some(vec![]);
    m.apt_fails = true;
    let (ok, text, _) = m.make_deps();
    assert!(!ok, "{text}");
    assert!(
        text.contains("make deps: missing libclang-dev: install by hand (apt-get install -y libclang-dev), then run make again (apt-get failed"),
        "{text}"
    );
}

#[test]
fn a_wrong_libclang_path_is_named() {
    let m = Machine::new();
    fs::create_dir_all(m.dir.path().join("empty")).unwrap();
    let out = make_target("deps")
        .env("LIBCLANG_PATH", m.dir.path().join("empty"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("holds no libclang.so or libclang-N.so"),
        "{text}"
    );
}
