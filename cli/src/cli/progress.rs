//! The progress bar on stderr: the CLI's observer of a run.

use hysolve::{Observer, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use parking_lot::Mutex;
use std::io::IsTerminal;

/// The share of the master's initial prefixes walked, as a bar and an ETA,
/// with solutions and nodes per second; drawn once the run has gone on for
/// a second. Under an MPI launcher stderr is a pipe to the launcher's
/// terminal: the bar is drawn there all the same (the CLI asks for it then
/// only with --progress).
#[derive(Default)]
pub(super) struct Bar(Mutex<Option<ProgressBar>>);

impl Observer for Bar {
    fn started(&self, initial_prefixes: u64) {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::term_like_with_hz(Box::new(console::Term::stderr()), 5)
        };
        let bar = ProgressBar::with_draw_target(Some(initial_prefixes.max(1)), target);
        bar.set_style(
            ProgressStyle::with_template(
                "[{elapsed_precise}] {wide_bar} {percent:>3}% of {len} prefixes, eta {eta} | {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        *self.0.lock() = Some(bar);
    }

    fn progress(&self, p: &Progress) {
        let elapsed = p.elapsed.as_secs_f64();
        if elapsed < 1.0 {
            return;
        }
        if let Some(bar) = &*self.0.lock() {
            bar.set_position(p.initial_done);
            bar.set_message(format!(
                "{} solutions, {:.2} M nodes/s",
                p.solutions,
                p.nodes as f64 / elapsed / 1e6,
            ));
        }
    }

    fn finished(&self) {
        if let Some(bar) = self.0.lock().take() {
            bar.finish_and_clear();
        }
    }
}
