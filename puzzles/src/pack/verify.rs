//! An independent check of a packing as written to a solutions file: every
//! cell of the figure covered once, holes left empty, every piece used as
//! many times as the set has it, each in a legal orientation. Its own
//! orientation code (signed permutations of the axes) keeps it independent
//! of the solver's `geometry`.

use super::figure::Figure;
use super::pieces::{Cell, PieceSet};
use super::solution::Solution;

/// Axis permutations with their parity (+1 even, -1 odd).
const PERMUTATIONS: [([usize; 3], i32); 6] = [
    ([0, 1, 2], 1),
    ([1, 2, 0], 1),
    ([2, 0, 1], 1),
    ([0, 2, 1], -1),
    ([1, 0, 2], -1),
    ([2, 1, 0], -1),
];

/// The shapes a piece may take, each translated to start at the origin and
/// sorted (so its first cell is its smallest): a solid piece under the 24
/// rotations of space (signed axis permutations of determinant +1), a flat
/// one under the 8 symmetries of the plane (z untouched).
fn legal_shapes(cells: &[Cell], three_d: bool) -> Vec<Vec<Cell>> {
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for (perm, parity) in PERMUTATIONS {
        for signs in 0..8 {
            let sign = |k: usize| if signs >> k & 1 == 1 { -1 } else { 1 };
            let det = parity * sign(0) * sign(1) * sign(2);
            let legal = if three_d {
                det == 1
            } else {
                perm[2] == 2 && sign(2) == 1
            };
            if !legal {
                continue;
            }
            let moved: Vec<Cell> = cells
                .iter()
                .map(|c| [0, 1, 2].map(|k| sign(k) * c[perm[k]]))
                .collect();
            let low = [0, 1, 2].map(|k| moved.iter().map(|c| c[k]).min().unwrap_or(0));
            let mut shape: Vec<Cell> = moved
                .iter()
                .map(|c| [0, 1, 2].map(|k| c[k] - low[k]))
                .collect();
            shape.sort_unstable();
            if !out.contains(&shape) {
                out.push(shape);
            }
        }
    }
    out
}

/// Reads a packing as `render` writes it into one label per box cell
/// (`None` for `.`), with the shared parser.
pub fn parse_packing(text: &str, f: &Figure) -> Result<Vec<Option<char>>, String> {
    let s = Solution::parse(text).map_err(|e| e.to_string())?;
    if s.size() != (f.w, f.h, f.d) {
        let (w, h, d) = s.size();
        return Err(format!(
            "a {w}x{h}x{d} packing, expected {}x{}x{}",
            f.w, f.h, f.d
        ));
    }
    let mut out = vec![None; f.w * f.h * f.d];
    for (z, layer) in s.layers.iter().enumerate() {
        for (y, row) in layer.iter().enumerate() {
            for (x, &label) in row.iter().enumerate() {
                out[x + f.w * (y + f.h * z)] = label;
            }
        }
    }
    Ok(out)
}

/// Checks a packing given as one label per box cell; `labels[k]` is kind k's label.
pub fn verify(
    set: &PieceSet,
    labels: &[char],
    f: &Figure,
    cells: &[Option<char>],
) -> Result<(), String> {
    for (i, (&filled, label)) in f.filled.iter().zip(cells).enumerate() {
        match (filled, label) {
            (true, None) => {
                return Err(format!(
                    "cell {:?} of the figure is not covered",
                    f.coords(i)
                ));
            }
            (false, Some(_)) => return Err(format!("hole {:?} is covered", f.coords(i))),
            _ => {}
        }
    }
    for (k, kind) in set.kinds.iter().enumerate() {
        let label = labels[k];
        let mine: Vec<Cell> = (0..cells.len())
            .filter(|&i| cells[i] == Some(label))
            .map(|i| f.coords(i))
            .collect();
        if mine.len() != kind.cells.len() * kind.copies as usize {
            return Err(format!(
                "piece {} covers {} cells, expected {}",
                kind.name,
                mine.len(),
                kind.cells.len() * kind.copies as usize
            ));
        }
        let shapes = legal_shapes(&kind.cells, set.three_d);
        if !split_into(&mine, &shapes, kind.copies as usize) {
            return Err(format!(
                "the cells labelled {label} are not {} legal placements of piece {}",
                kind.copies, kind.name
            ));
        }
    }
    if let Some(&Some(bad)) = cells
        .iter()
        .find(|c| c.is_some_and(|ch| !labels.contains(&ch)))
    {
        return Err(format!("unknown piece label '{bad}'"));
    }
    Ok(())
}

/// Whether `cells` split into `copies` pieces, each one of `shapes` translated.
fn split_into(cells: &[Cell], shapes: &[Vec<Cell>], copies: usize) -> bool {
    if copies == 0 {
        return cells.is_empty();
    }
    let first = *cells.iter().min().expect("a piece has cells");
    shapes.iter().any(|shape| {
        // The shape's smallest cell must sit on the smallest remaining cell.
        let anchor = shape[0];
        let placed: Vec<Cell> = shape
            .iter()
            .map(|c| [0, 1, 2].map(|k| c[k] - anchor[k] + first[k]))
            .collect();
        if !placed.iter().all(|c| cells.contains(c)) {
            return false;
        }
        let rest: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|c| !placed.contains(c))
            .collect();
        split_into(&rest, shapes, copies - 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catches_bad_packings() {
        let set = PieceSet::parse("A 0,0 1,0\nB 0,0 0,1\n", "t").unwrap();
        let f = Figure::parse_box("2x2").unwrap();
        let labels = ['A', 'B'];
        let good = parse_packing("AA\nBB", &f).unwrap();
        // B is the vertical domino, but as the set allows turning, horizontal is legal too.
        verify(&set, &labels, &f, &good).unwrap();
        let bad = parse_packing("AB\nAB", &f).unwrap();
        verify(&set, &labels, &f, &bad).unwrap();
        let missing = parse_packing("AA\nB.", &f).unwrap();
        assert!(
            verify(&set, &labels, &f, &missing)
                .unwrap_err()
                .contains("not covered")
        );
        let wrong = parse_packing("AA\nAB", &f).unwrap();
        assert!(verify(&set, &labels, &f, &wrong).is_err());
        assert!(parse_packing("AA", &f).is_err());
    }

    #[test]
    fn orientation_counts() {
        // The L tetromino: 8 shapes flat; the solid screw (Soma's chiral
        // piece): 12 rotations, its mirror image not among them.
        assert_eq!(
            legal_shapes(&[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]], false).len(),
            8
        );
        let screw = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]];
        let mirror = [[1, 0, 0], [0, 0, 0], [0, 1, 0], [0, 1, 1]];
        let shapes = legal_shapes(&screw, true);
        assert_eq!(shapes.len(), 12);
        assert!(!shapes.contains(&legal_shapes(&mirror, true)[0]));
    }

    /// A solid piece may be rotated but not mirrored: a figure that is the
    /// screw's mirror image is not a legal packing of the screw.
    #[test]
    fn a_mirrored_solid_piece_is_rejected() {
        let set = PieceSet::parse("S 0,0,0 1,0,0 1,1,0 1,1,1\n", "screw").unwrap();
        let figure = |cells: &[Cell]| {
            let mut f = Figure::parse_box("2x2x2").unwrap();
            f.filled = (0..8).map(|i| cells.contains(&f.coords(i))).collect();
            f
        };
        let label = |f: &Figure| -> Vec<Option<char>> {
            f.filled.iter().map(|&x| x.then_some('S')).collect()
        };
        let turned = figure(&[[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 1, 1]]);
        verify(&set, &['S'], &turned, &label(&turned)).unwrap();
        let mirrored = figure(&[[1, 0, 0], [0, 0, 0], [0, 1, 0], [0, 1, 1]]);
        let err = verify(&set, &['S'], &mirrored, &label(&mirrored)).unwrap_err();
        assert!(err.contains("not 1 legal placements of piece S"), "{err}");
        // Flat pieces may be turned over: the mirrored L tetromino is legal.
        let set = PieceSet::parse("L 0,0 1,0 2,0 2,1\n", "L").unwrap();
        let f = Figure::parse_box("3x2").unwrap();
        let cells = parse_packing("L..\nLLL", &f).unwrap();
        let mut f = f;
        f.filled = cells.iter().map(Option::is_some).collect();
        verify(&set, &['L'], &f, &cells).unwrap();
    }
}
