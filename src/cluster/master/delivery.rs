//! Where the master's solutions go: to the sink as they come (`all` mode),
//! or kept for the outcome (`first`, `unique`), with the count and length
//! of what was written, which checkpoints record.

use crate::cluster::RunError;
use crate::cluster::checkpoint::Checkpoint;
use crate::cluster::sink::SolutionSink;
use crate::engine::Mode;

pub(in crate::cluster) struct Delivery<'a> {
    sink: &'a mut dyn SolutionSink,
    mode: Mode,
    /// first/unique: the solutions kept.
    pub(crate) found: Vec<String>,
    /// all: solutions written, over resumes.
    pub(crate) written: u64,
    /// Bytes written to the sink, over resumes.
    pub(crate) out_bytes: u64,
}

impl<'a> Delivery<'a> {
    /// Delivery in `mode`, going on from the checkpoint `resume` if any.
    pub(in crate::cluster) fn new(
        sink: &'a mut dyn SolutionSink,
        mode: Mode,
        resume: Option<&Checkpoint>,
    ) -> Self {
        Delivery {
            sink,
            mode,
            found: Vec::new(),
            written: resume.map_or(0, |c| c.written),
            out_bytes: resume.map_or(0, |c| c.out_bytes),
        }
    }

    /// The first `keep` of `texts`, as the mode wants them.
    pub(in crate::cluster) fn accept(
        &mut self,
        texts: Vec<String>,
        keep: usize,
    ) -> Result<(), RunError> {
        if self.mode == Mode::All {
            for text in texts.into_iter().take(keep) {
                self.write(&text)?;
            }
        } else if self.mode.stop_after().is_some() {
            self.found.extend(texts.into_iter().take(keep));
        }
        Ok(())
    }

    /// Appends one solution to the output.
    pub(in crate::cluster) fn write(&mut self, text: &str) -> Result<(), RunError> {
        self.out_bytes += self.sink.solution(text)?;
        self.written += 1;
        Ok(())
    }

    /// Makes everything written durable.
    pub(in crate::cluster) fn persist(&mut self) -> Result<(), RunError> {
        Ok(self.sink.persist()?)
    }

    pub(in crate::cluster) fn sink(&mut self) -> &mut dyn SolutionSink {
        self.sink
    }
}
