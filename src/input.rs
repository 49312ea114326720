//! What every puzzle parser shares: errors that point at a file, line and
//! column, and reading a file with a size limit checked before anything is
//! allocated for it.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// A bad input, located as precisely as the parser can: `file:line:col: what`
/// (line and column count from 1; either may be unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file (or argument) at fault.
    pub file: String,
    /// Its line, from 1, when known.
    pub line: Option<usize>,
    /// Its column, from 1, when known.
    pub col: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl InputError {
    /// An error at `line` and `col` of `file`.
    pub fn at(file: &str, line: usize, col: usize, message: impl Into<String>) -> Self {
        InputError {
            file: file.to_owned(),
            line: Some(line),
            col: Some(col),
            message: message.into(),
        }
    }

    /// An error at `line` of `file`, column unknown.
    pub fn line(file: &str, line: usize, message: impl Into<String>) -> Self {
        InputError {
            file: file.to_owned(),
            line: Some(line),
            col: None,
            message: message.into(),
        }
    }

    /// An error about `file` as a whole.
    pub fn file(file: &str, message: impl Into<String>) -> Self {
        InputError {
            file: file.to_owned(),
            line: None,
            col: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.col {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for InputError {}

/// A bad block of a solutions file (one solution): the line of the block
/// at fault (from 0) and what is wrong with it. The reader of the file
/// turns it into an [`InputError`] that names the file's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockError {
    /// The line in the block, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl BlockError {
    /// An error at `line` of the block.
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        BlockError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for BlockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} of the solution: {}",
            self.line + 1,
            self.message
        )
    }
}

/// The largest input file any parser accepts (a 10,000 x 10,000 grid of
/// 8-digit numbers is under 1 GB).
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads a whole text file, refusing one larger than `limit` bytes before
/// reading it, and one that is not UTF-8 (naming the line of the first bad byte).
pub fn read_text(path: &Path, limit: u64) -> Result<String, InputError> {
    let bytes = read_bytes(path, limit)?;
    text_from_bytes(&path.display().to_string(), bytes)
}

/// Reads a whole file as bytes, refusing one larger than `limit` bytes
/// before reading it (for formats that are not all text).
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| InputError::file(&name, io_reason(&e)))?;
    let meta = file
        .metadata()
        .map_err(|e| InputError::file(&name, io_reason(&e)))?;
    if meta.is_dir() {
        return Err(InputError::file(&name, "is a directory, not a file"));
    }
    if meta.len() > limit {
        return Err(InputError::file(
            &name,
            format!(
                "file is {} bytes, more than the {limit} accepted",
                meta.len()
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // `take` also bounds a file that grows while it is read (a pipe, /dev/zero).
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::file(&name, io_reason(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(InputError::file(
            &name,
            format!("more than the {limit} bytes accepted"),
        ));
    }
    Ok(bytes)
}

/// A UTF-8 byte-order mark, which Windows editors put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The text of a file's bytes: one leading byte-order mark skipped, and
/// bytes that are not UTF-8 refused, naming the line and column of the
/// first bad one (counted after the mark).
pub fn text_from_bytes(name: &str, mut bytes: Vec<u8>) -> Result<String, InputError> {
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = at
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        InputError::at(name, line, col, "not UTF-8 text")
    })
}

/// An I/O error in words, without Rust's "(os error N)" suffix.
fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_owned(),
                None => s,
            }
        }
    }
}

/// The whitespace-separated words of `line`, each with its 1-based column.
pub fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line;
    let mut offset = 0;
    std::iter::from_fn(move || {
        let start = rest.find(|c: char| !c.is_whitespace())?;
        let after = &rest[start..];
        let len = after.find(char::is_whitespace).unwrap_or(after.len());
        let word = &after[..len];
        let col = line[..offset + start].chars().count() + 1;
        offset += start + len;
        rest = &after[len..];
        Some((col, word))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_have_columns() {
        let w: Vec<_> = words("  4 12\t7 ").collect();
        assert_eq!(w, vec![(3, "4"), (5, "12"), (8, "7")]);
        assert_eq!(words("").count(), 0);
    }

    #[test]
    fn error_formats_as_file_line_col() {
        assert_eq!(
            InputError::at("a.txt", 3, 7, "bad").to_string(),
            "a.txt:3:7: bad"
        );
        assert_eq!(
            InputError::line("a.txt", 3, "bad").to_string(),
            "a.txt:3: bad"
        );
        assert_eq!(InputError::file("a.txt", "bad").to_string(), "a.txt: bad");
    }

    #[test]
    fn missing_file_is_one_line() {
        let e = read_text(Path::new("/nonexistent/x.txt"), 100).unwrap_err();
        assert_eq!(e.to_string(), "/nonexistent/x.txt: no such file");
    }
}
