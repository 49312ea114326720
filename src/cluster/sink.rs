//! Where solutions go. A run's solutions file is text: one block per
//! solution in its problem's format, a blank line between blocks. Only
//! rank 0 writes; [`run`](super::run) decides which rank that is.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Takes the solutions of a run, one at a time, on rank 0.
pub trait SolutionSink {
    /// One solution in its problem's text format (no trailing newline).
    /// Returns the bytes this added to the solutions file (0 when the sink
    /// is not a file).
    fn solution(&mut self, text: &str) -> std::io::Result<u64>;

    /// Makes everything taken so far durable (flushed, and synced to disk
    /// for a file) before a checkpoint records its length.
    fn persist(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Appends `text` to `w` in the solutions-file format: a blank line first
/// unless it is the first solution. Returns the bytes written.
fn append(w: &mut impl Write, first: bool, text: &str) -> std::io::Result<u64> {
    let mut bytes = text.len() as u64 + 1;
    if !first {
        w.write_all(b"\n")?;
        bytes += 1;
    }
    w.write_all(text.as_bytes())?;
    w.write_all(b"\n")?;
    Ok(bytes)
}

/// The solutions file in memory.
impl SolutionSink for Vec<u8> {
    fn solution(&mut self, text: &str) -> std::io::Result<u64> {
        let first = self.is_empty();
        append(self, first, text)
    }
}

/// Solutions handed to a closure, as text.
///
/// ```
/// use hysolve::{Callback, SolutionSink};
///
/// let mut seen = Vec::new();
/// let mut sink = Callback(|text: &str| seen.push(text.to_owned()));
/// sink.solution("Q.\n.Q").unwrap();
/// drop(sink);
/// assert_eq!(seen, ["Q.\n.Q"]);
/// ```
pub struct Callback<F: FnMut(&str)>(pub F);

impl<F: FnMut(&str)> SolutionSink for Callback<F> {
    fn solution(&mut self, text: &str) -> std::io::Result<u64> {
        (self.0)(text);
        Ok(0)
    }
}

/// A file that takes a whole run's solutions and appears under its name
/// only when the run is over: it is written as `NAME.partial` beside it
/// and renamed into place by [`FileSink::finish`], so a failed or
/// interrupted run leaves any earlier file of that name untouched. Standard
/// output when no path is given.
pub(crate) struct FileSink {
    target: Target,
    written: u64,
}

enum Target {
    File {
        tmp: PathBuf,
        path: PathBuf,
        file: std::io::BufWriter<std::fs::File>,
    },
    Stdout(std::io::BufWriter<std::io::Stdout>),
    /// A FIFO, a terminal, a device: written in place
    /// ([`output::is_special`](crate::output::is_special)).
    Special {
        path: PathBuf,
        file: std::io::BufWriter<std::fs::File>,
    },
}

pub use crate::output::FileError;

/// `NAME.partial` beside `path`.
pub(crate) fn partial_path(path: &Path) -> PathBuf {
    crate::output::beside(path, ".partial")
}

impl FileSink {
    /// Standard output.
    pub(crate) fn stdout() -> FileSink {
        FileSink {
            target: Target::Stdout(std::io::BufWriter::new(std::io::stdout())),
            written: 0,
        }
    }

    /// A new (empty) `path.partial`, renamed to `path` by [`FileSink::finish`];
    /// a FIFO, terminal or device `path` is written in place.
    pub(crate) fn create(path: &Path) -> Result<FileSink, FileError> {
        if crate::output::is_special(path) {
            let file = crate::output::open_special(path)?;
            return Ok(FileSink {
                target: Target::Special {
                    path: path.to_path_buf(),
                    file: std::io::BufWriter::new(file),
                },
                written: 0,
            });
        }
        let tmp = partial_path(path);
        let file = std::fs::File::create(&tmp).map_err(FileError::at(&tmp))?;
        Ok(FileSink {
            target: Target::File {
                tmp,
                path: path.to_path_buf(),
                file: std::io::BufWriter::new(file),
            },
            written: 0,
        })
    }

    /// Continues the `path.partial` of an interrupted run that had written
    /// `written` solutions, cut back to the `len` bytes its checkpoint
    /// vouches for.
    pub(crate) fn resume(path: &Path, len: u64, written: u64) -> Result<FileSink, FileError> {
        use std::io::Seek;
        if crate::output::is_special(path) {
            return Err(FileError::at(path)(std::io::Error::other(
                "not a regular file: a resumed run cannot take back the solutions written \
                 there after the checkpoint (give a file, or run again from the start)",
            )));
        }
        let tmp = partial_path(path);
        let err = FileError::at(&tmp);
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&tmp)
            .map_err(&err)?;
        let have = file.metadata().map_err(&err)?.len();
        if have < len {
            return Err(err(std::io::Error::other(format!(
                "{have} bytes, but the checkpoint recorded {len}: it is not this run's solutions file"
            ))));
        }
        file.set_len(len).map_err(&err)?;
        file.seek(std::io::SeekFrom::End(0)).map_err(&err)?;
        Ok(FileSink {
            target: Target::File {
                tmp: tmp.clone(),
                path: path.to_path_buf(),
                file: std::io::BufWriter::new(file),
            },
            written,
        })
    }

    /// Flushes and, for a file, puts it in place atomically
    /// ([`output::commit`](crate::output::commit): synced, renamed, its
    /// folder synced).
    pub(crate) fn finish(self) -> Result<(), FileError> {
        match self.target {
            Target::File { tmp, path, file } => {
                let file = file
                    .into_inner()
                    .map_err(|e| FileError::at(&tmp)(e.into_error()))?;
                crate::output::commit(file, &tmp, &path)
            }
            Target::Stdout(mut w) => w.flush().map_err(FileError::at(Path::new("<stdout>"))),
            Target::Special { path, mut file } => file.flush().map_err(FileError::at(&path)),
        }
    }
}

impl SolutionSink for FileSink {
    fn solution(&mut self, text: &str) -> std::io::Result<u64> {
        let first = self.written == 0;
        self.written += 1;
        match &mut self.target {
            Target::File { file, .. } => append(file, first, text),
            Target::Stdout(w) => append(w, first, text),
            Target::Special { file, .. } => append(file, first, text),
        }
    }

    fn persist(&mut self) -> std::io::Result<()> {
        match &mut self.target {
            Target::File { file, .. } => {
                file.flush()?;
                file.get_ref().sync_data()
            }
            Target::Stdout(w) => w.flush(),
            Target::Special { file, .. } => file.flush(),
        }
    }
}

/// Where [`run`](super::run) delivers a run's solutions: in `all` mode each
/// one as it is found; in `first` and `unique` modes those found, at the
/// end (they are also in [`Outcome::found`](super::Outcome::found)).
///
/// ```
/// use hysolve::Callback;
/// use hysolve_puzzles::queens::Queens;
/// use hysolve::{Mode, RunConfig, Solutions, run};
/// use std::sync::Arc;
///
/// let mut seen = 0;
/// let config = RunConfig::new(Mode::All).threads(2);
/// let queens = Arc::new(Queens::new(5, false).unwrap());
/// let sink = &mut Callback(|_board: &str| seen += 1);
/// run(queens, &config, Solutions::Sink(sink)).unwrap();
/// assert_eq!(seen, 10);
/// ```
pub enum Solutions<'a> {
    /// Nowhere: only counted (and kept in the outcome in first/unique modes).
    Discard,
    /// Standard output, a blank line between solutions (`all` mode only;
    /// in the other modes the caller prints the outcome's).
    Stdout,
    /// A file, written atomically (see `FileSink`); a resumed `all` run
    /// continues its `.partial` file.
    File(PathBuf),
    /// Any sink: a closure through [`Callback`], a `Vec<u8>`, your own.
    Sink(&'a mut dyn SolutionSink),
}

impl std::fmt::Debug for Solutions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Solutions::Discard => f.write_str("Discard"),
            Solutions::Stdout => f.write_str("Stdout"),
            Solutions::File(p) => f.debug_tuple("File").field(p).finish(),
            Solutions::Sink(_) => f.write_str("Sink(..)"),
        }
    }
}

/// The sink that drops everything.
pub(super) struct Discard;

impl SolutionSink for Discard {
    fn solution(&mut self, _text: &str) -> std::io::Result<u64> {
        Ok(0)
    }
}
