//! How hard a puzzle is for a person: the weakest rule set that solves it
//! without search (`README.md` beside this file names and shows each).
//!
//! - **easy**: the opening patterns (`rules.rs`) and the propagation of
//!   `solver.rs` to a fixpoint: a shaded cell's neighbours are white; a
//!   white cell's same-number line-mates are shaded; a cell none of whose
//!   line-mates can stay white is white; a shaded cell with one possible
//!   white line-mate left whitens it; a cell whose shading would cut the
//!   white cells apart is white.
//! - **hard**: easy, and look-ahead by contradiction: a cell whose shading
//!   (or whitening), followed by the easy rules alone, ends in a
//!   contradiction takes the other colour. One assumption at a time,
//!   never nested: this is not search.
//! - **needs search**: neither decides every cell.
//!
//! Every rule is a consequence of the puzzle's rules, so a grid the rules
//! decide has exactly one solution, the one decided.

use super::grid::Grid;
use super::rules;
use super::solver::{BLACK, Layout, Scratch, Shading, UNKNOWN, WHITE};
use serde::Serialize;
use std::fmt;

/// The rule sets, from the weakest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// The easy rules alone.
    Easy,
    /// The easy rules and look-ahead by contradiction.
    Hard,
}

impl Difficulty {
    /// Its name, as `--difficulty` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Hard => "hard",
        }
    }
}

impl std::str::FromStr for Difficulty {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "easy" => Ok(Difficulty::Easy),
            "hard" => Ok(Difficulty::Hard),
            other => Err(format!(
                "unknown difficulty '{other}' (expected easy or hard)"
            )),
        }
    }
}

/// What grading found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// Solved by a rule set: the weakest that does.
    Solved(Difficulty),
    /// Neither rule set decides every cell.
    NeedsSearch,
    /// The rules meet a contradiction: the grid has no solution.
    NoSolution,
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Grade::Solved(d) => d.as_str(),
            Grade::NeedsSearch => "needs search",
            Grade::NoSolution => "no solution",
        })
    }
}

/// A grading: the grade and the deductions made on the way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The weakest rule set that decides the grid, or why none does.
    pub grade: Grade,
    /// Cells decided by the easy rules (before look-ahead, and after
    /// each of its deductions).
    pub easy: usize,
    /// Cells decided by look-ahead (each one contradiction found).
    pub lookahead: usize,
    /// Those cells, in the order they were decided: (cell, shaded).
    pub lookahead_cells: Vec<(usize, bool)>,
    /// Cells neither decided.
    pub undecided: usize,
    /// The shading the rules reached (`true` = shaded), when they decided
    /// every cell.
    #[serde(skip)]
    pub solution: Option<Vec<bool>>,
}

impl Report {
    /// Every cell the rules decided.
    pub fn deductions(&self) -> usize {
        self.easy + self.lookahead
    }
}

/// The grid's fixed structure and the easy fixpoint from its opening.
struct Grader {
    layout: Layout,
    sc: Scratch,
}

impl Grader {
    fn new(grid: &Grid) -> Grader {
        Grader {
            layout: Layout::new(grid),
            sc: Scratch::default(),
        }
    }

    /// The easy rules from nothing: the opening patterns (and the cells
    /// with no line-mate of their number, which no rule can shade), then
    /// propagation. `None`: a contradiction.
    fn easy(&mut self, grid: &Grid) -> Option<Shading> {
        let mut opening = rules::opening(grid);
        opening.extend(
            (0..grid.len())
                .filter(|&i| self.layout.peers(i).is_empty())
                .map(|i| (i, WHITE)),
        );
        let mut s = self.layout.blank();
        self.layout
            .decide(&mut s, &opening, true, &mut self.sc)
            .ok()
            .map(|()| s)
    }

    /// One sweep of look-ahead over the undecided cells of `s`, each
    /// decided cell followed by the easy rules. Returns the cells decided
    /// by look-ahead, or `None` on a contradiction (no solution).
    fn lookahead(&mut self, s: &mut Shading, cells: &mut Vec<(usize, bool)>) -> Option<usize> {
        let mut found = 0;
        let mut trial = s.clone();
        for i in 0..s.cells.len() {
            if s.cells[i] != UNKNOWN {
                continue;
            }
            for (assumed, other) in [(BLACK, WHITE), (WHITE, BLACK)] {
                trial.clone_from(s);
                if self
                    .layout
                    .decide(&mut trial, &[(i, assumed)], false, &mut self.sc)
                    .is_ok()
                {
                    continue;
                }
                // The assumption fails: the cell takes the other colour.
                self.layout
                    .decide(s, &[(i, other)], false, &mut self.sc)
                    .ok()?;
                cells.push((i, other == BLACK));
                found += 1;
                break;
            }
        }
        Some(found)
    }
}

/// Grades `grid`: the easy rules to their fixpoint; then, while cells are
/// left, look-ahead sweeps (each deduction followed by the easy rules)
/// until one decides nothing more.
pub fn grade(grid: &Grid) -> Report {
    grade_up_to(grid, Difficulty::Hard)
}

/// Grades `grid` with the rule sets up to `most` only (`Easy`: the easy
/// rules alone: `NeedsSearch` where they leave cells).
pub fn grade_up_to(grid: &Grid, most: Difficulty) -> Report {
    graded(grid, most).0
}

/// [`grade_up_to`], and the cells as the rules left them ([`UNKNOWN`],
/// [`WHITE`] or [`BLACK`]; empty on a contradiction): where a generator
/// must add information.
pub(crate) fn graded(grid: &Grid, most: Difficulty) -> (Report, Vec<u8>) {
    let n = grid.len();
    let mut g = Grader::new(grid);
    let none = |grade| Report {
        grade,
        easy: 0,
        lookahead: 0,
        lookahead_cells: Vec::new(),
        undecided: n,
        solution: None,
    };
    let Some(mut s) = g.easy(grid) else {
        return (none(Grade::NoSolution), Vec::new());
    };
    let mut lookahead = 0;
    let mut lookahead_cells = Vec::new();
    if s.unknown > 0 && most == Difficulty::Hard {
        loop {
            match g.lookahead(&mut s, &mut lookahead_cells) {
                None => return (none(Grade::NoSolution), Vec::new()),
                Some(0) => break,
                Some(k) => lookahead += k,
            }
            if s.unknown == 0 {
                break;
            }
        }
    }
    let undecided = s.unknown as usize;
    let grade = match (undecided, lookahead) {
        (0, 0) => Grade::Solved(Difficulty::Easy),
        (0, _) => Grade::Solved(Difficulty::Hard),
        _ => Grade::NeedsSearch,
    };
    let report = Report {
        grade,
        easy: n - undecided - lookahead,
        lookahead,
        lookahead_cells,
        undecided,
        solution: (undecided == 0).then(|| s.cells.iter().map(|&c| c == BLACK).collect()),
    };
    (report, s.cells.into_vec())
}

#[cfg(test)]
mod test {
    use super::*;

    fn grid(text: &str) -> Grid {
        Grid::parse(text, "t").unwrap()
    }

    #[test]
    fn contradictions_and_second_solutions() {
        assert_eq!(grade(&grid("1 1\n1 1\n")).grade, Grade::NoSolution);
        assert_eq!(
            grade(&grid("1 1 2\n2 3 1\n3 2 2\n")).grade,
            Grade::NeedsSearch
        );
    }
}
