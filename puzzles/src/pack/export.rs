//! A packing written as an exact-cover problem in Knuth's DLX format
//! (`hysolve pack ... --export-xc FILE`), so that `hysolve xc` and the
//! packing solver can check each other: one primary item per piece (its
//! label) and per cell of the figure (`x.y`, or `x.y.z` in 3D, as the
//! figure is given), one option per placement.

use super::Layout;
use crate::PuzzleError;
use crate::xc::format::MAX_NAME;
use std::fmt::Write;

/// The problem in DLX format, or why it cannot be written: a piece used
/// more than once (the format has no multiplicities) or a figure so large
/// that cell names pass [`MAX_NAME`] characters.
pub fn export_xc(layout: &Layout) -> Result<String, PuzzleError> {
    if let Some(k) = layout.set.kinds.iter().find(|k| k.copies > 1) {
        return Err(PuzzleError::Instance(format!(
            "pack: cannot export {} as exact cover: piece {} is used {} times, and the format has one item per piece",
            layout.set.name, k.name, k.copies
        )));
    }
    if let Some(l) = layout.labels.iter().find(|&&l| l == ':' || l == '|') {
        return Err(PuzzleError::Instance(format!(
            "pack: cannot export {} as exact cover: a piece is labelled '{l}', which the format forbids in names",
            layout.set.name
        )));
    }
    let shown = &layout.shown;
    let name = |i: usize| {
        let [x, y, z] = shown.coords(i);
        if shown.d > 1 {
            format!("{x}.{y}.{z}")
        } else {
            format!("{x}.{y}")
        }
    };
    let cells: Vec<usize> = (0..shown.filled.len())
        .filter(|&i| shown.filled[i])
        .collect();
    if let Some(long) = cells.iter().map(|&i| name(i)).find(|n| n.len() > MAX_NAME) {
        return Err(PuzzleError::Instance(format!(
            "pack: cannot export {} as exact cover: cell name {long} is longer than {MAX_NAME} characters",
            shown.name
        )));
    }
    // The placements name cells of the search's figure; the file, those of
    // the figure as given.
    let mut to_shown = vec![0; layout.figure.filled.len()];
    for (i, &j) in layout.to_search.iter().enumerate() {
        if let Some(j) = j {
            to_shown[j] = i;
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| {} on {}, written by hysolve pack --export-xc: one item per piece and per cell,",
        layout.set.name, shown.name
    );
    let _ = writeln!(out, "| one option per placement of a piece");
    let items: Vec<String> = layout
        .labels
        .iter()
        .map(|l| l.to_string())
        .chain(cells.iter().map(|&i| name(i)))
        .collect();
    let _ = writeln!(out, "{}", items.join(" "));
    for (kind, cells) in &layout.placements {
        let mut shown_cells: Vec<usize> = cells.iter().map(|&c| to_shown[c]).collect();
        shown_cells.sort_unstable();
        out.push(layout.labels[*kind as usize]);
        for c in shown_cells {
            out.push(' ');
            out.push_str(&name(c));
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::figure::Figure;
    use super::super::pieces::PieceSet;
    use super::super::test_layout;
    use super::*;

    /// One item per piece and per cell of the figure as given (10 wide, 6
    /// high), one option per placement: its piece's label and five cells.
    #[test]
    fn one_item_per_piece_and_cell_one_option_per_placement() {
        let layout = test_layout("pentominoes", "10x6");
        let text = export_xc(&layout).unwrap();
        let mut lines = text.lines().filter(|l| !l.starts_with('|'));
        let items: Vec<&str> = lines.next().unwrap().split(' ').collect();
        assert_eq!(items.len(), 12 + 60);
        let options: Vec<&str> = lines.collect();
        assert_eq!(options.len(), layout.placements.len());
        for option in options {
            let names: Vec<&str> = option.split(' ').collect();
            assert_eq!(names.len(), 6, "{option}");
            assert!(items[..12].contains(&names[0]), "{option}");
            for cell in &names[1..] {
                let (x, y) = cell.split_once('.').unwrap();
                let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
                assert!(x < 10 && y < 6, "{option}");
                assert!(items[12..].contains(cell), "{option}");
            }
        }
    }

    #[test]
    fn a_piece_used_twice_is_refused() {
        let set = PieceSet::parse("I 0,0 1,0\nI 0,0 1,0\n", "dominoes").unwrap();
        let layout = Layout::new(set, Figure::parse_box("2x2").unwrap()).unwrap();
        let e = export_xc(&layout).unwrap_err().to_string();
        assert!(e.contains("piece I is used 2 times"), "{e}");
    }
}
