//! Piece sets: the `.pieces` format and the built-in sets.
//!
//! Format: `#` starts a comment line; one piece per line: a name, then its
//! cells as `x,y` (2D: the piece may be turned over, 8 orientations) or
//! `x,y,z` (3D: rotations only, 24 orientations). Pieces with the same name
//! are copies of one piece (Double Soma): a solution is counted once
//! whichever copy goes where.

use hysolve::advanced::input::{InputError, MAX_INPUT_BYTES, read_text, words};
use std::path::Path;

/// The most piece kinds and the most pieces in all.
pub const MAX_KINDS: usize = 32;
/// The most pieces a set may have.
pub const MAX_PIECES: usize = 64;
/// The most cells in one piece.
pub const MAX_PIECE_CELLS: usize = 64;

/// A cell of a piece or a figure.
pub type Cell = [i32; 3];

/// One kind of piece: its shape and how many copies the set has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kind {
    /// The piece's name.
    pub name: String,
    /// Its cells.
    pub cells: Vec<Cell>,
    /// How many copies the set has.
    pub copies: u8,
}

/// A piece set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceSet {
    /// The piece's name.
    pub name: String,
    /// Its kinds of piece.
    pub kinds: Vec<Kind>,
    /// 3D pieces rotate only; 2D pieces may also be turned over.
    pub three_d: bool,
}

/// The built-in sets: name, description, file text.
pub const BUILT_IN: [(&str, &str, &str); 6] = [
    (
        "iqfit",
        "the 12 pieces of the 11x5 IQ Fit / Kanoodle board, 55 cells",
        include_str!("sets/iqfit-11x5.pieces"),
    ),
    (
        "pentominoes",
        "the 12 pentominoes, 60 cells",
        include_str!("sets/pentominoes.pieces"),
    ),
    (
        "soma",
        "Piet Hein's Soma cube, 7 pieces, 27 cells",
        include_str!("sets/soma.pieces"),
    ),
    (
        "double-soma",
        "two of each Soma piece, 14 pieces, 54 cells",
        "",
    ),
    (
        "bedlam",
        "the Bedlam cube, 13 pieces, 64 cells",
        include_str!("sets/bedlam.pieces"),
    ),
    (
        "soma-plus",
        "SOMA+Plus: the Soma pieces and D, I, Q, S, every polycube of 2 to 4 cubes, 11 pieces, 40 cells",
        include_str!("sets/soma-plus.pieces"),
    ),
];

impl PieceSet {
    /// A built-in set by name, or a `.pieces` file.
    pub fn load(spec: &str) -> Result<PieceSet, InputError> {
        if let Some(&(name, _, text)) = BUILT_IN.iter().find(|(n, _, _)| *n == spec) {
            if name == "double-soma" {
                let soma = BUILT_IN[2].2;
                let mut set = PieceSet::parse(&format!("{soma}\n{soma}"), "double-soma")?;
                set.name = name.to_owned();
                return Ok(set);
            }
            let mut set = PieceSet::parse(text, name)?;
            set.name = name.to_owned();
            return Ok(set);
        }
        let path = Path::new(spec);
        if !path.exists() && !spec.contains('/') && !spec.contains('.') {
            let names: Vec<&str> = BUILT_IN.iter().map(|(n, _, _)| *n).collect();
            return Err(InputError::file(
                spec,
                format!(
                    "no such piece set (built-in: {}) and no such file",
                    names.join(", ")
                ),
            ));
        }
        let text = read_text(path, MAX_INPUT_BYTES)?;
        PieceSet::parse(&text, spec)
    }

    /// Parses a `.pieces` text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<PieceSet, InputError> {
        let mut kinds: Vec<Kind> = Vec::new();
        let mut dims: Option<(usize, usize)> = None; // (coordinates per cell, line)
        let mut pieces = 0;
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let mut ws = words(line);
            let (_, name) = ws.next().expect("a non-blank line has a word");
            if name.len() > 16
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return Err(InputError::at(
                    file,
                    line_no,
                    1,
                    format!("piece name '{name}': use up to 16 letters, digits, '-' or '_'"),
                ));
            }
            let mut cells: Vec<Cell> = Vec::new();
            for (col, word) in ws {
                let coords: Vec<&str> = word.split(',').collect();
                if coords.len() != 2 && coords.len() != 3 {
                    return Err(InputError::at(
                        file,
                        line_no,
                        col,
                        format!("cell '{word}': expected x,y or x,y,z"),
                    ));
                }
                match dims {
                    None => dims = Some((coords.len(), line_no)),
                    Some((d, first)) if d != coords.len() => {
                        return Err(InputError::at(
                            file,
                            line_no,
                            col,
                            format!(
                                "cell '{word}' has {} coordinates, the cells on line {first} have {d}",
                                coords.len()
                            ),
                        ));
                    }
                    _ => {}
                }
                let mut cell = [0i32; 3];
                for (k, c) in coords.iter().enumerate() {
                    cell[k] = c
                        .parse::<i32>()
                        .ok()
                        .filter(|v| v.abs() <= 1000)
                        .ok_or_else(|| {
                            InputError::at(
                                file,
                                line_no,
                                col,
                                format!(
                                    "cell '{word}': coordinates are integers from -1000 to 1000"
                                ),
                            )
                        })?;
                }
                if cells.contains(&cell) {
                    return Err(InputError::at(
                        file,
                        line_no,
                        col,
                        format!("cell '{word}' is listed twice"),
                    ));
                }
                cells.push(cell);
                if cells.len() > MAX_PIECE_CELLS {
                    return Err(InputError::at(
                        file,
                        line_no,
                        col,
                        format!("more than {MAX_PIECE_CELLS} cells in one piece"),
                    ));
                }
            }
            if cells.is_empty() {
                return Err(InputError::at(
                    file,
                    line_no,
                    line.trim_end().chars().count() + 1,
                    format!("piece '{name}' has no cells"),
                ));
            }
            if !connected(&cells) {
                return Err(InputError::line(
                    file,
                    line_no,
                    format!("piece '{name}' is not connected"),
                ));
            }
            pieces += 1;
            if pieces > MAX_PIECES {
                return Err(InputError::line(
                    file,
                    line_no,
                    format!("more than {MAX_PIECES} pieces"),
                ));
            }
            match kinds.iter_mut().find(|k| k.name == name) {
                Some(kind) if same_shape(&kind.cells, &cells) => kind.copies += 1,
                Some(_) => {
                    return Err(InputError::at(
                        file,
                        line_no,
                        1,
                        format!("piece '{name}' is listed again with another shape"),
                    ));
                }
                None => {
                    if kinds.len() == MAX_KINDS {
                        return Err(InputError::line(
                            file,
                            line_no,
                            format!("more than {MAX_KINDS} kinds of piece"),
                        ));
                    }
                    kinds.push(Kind {
                        name: name.to_owned(),
                        cells,
                        copies: 1,
                    });
                }
            }
        }
        if kinds.is_empty() {
            return Err(InputError::file(file, "no pieces in the set"));
        }
        Ok(PieceSet {
            name: Path::new(file)
                .file_stem()
                .map_or(file.to_owned(), |s| s.to_string_lossy().into_owned()),
            kinds,
            three_d: dims.is_some_and(|(d, _)| d == 3),
        })
    }

    /// Cells of all pieces together.
    pub fn cells(&self) -> usize {
        self.kinds
            .iter()
            .map(|k| k.cells.len() * k.copies as usize)
            .sum()
    }
}

fn same_shape(a: &[Cell], b: &[Cell]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Whether the cells are face-connected.
fn connected(cells: &[Cell]) -> bool {
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for (j, c) in cells.iter().enumerate() {
            let d: i32 = (0..3).map(|k| (c[k] - cells[i][k]).abs()).sum();
            if d == 1 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|&s| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_sets_load() {
        let cells = |n: &str| PieceSet::load(n).unwrap().cells();
        assert_eq!(cells("iqfit"), 55);
        assert_eq!(cells("pentominoes"), 60);
        assert_eq!(cells("soma"), 27);
        assert_eq!(cells("double-soma"), 54);
        assert_eq!(cells("bedlam"), 64);
        assert_eq!(cells("soma-plus"), 40);
        let ds = PieceSet::load("double-soma").unwrap();
        assert_eq!(ds.kinds.len(), 7);
        assert!(ds.kinds.iter().all(|k| k.copies == 2) && ds.three_d);
        assert!(!PieceSet::load("pentominoes").unwrap().three_d);
    }

    #[test]
    fn bad_sets_name_line_and_column() {
        let err = |t: &str| PieceSet::parse(t, "p.pieces").unwrap_err().to_string();
        assert_eq!(err("# nothing\n"), "p.pieces: no pieces in the set");
        assert_eq!(
            err("A 0,0 1\n"),
            "p.pieces:1:7: cell '1': expected x,y or x,y,z"
        );
        assert_eq!(
            err("A 0,0 1,x\n"),
            "p.pieces:1:7: cell '1,x': coordinates are integers from -1000 to 1000"
        );
        assert_eq!(
            err("A 0,0 0,0\n"),
            "p.pieces:1:7: cell '0,0' is listed twice"
        );
        assert_eq!(err("A 0,0 2,0\n"), "p.pieces:1: piece 'A' is not connected");
        assert_eq!(
            err("A 0,0\nB 0,0,0\n"),
            "p.pieces:2:3: cell '0,0,0' has 3 coordinates, the cells on line 1 have 2"
        );
        assert_eq!(err("A\n"), "p.pieces:1:2: piece 'A' has no cells");
        assert_eq!(
            err("A 0,0\nA 0,0 1,0\n"),
            "p.pieces:2:1: piece 'A' is listed again with another shape"
        );
        assert!(
            PieceSet::load("hexominoes")
                .unwrap_err()
                .to_string()
                .contains("built-in: iqfit")
        );
    }

    #[test]
    fn soma_plus_is_every_polycube_of_two_to_four_cubes() {
        let plus = PieceSet::load("soma-plus").unwrap();
        let soma = PieceSet::load("soma").unwrap();
        assert_eq!(plus.kinds.len(), 11);
        assert!(plus.three_d && plus.kinds.iter().all(|k| k.copies == 1));
        // The Soma pieces, in order, the chiral pair named in capitals.
        for (p, s) in plus.kinds.iter().zip(&soma.kinds) {
            assert_eq!(
                (p.name.to_lowercase(), &p.cells),
                (s.name.to_lowercase(), &s.cells)
            );
        }
        // 1 dicube, 2 tricubes and 8 tetracubes (the mirror pair counted
        // twice), none the same shape as another under rotation.
        let sizes: Vec<usize> = plus.kinds.iter().map(|k| k.cells.len()).collect();
        assert_eq!(sizes.iter().filter(|&&n| n == 2).count(), 1);
        assert_eq!(sizes.iter().filter(|&&n| n == 3).count(), 2);
        assert_eq!(sizes.iter().filter(|&&n| n == 4).count(), 8);
        for (i, a) in plus.kinds.iter().enumerate() {
            for b in &plus.kinds[..i] {
                let turns = super::super::geometry::orientations(&b.cells, true);
                let a = super::super::geometry::normalize(&a.cells);
                assert!(!turns.contains(&a), "{:?} is a turn of {}", a, b.name);
            }
        }
    }
}
