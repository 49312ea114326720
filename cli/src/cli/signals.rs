//! Stopping a run from outside: signals, and the death of the MPI launcher.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// SIGTERM (a scheduler's walltime) and SIGINT (Ctrl-C) set the flag the
/// master watches; a second one ends the process at once. Under an MPI
/// launcher, the launcher's death sets it too.
pub(super) fn interrupt_flag() -> Option<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [SIGTERM, SIGINT] {
        signal_hook::flag::register_conditional_shutdown(sig, 1, flag.clone()).ok()?;
        signal_hook::flag::register(sig, flag.clone()).ok()?;
    }
    if hysolve::advanced::launched_by_mpi() {
        watch_launcher(flag.clone());
    }
    Some(flag)
}

/// A rank whose launcher dies (mpirun killed by hand or by a scheduler) is
/// handed to another parent. The master then stops as on SIGTERM, writing
/// its checkpoint, instead of running on with no one to report to (and
/// perhaps finishing, so that a count is lost with the launcher's output).
fn watch_launcher(flag: Arc<AtomicBool>) {
    let launcher = std::os::unix::process::parent_id();
    let _ = std::thread::Builder::new()
        .name("launcher-watch".into())
        .spawn(move || {
            while std::os::unix::process::parent_id() == launcher {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            flag.store(true, Ordering::Relaxed);
        });
}
