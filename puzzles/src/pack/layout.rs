//! Preparing an instance: check that the pieces can cover the figure,
//! reorder the figure's axes for the search, and list every placement.

use super::figure::Figure;
use super::pieces::{MAX_KINDS, PieceSet};
use super::placements;
use crate::PuzzleError;

/// The prepared instance, independent of the board size.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The pieces.
    pub set: PieceSet,
    /// The figure as the search sees it: the box of its cells, margins of
    /// holes cut off (so its symmetries are those of its set of cells,
    /// however it was written), axes reordered so the first is the
    /// shortest (the lowest-empty-cell scan then runs along the short side,
    /// which keeps the frontier narrow: 6x10 pentominoes visit five times
    /// fewer nodes scanned along the 6 than along the 10).
    pub figure: Figure,
    /// The figure as given, in which solutions are written.
    pub shown: Figure,
    /// Index in `figure` of each cell of `shown`'s box (`None`: a hole in
    /// a margin, outside the box of the cells).
    pub to_search: Vec<Option<usize>>,
    /// One character per kind for solution files.
    pub labels: Vec<char>,
    /// Every placement: its kind and its cells (box indices, ascending).
    pub placements: Vec<(u8, Vec<usize>)>,
}

/// The characters kinds are labelled with in solution files when their
/// names' first characters collide: 62, more than [`MAX_KINDS`].
const LABELS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const _: () = assert!(LABELS.len() >= MAX_KINDS);

/// One distinct character per kind: the first character of each name when
/// those are distinct, else the kinds in order through `LABELS` (A-Z, a-z, 0-9).
pub fn labels(set: &PieceSet) -> Vec<char> {
    let firsts: Vec<char> = set
        .kinds
        .iter()
        .map(|k| k.name.chars().next().unwrap_or('?'))
        .collect();
    if (0..firsts.len()).all(|i| !firsts[..i].contains(&firsts[i])) {
        firsts
    } else {
        LABELS.chars().take(set.kinds.len()).collect()
    }
}

impl Layout {
    /// Checks that the pieces can cover the figure and lists every placement.
    pub fn new(set: PieceSet, shown: Figure) -> Result<Layout, PuzzleError> {
        let (figure, at) = shown.cropped();
        let (need, have) = (figure.cells(), set.cells());
        if need != have {
            return Err(PuzzleError::Instance(format!(
                "pack: the figure {} has {need} cells but the pieces of {} cover {have}",
                figure.name, set.name
            )));
        }
        if figure.d > 1 && !set.three_d {
            return Err(PuzzleError::Instance(format!(
                "pack: the figure {} is three-dimensional but the pieces of {} are flat",
                figure.name, set.name
            )));
        }
        let labels = labels(&set);
        // Axis k of the search is axis order[k] of the cells' box; flat
        // pieces keep the z axis last.
        let dims = [figure.w, figure.h, figure.d];
        let mut order = [0usize, 1, 2];
        if set.three_d {
            order.sort_by_key(|&a| dims[a]);
        } else if figure.w > figure.h {
            order = [1, 0, 2];
        }
        let [w, h, d] = order.map(|a| dims[a]);
        let mut inner = Figure {
            name: figure.name.clone(),
            w,
            h,
            d,
            filled: vec![false; w * h * d],
        };
        let mut to_search = vec![None; shown.filled.len()];
        for (i, to) in to_search.iter_mut().enumerate() {
            let c = shown.coords(i);
            let c = [0, 1, 2].map(|k| c[k] - at[k] as i32);
            if figure.index(c[0], c[1], c[2]).is_none() {
                continue;
            }
            let j = inner
                .index(c[order[0]], c[order[1]], c[order[2]])
                .expect("same box");
            inner.filled[j] = shown.filled[i];
            *to = Some(j);
        }
        let figure = inner;
        let placements = placements::all(&set, &figure);
        Ok(Layout {
            set,
            figure,
            shown,
            to_search,
            labels,
            placements,
        })
    }

    /// Board words needed for the figure's bounding box.
    pub fn words(&self) -> usize {
        (self.figure.w * self.figure.h * self.figure.d).div_ceil(64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(pieces: &str, figure: Figure) -> Result<Layout, PuzzleError> {
        Layout::new(PieceSet::load(pieces).unwrap(), figure)
    }

    #[test]
    fn the_search_scans_along_the_short_side() {
        // Flat: the search's first axis is the figure's shorter one, z last.
        let l = layout("pentominoes", Figure::parse_box("10x6").unwrap()).unwrap();
        assert_eq!((l.figure.w, l.figure.h, l.figure.d), (6, 10, 1));
        assert_eq!((l.shown.w, l.shown.h), (10, 6));
        // Solid: the axes sorted by length.
        let solid = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/packing/solid-pentominoes.pieces"
        );
        let l = layout(solid, Figure::parse_box("10x3x2").unwrap()).unwrap();
        assert_eq!((l.figure.w, l.figure.h, l.figure.d), (2, 3, 10));
        assert_eq!(l.words(), 1);
        // Every cell of the figure as given maps to a cell of the search's,
        // one to one, filled alike.
        let mut seen = vec![false; l.figure.filled.len()];
        for (i, &j) in l.to_search.iter().enumerate() {
            let j = j.expect("a box has no margin");
            assert!(!seen[j]);
            seen[j] = true;
            assert_eq!(l.shown.filled[i], l.figure.filled[j]);
            let (a, b) = (l.shown.coords(i), l.figure.coords(j));
            assert_eq!([a[2], a[1], a[0]], b);
        }
    }

    #[test]
    fn margins_are_cut_off_and_map_to_nothing() {
        // The 3x3x3 cube with a column of holes on the left, one hole layer
        // in front and short rows: the search sees the tight cube.
        let text = "...\n...\n\n.###\n.###\n.###\n\n.###\n.###\n.###\n\n.###\n.###\n.###\n";
        let shown = Figure::parse(text, "margins.fig").unwrap();
        assert_eq!((shown.w, shown.h, shown.d), (4, 3, 4));
        let l = layout("soma", shown).unwrap();
        let tight = layout("soma", Figure::parse_box("3x3x3").unwrap()).unwrap();
        assert_eq!(l.figure.filled, tight.figure.filled);
        assert_eq!((l.figure.w, l.figure.h, l.figure.d), (3, 3, 3));
        assert_eq!(l.placements, tight.placements);
        for (i, j) in l.to_search.iter().enumerate() {
            let [x, _, z] = l.shown.coords(i);
            assert_eq!(j.is_some(), x > 0 && z > 0, "cell {i}");
        }
        // A flat figure written as two layers, the second all holes: flat.
        let two = Figure::parse("#####\n#####\n\n.....\n", "two.fig").unwrap();
        let set = "I 0,0 1,0 2,0 3,0 4,0\nI 0,0 1,0 2,0 3,0 4,0\n";
        let l = Layout::new(PieceSet::parse(set, "sticks").unwrap(), two).unwrap();
        assert_eq!(
            (l.figure.w, l.figure.h, l.figure.d, l.shown.d),
            (2, 5, 1, 2)
        );
    }

    #[test]
    fn pieces_must_cover_the_figure() {
        let err = |p: &str, f: &str| {
            layout(p, Figure::parse_box(f).unwrap())
                .unwrap_err()
                .to_string()
        };
        assert!(
            err("pentominoes", "8x8").contains("64 cells but the pieces of pentominoes cover 60")
        );
        assert!(err("pentominoes", "3x4x5").contains("flat"));
        assert!(layout("soma", Figure::parse_box("3x3x3").unwrap()).is_ok());
    }

    #[test]
    fn labels_are_first_letters_unless_they_collide() {
        let set = |t: &str| PieceSet::parse(t, "t").unwrap();
        assert_eq!(labels(&set("X 0,0\ny 0,0\n")), ['X', 'y']);
        assert_eq!(labels(&set("p1 0,0\np2 0,0\nq 0,0\n")), ['A', 'B', 'C']);
        let many: String = (0..MAX_KINDS).map(|i| format!("p{i} 0,0\n")).collect();
        let l = labels(&set(&many));
        assert_eq!(l.len(), MAX_KINDS);
        assert_eq!((l[25], l[26], l[31]), ('Z', 'a', 'f'));
    }
}
