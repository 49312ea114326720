//! Hitori: shade cells of a grid of numbers so that
//!
//! 1. no number appears twice among the unshaded cells of a row or column;
//! 2. shaded cells never touch horizontally or vertically;
//! 3. the unshaded cells form one orthogonally connected region;
//! 4. every shaded cell hides a duplicate: a cell with its number in its row
//!    or column is unshaded.
//!
//! The search reasons rather than enumerates: the opening rules of the
//! seed (`rules`) decide cells from the numbers alone, and after every
//! decision the propagation of `solver` runs to a fixpoint, with
//! connectivity reasoning. A node is a propagated partial shading; its two
//! children shade and unshade the most constrained unknown cell (each
//! propagated, dead ones dropped). A node with no unknown cell left is a
//! solution.
//!
//! `grade` names the weakest rule set that solves a grid without search
//! (easy, hard, or needs search), and `generate` makes puzzles at a chosen
//! difficulty; `README.md` beside this file shows each rule set.

pub mod generate;
pub mod grade;
pub mod grid;
pub(crate) mod rules;
pub mod solution;
pub(crate) mod solver;
pub mod verify;

use grid::Grid;
use hysolve::advanced::input::{InputError, MAX_INPUT_BYTES, read_text};
use hysolve::{Mode, ScratchTree};
use solver::{BLACK, Layout, Scratch, Shading, UNKNOWN, WHITE};
use std::path::Path;

/// A Hitori instance, ready to search.
#[derive(Debug, Clone)]
pub struct Hitori {
    name: String,
    grid: Grid,
    layout: Layout,
    /// The opening position, propagated; `None` when it is already contradictory.
    root: Option<Shading>,
}

impl Hitori {
    /// Prepares `grid` (named `name` in reports): peer lists, the opening
    /// rules and a first propagation.
    pub fn new(grid: Grid, name: impl Into<String>) -> Hitori {
        let layout = Layout::new(&grid);
        let mut opening = rules::opening(&grid);
        // A cell without peers can never hide a duplicate: it is white.
        opening.extend(
            (0..grid.len())
                .filter(|&i| layout.peers(i).is_empty())
                .map(|i| (i, WHITE)),
        );
        let mut root = layout.blank();
        let root = layout
            .decide(&mut root, &opening, true, &mut Scratch::default())
            .ok()
            .map(|()| root);
        Hitori {
            name: name.into(),
            grid,
            layout,
            root,
        }
    }

    /// Reads a puzzle file (errors name its line and column).
    pub fn from_file(path: &Path) -> Result<Hitori, InputError> {
        let text = read_text(path, MAX_INPUT_BYTES)?;
        let name = path.display().to_string();
        let grid = Grid::parse(&text, &name)?;
        let short = path
            .file_name()
            .map_or_else(|| name.clone(), |n| n.to_string_lossy().into_owned());
        Ok(Hitori::new(grid, short))
    }

    /// The grid this instance solves.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }
}

/// Renders shaded cells as `#`, unshaded as `.`, one row per line.
fn render_cells(cells: &[u8], cols: usize, out: &mut String) {
    for (r, row) in cells.chunks(cols).enumerate() {
        if r > 0 {
            out.push('\n');
        }
        out.extend(row.iter().map(|&c| match c {
            BLACK => '#',
            UNKNOWN => '?',
            _ => '.',
        }));
    }
}

impl ScratchTree for Hitori {
    type Node = Option<Shading>;
    /// The buffers of the propagation.
    type Scratch = Scratch;

    fn name(&self) -> &'static str {
        "hitori"
    }

    fn instance(&self) -> String {
        format!("{} ({}x{})", self.name, self.grid.rows, self.grid.cols)
    }

    fn root(&self) -> Self::Node {
        self.root.clone()
    }

    fn scratch(&self, _: Mode) -> Scratch {
        Scratch::default()
    }

    /// The shadings that decide the first undecided cell `s` branches on,
    /// black first, each propagated (in the buffers `sc`); none where
    /// propagation fails.
    fn children(&self, node: &Self::Node, out: &mut Vec<Self::Node>, sc: &mut Scratch) {
        let Some(s) = node else { return };
        let Some(cell) = self.layout.branch_cell(s) else {
            return;
        };
        for colour in [BLACK, WHITE] {
            let mut child = s.clone();
            if self
                .layout
                .decide(&mut child, &[(cell, colour)], false, sc)
                .is_ok()
            {
                out.push(Some(child));
            }
        }
    }

    fn solution_weight(&self, node: &Self::Node, _: &Scratch) -> u64 {
        node.as_ref().is_some_and(|s| s.unknown == 0) as u64
    }

    fn render(&self, node: &Self::Node, out: &mut String) {
        if let Some(s) = node {
            render_cells(&s.cells, self.grid.cols, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hysolve::Mode;
    use hysolve::advanced::sequential;

    const FIVE: &str = "4 3 2 4 2\n1 4 3 3 2\n4 1 5 1 3\n3 2 4 5 2\n1 5 1 3 1\n";
    const FIVE_SOLUTION: &str = "#...#\n...#.\n.#...\n....#\n#.#..";

    #[test]
    fn solves_the_seed_five_by_five() {
        let h = Hitori::new(Grid::parse(FIVE, "t").unwrap(), "five");
        let (counters, found) = sequential(&h, Mode::Unique);
        assert_eq!(found, vec![FIVE_SOLUTION.to_owned()]);
        assert_eq!(counters.solutions, 1);
        let shaded = verify::parse_solution(&found[0], 5, 5).unwrap();
        verify::verify(h.grid(), &shaded).unwrap();
    }

    #[test]
    fn contradictory_opening_has_no_solution() {
        // Each row and column keeps one white 1: the whites sit on a diagonal, apart.
        let h = Hitori::new(Grid::parse("1 1\n1 1", "t").unwrap(), "x");
        assert!(h.root.is_none());
        assert_eq!(sequential(&h, Mode::Count).0.solutions, 0);
    }

    #[test]
    fn one_cell_grid_is_one_solution() {
        let h = Hitori::new(Grid::parse("7", "t").unwrap(), "one");
        let (_, found) = sequential(&h, Mode::All);
        assert_eq!(found, vec![".".to_owned()]);
    }
}
