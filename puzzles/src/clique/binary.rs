//! The binary DIMACS format of the 1993 challenge (`.clq.b`, the brock
//! and gen graphs were first published in it): a line holding the length
//! of the preamble in bytes, the preamble (the `c` and `p` lines of the
//! ASCII format), then the lower triangle of the adjacency matrix, a row
//! a vertex: row `i` (from 0) is `i / 8 + 1` bytes, and bit `j` of it
//! (`0x80 >> j % 8` of byte `j / 8`, for `j <= i`) says whether `i` and
//! `j` are adjacent. Errors in the preamble name its line and column;
//! errors in the matrix name the byte's offset in the file.

use super::dimacs::{Dimacs, finish, parse_lines};
use hysolve::advanced::input::{InputError, text_from_bytes};

/// The longest first line a binary file may have (its decimal length).
const MAX_LENGTH_DIGITS: usize = 12;

/// Whether `bytes` start like a binary DIMACS file: a first line of
/// decimal digits alone (an ASCII file starts with a `c` or `p` line).
pub fn is_binary(bytes: &[u8]) -> bool {
    let line = first_line(bytes);
    !line.is_empty() && line.len() <= MAX_LENGTH_DIGITS && line.iter().all(u8::is_ascii_digit)
}

/// The first line of `bytes`, without its `\n` (or `\r\n`).
fn first_line(bytes: &[u8]) -> &[u8] {
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len());
    let line = &bytes[..end];
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Parses a binary DIMACS file's `bytes` ([`is_binary`]); `file` names it
/// in errors.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Dimacs, InputError> {
    let digits = first_line(bytes);
    let length: usize = std::str::from_utf8(digits)
        .ok()
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| InputError::at(file, 1, 1, "not a preamble length"))?;
    let Some(newline) = bytes.iter().position(|&b| b == b'\n') else {
        return Err(InputError::line(
            file,
            1,
            "a binary DIMACS file needs its preamble after the length's line",
        ));
    };
    let start = newline + 1;
    let Some(preamble) = bytes.get(start..start + length) else {
        return Err(InputError::line(
            file,
            1,
            format!(
                "the preamble is said to be {length} bytes, the file has {} after this line",
                bytes.len() - start
            ),
        ));
    };
    // The preamble's lines are the file's lines from 2.
    let text = text_from_bytes(file, preamble.to_vec()).map_err(|e| InputError {
        line: e.line.map(|l| l + 1),
        ..e
    })?;
    let mut lines = parse_lines(file, &text, 2, false)?;
    let matrix = start + length;
    let n = lines.graph.len();
    let mut at = matrix;
    for i in 0..n {
        let row_bytes = i / 8 + 1;
        let Some(row) = bytes.get(at..at + row_bytes) else {
            return Err(matrix_error(
                file,
                bytes.len(),
                i,
                format!(
                    "the bit matrix ends here, in row {} of {n} (it needs {} bytes from byte {matrix})",
                    i + 1,
                    triangle_bytes(n)
                ),
            ));
        };
        for (k, &byte) in row.iter().enumerate() {
            let mut bits = byte;
            while bits != 0 {
                let b = bits.leading_zeros() as usize;
                bits &= !(0x80 >> b);
                let j = k * 8 + b;
                if j == i {
                    return Err(matrix_error(
                        file,
                        at + k,
                        i,
                        format!("a self-loop on vertex {}", i + 1),
                    ));
                }
                if j > i {
                    return Err(matrix_error(
                        file,
                        at + k,
                        i,
                        format!(
                            "a bit past the diagonal (vertex {}; row {} holds vertices 1 to {})",
                            j + 1,
                            i + 1,
                            i + 1
                        ),
                    ));
                }
                lines.graph.add_edge(i, j);
                lines.edges += 1;
            }
        }
        at += row_bytes;
    }
    if at < bytes.len() {
        return Err(InputError::file(
            file,
            format!(
                "byte {at}: {} byte(s) after the bit matrix of {n} vertices",
                bytes.len() - at
            ),
        ));
    }
    Ok(finish(file, lines))
}

/// Bytes of the bit matrix of `n` vertices.
fn triangle_bytes(n: usize) -> usize {
    (0..n).map(|i| i / 8 + 1).sum()
}

/// An error at byte `offset` of `file`, in row `row` (from 0) of the matrix.
fn matrix_error(file: &str, offset: usize, row: usize, what: String) -> InputError {
    InputError::file(
        file,
        format!("byte {offset} (row {} of the bit matrix): {what}", row + 1),
    )
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::clique::graph::Graph;

    /// `g` in the binary format, after `preamble` (written here, bit by
    /// bit as the format's definition says).
    fn write(g: &Graph, preamble: &str) -> Vec<u8> {
        let mut out = format!("{}\n{preamble}", preamble.len()).into_bytes();
        for i in 0..g.len() {
            let mut row = vec![0u8; i / 8 + 1];
            for j in 0..i {
                if g.adjacent(i, j) {
                    row[j / 8] |= 0x80 >> (j % 8);
                }
            }
            out.extend(row);
        }
        out
    }

    fn sample() -> Graph {
        let mut g = Graph::new(11);
        for (u, v) in [(0, 1), (1, 2), (0, 2), (9, 10), (3, 10), (7, 8), (0, 8)] {
            g.add_edge(u, v);
        }
        g
    }

    #[test]
    fn a_binary_file_reads_as_its_ascii_text() {
        let g = sample();
        let bytes = write(&g, "c a sample\np edge 11 7\n");
        assert!(is_binary(&bytes));
        assert!(!is_binary(b"p edge 3 0\n") && !is_binary(b"c 12\n") && !is_binary(b""));
        let d = parse("g.clq.b", &bytes).unwrap();
        assert_eq!(d.graph, g);
        assert!(d.warnings.is_empty(), "{:?}", d.warnings);
    }

    #[test]
    fn bad_binary_files_name_the_line_or_byte() {
        let g = sample();
        let pre = "p edge 11 7\n";
        let good = write(&g, pre);
        let err = |bytes: &[u8]| parse("g.clq.b", bytes).unwrap_err().to_string();
        // The preamble is 12 bytes: the matrix starts at byte 15.
        assert_eq!(
            err(&good[..good.len() - 1]),
            "g.clq.b: byte 28 (row 11 of the bit matrix): the bit matrix ends here, in row 11 of 11 (it needs 14 bytes from byte 15)"
        );
        let mut extra = good.clone();
        extra.push(0);
        assert_eq!(
            err(&extra),
            "g.clq.b: byte 29: 1 byte(s) after the bit matrix of 11 vertices"
        );
        let mut looped = good.clone();
        looped[15 + 1] |= 0x40; // row 2, bit 1: vertex 2 with itself
        assert_eq!(
            err(&looped),
            "g.clq.b: byte 16 (row 2 of the bit matrix): a self-loop on vertex 2"
        );
        let mut past = good.clone();
        past[15 + 1] |= 0x20; // row 2, bit 2: past the diagonal
        assert_eq!(
            err(&past),
            "g.clq.b: byte 16 (row 2 of the bit matrix): a bit past the diagonal (vertex 3; row 2 holds vertices 1 to 2)"
        );
        assert_eq!(
            err(b"99\np edge 2 0\n"),
            "g.clq.b:1: the preamble is said to be 99 bytes, the file has 11 after this line"
        );
        assert_eq!(
            err(b"10\np edge 2 x"),
            "g.clq.b:2:10: 'x' is not a count (the number of edges)"
        );
        assert_eq!(
            err(b"17\np edge 2 1\ne 1 2\n\x80"),
            "g.clq.b:3:1: an edge line in a binary file's preamble (the edges are its bit matrix)"
        );
        assert_eq!(err(b"5\nc \xff\n\n"), "g.clq.b:2:3: not UTF-8 text");
    }
}
