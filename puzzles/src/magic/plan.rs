//! The order in which cells are filled, fixed before the search.
//!
//! Greedy: take the unfinished line (row, column or diagonal) with the
//! fewest empty cells (diagonals first among equals, then rows and columns
//! alternately), fill its empty cells in order, and *derive* the last one
//! from the line's sum instead of trying values. For an empty 5x5 square this
//! fills the main diagonal (four free cells, one derived), the other
//! diagonal (three free, one derived), then closes a row or a column at a
//! time. Every line is checked as soon as a cell of it is placed: its
//! remaining sum must lie between the smallest and the largest sums the
//! unused numbers can still make in its empty cells.

use super::square::Given;

/// The most lines: n rows, n columns, two diagonals.
pub(crate) const MAX_LINES: usize = 2 * super::square::MAX_N + 2;

/// Up to four lines (those through one cell), inline for the hot loop.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct LineSet {
    ids: [u8; 4],
    len: u8,
}

impl LineSet {
    pub(crate) fn from_slice(lines: &[u8]) -> LineSet {
        let mut set = LineSet::default();
        for &l in lines {
            set.ids[set.len as usize] = l;
            set.len += 1;
        }
        set
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.ids[..self.len as usize]
    }
}

/// One placement of the search.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    pub cell: u16,
    /// The line whose sum decides this cell, or `None`: try every value.
    pub derive: Option<u8>,
    /// Lines through the cell (1 to 4).
    pub lines: LineSet,
    /// Lines through the cell with exactly one other empty cell at this
    /// step: a value v is only worth trying if the line's remaining sum
    /// minus v is an unused number (the partner the next cell must take).
    pub pairs: LineSet,
    /// Cells already placed whose values must be smaller than this one's.
    pub above: Vec<u16>,
    /// Cells already placed whose values must be larger than this one's.
    pub below: Vec<u16>,
}

/// The fixed structure of a search.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub n: usize,
    pub magic_sum: u32,
    /// Cells of each line: rows 0..n, columns n..2n, the main diagonal, the other.
    pub lines: Vec<Vec<u16>>,
    pub steps: Vec<Step>,
}

impl Plan {
    /// The order for `given`; `less` lists pairs (a, b) of cells with
    /// value(a) < value(b) (symmetry breaking), checked when the later one is placed.
    pub(crate) fn new(given: &Given, less: &[(u16, u16)]) -> Plan {
        let n = given.n;
        let mut lines: Vec<Vec<u16>> = Vec::with_capacity(2 * n + 2);
        for r in 0..n {
            lines.push((0..n).map(|c| (r * n + c) as u16).collect());
        }
        for c in 0..n {
            lines.push((0..n).map(|r| (r * n + c) as u16).collect());
        }
        lines.push((0..n).map(|i| (i * n + i) as u16).collect());
        lines.push((0..n).map(|i| (i * n + n - 1 - i) as u16).collect());
        let priority = |l: usize| match l {
            _ if l == 2 * n => 0,
            _ if l == 2 * n + 1 => 1,
            _ if l < n => 2 + 2 * l,
            _ => 3 + 2 * (l - n),
        };
        let mut filled: Vec<bool> = given.cells.iter().map(|&v| v != 0).collect();
        let mut order: Vec<(u16, Option<u8>)> = Vec::new();
        loop {
            let best = (0..lines.len())
                .map(|l| (lines[l].iter().filter(|&&c| !filled[c as usize]).count(), l))
                .filter(|&(empty, _)| empty > 0)
                .min_by_key(|&(empty, l)| (empty, priority(l)));
            let Some((_, l)) = best else { break };
            let empty: Vec<u16> = lines[l]
                .iter()
                .copied()
                .filter(|&c| !filled[c as usize])
                .collect();
            for (k, &c) in empty.iter().enumerate() {
                let last = k + 1 == empty.len();
                order.push((c, last.then_some(l as u8)));
                filled[c as usize] = true;
            }
        }
        let mut placed: Vec<bool> = given.cells.iter().map(|&v| v != 0).collect();
        let steps = order
            .into_iter()
            .map(|(cell, derive)| {
                let through: Vec<u8> = (0..lines.len())
                    .filter(|&l| lines[l].contains(&cell))
                    .map(|l| l as u8)
                    .collect();
                let empty = |l: u8| {
                    lines[l as usize]
                        .iter()
                        .filter(|&&c| !placed[c as usize])
                        .count()
                };
                let pairs: Vec<u8> = if derive.is_none() {
                    through.iter().copied().filter(|&l| empty(l) == 2).collect()
                } else {
                    Vec::new()
                };
                placed[cell as usize] = true;
                Step {
                    cell,
                    derive,
                    lines: LineSet::from_slice(&through),
                    pairs: LineSet::from_slice(&pairs),
                    above: less
                        .iter()
                        .filter(|&&(a, b)| b == cell && placed[a as usize] && a != cell)
                        .map(|&(a, _)| a)
                        .collect(),
                    below: less
                        .iter()
                        .filter(|&&(a, b)| a == cell && placed[b as usize] && b != cell)
                        .map(|&(_, b)| b)
                        .collect(),
                }
            })
            .collect();
        Plan {
            n,
            magic_sum: given.magic_sum(),
            lines,
            steps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_five_starts_with_the_diagonals() {
        let plan = Plan::new(&Given::empty(5).unwrap(), &[]);
        let cells: Vec<u16> = plan.steps.iter().map(|s| s.cell).collect();
        assert_eq!(&cells[..5], &[0, 6, 12, 18, 24]);
        assert_eq!(plan.steps[4].derive, Some(10)); // the main diagonal
        assert_eq!(&cells[5..9], &[4, 8, 16, 20]);
        assert_eq!(plan.steps[8].derive, Some(11));
        assert_eq!(cells.len(), 25);
        let derived = plan.steps.iter().filter(|s| s.derive.is_some()).count();
        assert!(derived >= 9, "{derived} derived cells");
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 25);
    }

    #[test]
    fn given_cells_are_not_steps() {
        let mut g = Given::empty(4).unwrap();
        g.cells[15] = 15;
        let plan = Plan::new(&g, &[]);
        assert_eq!(plan.steps.len(), 15);
        assert!(plan.steps.iter().all(|s| s.cell != 15));
    }

    #[test]
    fn order_constraints_attach_to_the_later_cell() {
        let plan = Plan::new(&Given::empty(4).unwrap(), &[(0, 3), (3, 12)]);
        let at = |c: u16| plan.steps.iter().find(|s| s.cell == c).unwrap();
        // Cells 0 (diagonal) then 3 and 12 (the other diagonal).
        assert_eq!(at(3).above, vec![0]);
        assert_eq!(at(12).above, vec![3]);
        assert!(at(0).below.is_empty());
    }
}
