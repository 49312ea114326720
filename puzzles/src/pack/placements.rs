//! Placement generation: every piece in every orientation at every
//! position where all its cells fall on cells of the figure.

use super::figure::Figure;
use super::geometry;
use super::pieces::PieceSet;

/// Every placement of `set` in `figure`, kind by kind (so the placements
/// of one kind are consecutive, which the search's runs rely on), each as
/// its kind and its cells (box indices, ascending).
pub(super) fn all(set: &PieceSet, figure: &Figure) -> Vec<(u8, Vec<usize>)> {
    let mut placements = Vec::new();
    for (k, kind) in set.kinds.iter().enumerate() {
        for shape in geometry::orientations(&kind.cells, set.three_d) {
            let ext = [0, 1, 2].map(|a| shape.iter().map(|c| c[a]).max().unwrap_or(0));
            for z in 0..figure.d as i32 - ext[2] {
                for y in 0..figure.h as i32 - ext[1] {
                    for x in 0..figure.w as i32 - ext[0] {
                        let cells: Option<Vec<usize>> = shape
                            .iter()
                            .map(|c| {
                                figure
                                    .index(c[0] + x, c[1] + y, c[2] + z)
                                    .filter(|&i| figure.filled[i])
                            })
                            .collect();
                        if let Some(mut cells) = cells {
                            cells.sort_unstable();
                            placements.push((k as u8, cells));
                        }
                    }
                }
            }
        }
    }
    placements
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(pieces: &str, figure: &str) -> usize {
        let set = PieceSet::parse(pieces, "t").unwrap();
        let figure = Figure::parse_box(figure)
            .or_else(|_| Figure::parse(figure, "f").map_err(|e| e.to_string()))
            .unwrap();
        all(&set, &figure).len()
    }

    #[test]
    fn counts_by_hand() {
        // A monomino: one per cell; a domino on a w x h board:
        // (w - 1) h across and w (h - 1) down.
        assert_eq!(count("M 0,0\n", "5x3"), 15);
        assert_eq!(count("D 0,0 1,0\n", "5x3"), 4 * 3 + 5 * 2);
        // The V tricube in a 3x3x3 box: 3 planes, 4 turns in each, 2x2x3
        // positions of its 2x2 square.
        assert_eq!(count("V 0,0,0 1,0,0 0,1,0\n", "3x3x3"), 3 * 4 * 12);
        // Holes: a domino on a ring of 8 cells, 8 ways.
        assert_eq!(count("D 0,0 1,0\n", "###\n#.#\n###\n"), 8);
    }

    #[test]
    fn kinds_in_order_cells_ascending_inside_the_figure() {
        let set = PieceSet::load("pentominoes").unwrap();
        let figure = Figure::load("8x8-hole").unwrap();
        let list = all(&set, &figure);
        assert!(list.windows(2).all(|p| p[0].0 <= p[1].0));
        for (k, cells) in &list {
            assert_eq!(cells.len(), set.kinds[*k as usize].cells.len());
            assert!(cells.windows(2).all(|c| c[0] < c[1]));
            assert!(cells.iter().all(|&c| figure.filled[c]));
        }
        // Every kind has a placement, none twice.
        let mut sorted = list.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), list.len());
        assert!((0..12).all(|k| list.iter().any(|p| p.0 == k)));
    }
}
