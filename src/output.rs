//! Writing files atomically: a file is written under a temporary name
//! beside its own, synced, renamed over it, and its folder synced, so
//! readers see the old file or the new one, whole, and after a crash the
//! disk holds one of them. Every file the library, the command line and
//! the tools replace goes through here. A leaf, like `input`.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file that could not be written, and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", .path.display())]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// The system's error.
    #[source]
    pub source: std::io::Error,
}

impl FileError {
    /// The error of an operation on `path`.
    pub(crate) fn at(path: &Path) -> impl Fn(std::io::Error) -> FileError + '_ {
        move |source| FileError {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// `NAME{suffix}` beside `path` (`NAME` is its file name).
pub(crate) fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Whether `path` names something that exists and is neither a regular
/// file nor a folder: a FIFO, a terminal, `/dev/stdout`, `/dev/null`. Such
/// a target is written in place ([`open_special`]), never replaced: a
/// rename over it would put a regular file in its place (as root, even
/// over `/dev/null`), and nothing can be made atomic on it anyway.
pub(crate) fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Opens a [special](is_special) `path` for writing, as it is.
pub(crate) fn open_special(path: &Path) -> Result<File, FileError> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(FileError::at(path))
}

/// Writes `bytes` as the whole content of `path`, atomically: through
/// `NAME.tmp` beside it, synced, renamed over `path`, then the folder
/// synced. A `path` that is neither a regular file nor a folder (a FIFO,
/// a terminal, `/dev/null`) is written in place.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    if is_special(path) {
        let mut file = open_special(path)?;
        return file
            .write_all(bytes)
            .and_then(|()| file.flush())
            .map_err(FileError::at(path));
    }
    let tmp = beside(path, ".tmp");
    let mut file = File::create(&tmp).map_err(FileError::at(&tmp))?;
    file.write_all(bytes).map_err(FileError::at(&tmp))?;
    commit(file, &tmp, path)
}

/// Puts the file `tmp`, written through `file` (flushed), in place of
/// `path`: syncs it, renames it over `path`, and syncs the folder, which
/// makes the rename itself durable.
pub(crate) fn commit(file: File, tmp: &Path, path: &Path) -> Result<(), FileError> {
    file.sync_all().map_err(FileError::at(tmp))?;
    drop(file);
    std::fs::rename(tmp, path).map_err(FileError::at(path))?;
    sync_folder(path)
}

/// Puts `tmp` in place of `path` as [`write_atomically`] does (synced,
/// renamed, the folder synced), for a file written and closed by other
/// code (a plotting library given its path).
pub fn replace(tmp: &Path, path: &Path) -> Result<(), FileError> {
    let file = File::open(tmp).map_err(FileError::at(tmp))?;
    commit(file, tmp, path)
}

/// Syncs the folder that holds `path`. A file system that cannot sync a
/// folder (it says the request is invalid or unsupported) has nothing
/// more to make durable; any other failure is an error.
fn sync_folder(path: &Path) -> Result<(), FileError> {
    let folder = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let synced = File::open(folder).and_then(|d| d.sync_all());
    match synced {
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::InvalidInput | std::io::ErrorKind::Unsupported
            ) =>
        {
            Ok(())
        }
        other => other.map_err(FileError::at(folder)),
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, b"first").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        write_atomically(&path, b"second, longer").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second, longer");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.txt"]);
        // A file written by other code, put in place.
        let tmp = beside(&path, ".svg.tmp");
        std::fs::write(&tmp, "drawn").unwrap();
        replace(&tmp, &path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"drawn");
        assert!(!tmp.exists());
    }

    #[test]
    fn a_failure_names_the_file_and_leaves_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kept.txt");
        std::fs::write(&path, "old").unwrap();
        // The temporary name is taken by a folder: it cannot be created.
        std::fs::create_dir(beside(&path, ".tmp")).unwrap();
        let e = write_atomically(&path, b"new").unwrap_err();
        assert_eq!(e.path, beside(&path, ".tmp"));
        assert!(
            e.to_string()
                .starts_with(&beside(&path, ".tmp").display().to_string())
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        // No such folder: the error names the temporary there.
        let nowhere = dir.path().join("missing").join("x.txt");
        let e = write_atomically(&nowhere, b"x").unwrap_err();
        assert_eq!(e.path, beside(&nowhere, ".tmp"));
    }

    #[test]
    fn the_folder_of_a_bare_name_is_the_current_one() {
        // A bare name's parent is empty: the folder synced is ".".
        assert!(sync_folder(Path::new("bare-name")).is_ok());
    }
}
