//! An independent check of a packing as written to a solutions file: every
//! cell of the figure covered once, holes left empty, every piece used as
//! many times as the set has it, each in a legal orientation.

use super::figure::Figure;
use super::geometry::orientations;
use super::pieces::{Cell, PieceSet};

/// Reads a packing as `render` writes it into one label per box cell
/// (`None` for `.`).
pub fn parse_packing(text: &str, f: &Figure) -> Result<Vec<Option<char>>, String> {
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if rows.len() != f.h {
        return Err(format!("{} rows, expected {}", rows.len(), f.h));
    }
    let mut out = vec![None; f.w * f.h * f.d];
    for (y, row) in rows.iter().enumerate() {
        let layers: Vec<&str> = row.split(' ').collect();
        if layers.len() != f.d {
            return Err(format!(
                "row {} has {} layers, expected {}",
                y + 1,
                layers.len(),
                f.d
            ));
        }
        for (z, layer) in layers.iter().enumerate() {
            let chars: Vec<char> = layer.chars().collect();
            if chars.len() != f.w {
                return Err(format!(
                    "row {} layer {} has {} cells, expected {}",
                    y + 1,
                    z + 1,
                    chars.len(),
                    f.w
                ));
            }
            for (x, &ch) in chars.iter().enumerate() {
                out[x + f.w * (y + f.h * z)] = (ch != '.').then_some(ch);
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
        let shapes = orientations(&kind.cells, set.three_d);
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
}
