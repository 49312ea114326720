//! Magic squares: complete a partially filled n x n square with the numbers
//! 1..n^2, each once, so that every row, column and both main diagonals sum
//! to n(n^2 + 1)/2.
//!
//! Two solvers: 5x5 squares go by whole lines ([`lines`]); this module's
//! cell-by-cell search takes every other order (and 5x5 with `--by cells`).
//!
//! The search fills cells in the fixed order of `plan`, which closes lines
//! early and derives the last cell of each line from its sum. A node is a
//! square filled up to some step. State: the values, a bitset of used
//! numbers, and per line the sum so far and the count of empty cells. A
//! placement is kept only if every line through the cell can still reach the
//! magic sum with the unused numbers: the remaining sum lies between the sum
//! of the smallest and of the largest unused numbers, as many as the line
//! has empty cells. A free cell only tries values inside the same bounds.
//!
//! Counting below a cut-off depth runs in place (place, recurse, undo), with
//! no allocation; the generic walk above it clones nodes.

pub mod lines;
pub(crate) mod plan;
pub mod solution;
pub mod square;
pub mod verify;

use crate::PuzzleError;
use hysolve::advanced::Count;
use hysolve::advanced::input::read_text;
use hysolve::{Mode, Problem};
use plan::{MAX_LINES, Plan, Step};
use square::Given;
use std::path::Path;

/// Numbers as bits: bit v-1 of the 256-bit set stands for v.
type Bits = [u64; 4];

/// A square filled up to `step` (given cells included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Square {
    step: u16,
    vals: [u16; 256],
    used: Bits,
    sum: [u32; MAX_LINES],
    left: [u8; MAX_LINES],
}

/// A magic-square instance, ready to search.
#[derive(Debug, Clone)]
pub struct Magic {
    name: String,
    given: Given,
    plan: Plan,
    distinct: bool,
    /// Numbers 1..=n^2 as bits.
    all: Bits,
    /// The root, or why the given cells admit no completion.
    root: Result<Box<Square>, String>,
}

impl Magic {
    /// Prepares a search for the completions of `given`. `distinct`: count
    /// squares up to the 8 symmetries of the square (nothing may be given).
    pub fn new(
        given: Given,
        name: impl Into<String>,
        distinct: bool,
    ) -> Result<Magic, PuzzleError> {
        let n = given.n;
        if distinct && given.cells.iter().any(|&v| v != 0) {
            return Err(PuzzleError::Parameter {
                puzzle: "magic",
                param: "distinct",
                problem: "counts squares up to symmetry, so nothing may be given".into(),
            });
        }
        // Symmetry breaking: the top-left corner is the smallest corner, and
        // the top-right one is smaller than the bottom-left one. Of the 8
        // images of a square (no square of order 3 or more is its own image:
        // its numbers are distinct) exactly one has this form.
        let last = (n * n - 1) as u16;
        let (tr, bl) = ((n - 1) as u16, (n * (n - 1)) as u16);
        let less: Vec<(u16, u16)> = if distinct && n >= 2 {
            vec![(0, tr), (0, bl), (0, last), (tr, bl)]
        } else {
            Vec::new()
        };
        let plan = Plan::new(&given, &less);
        let total = n * n;
        let mut all = [0u64; 4];
        for v in 0..total {
            all[v / 64] |= 1 << (v % 64);
        }
        let mut magic = Magic {
            name: name.into(),
            given,
            plan,
            distinct,
            all,
            root: Err(String::new()),
        };
        magic.root = magic.make_root();
        Ok(magic)
    }

    /// Reads a square file (errors name its line and column).
    pub fn from_file(path: &Path, distinct: bool) -> Result<Magic, PuzzleError> {
        let text = read_text(path, 1 << 20)?;
        let name = path.display().to_string();
        let given = Given::parse(&text, &name)?;
        let short = path
            .file_name()
            .map_or(name.clone(), |n| n.to_string_lossy().into_owned());
        Magic::new(given, short, distinct)
    }

    /// The square as given.
    pub fn given(&self) -> &Given {
        &self.given
    }

    /// The instance's short name (file name, or `empty-N`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Why the given cells have no completion, when that is clear before any search.
    pub fn contradiction(&self) -> Option<&str> {
        self.root.as_ref().err().map(String::as_str)
    }

    fn line_name(&self, l: usize) -> String {
        let n = self.plan.n;
        match l {
            _ if l < n => format!("row {}", l + 1),
            _ if l < 2 * n => format!("column {}", l - n + 1),
            _ if l == 2 * n => "the main diagonal".to_owned(),
            _ => "the other diagonal".to_owned(),
        }
    }

    fn make_root(&self) -> Result<Box<Square>, String> {
        let mut s = Box::new(Square {
            step: 0,
            vals: [0; 256],
            used: [0; 4],
            sum: [0; MAX_LINES],
            left: [0; MAX_LINES],
        });
        for (l, cells) in self.plan.lines.iter().enumerate() {
            s.left[l] = cells.len() as u8;
        }
        for (i, &v) in self.given.cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            s.vals[i] = v;
            set(&mut s.used, v);
            for (l, cells) in self.plan.lines.iter().enumerate() {
                if cells.contains(&(i as u16)) {
                    s.sum[l] += v as u32;
                    s.left[l] -= 1;
                }
            }
        }
        let unused = self.unused(&s);
        for l in 0..self.plan.lines.len() {
            if !self.line_feasible(&s, l, &unused) {
                let m = self.plan.magic_sum;
                return Err(if s.left[l] == 0 {
                    format!(
                        "{} is full and sums to {}, not {m}",
                        self.line_name(l),
                        s.sum[l]
                    )
                } else {
                    format!(
                        "{} sums to {} with {} empty cells: the unused numbers cannot make it {m}",
                        self.line_name(l),
                        s.sum[l],
                        s.left[l]
                    )
                });
            }
        }
        Ok(s)
    }

    /// Whether line `l` can still reach the magic sum.
    #[inline]
    fn line_feasible(&self, s: &Square, l: usize, unused: &Bits) -> bool {
        let need = self.plan.magic_sum as i64 - s.sum[l] as i64;
        self.reachable(need, s.left[l] as usize, unused)
    }

    /// The smallest and largest sums of `k` distinct unused numbers: exact
    /// for k <= 2, from 1..=n^2 regardless of use above (the exact bound
    /// there costs more than it prunes).
    #[inline(always)]
    fn sum_bounds(&self, unused: &Bits, k: usize) -> Option<(i64, i64)> {
        if k >= 3 {
            let top = (self.plan.n * self.plan.n) as i64;
            let k = k as i64;
            return Some((k * (k + 1) / 2, k * (2 * top - k + 1) / 2));
        }
        Some((min_sum(unused, k)? as i64, max_sum(unused, k)? as i64))
    }

    #[inline]
    fn unused(&self, s: &Square) -> Bits {
        [
            self.all[0] & !s.used[0],
            self.all[1] & !s.used[1],
            self.all[2] & !s.used[2],
            self.all[3] & !s.used[3],
        ]
    }

    /// The values step `step` may try, as an inclusive range (empty when lo > hi).
    #[inline]
    fn candidates(&self, s: &Square, step: &Step) -> (i64, i64) {
        let m = self.plan.magic_sum as i64;
        if let Some(l) = step.derive {
            let v = m - s.sum[l as usize] as i64;
            return (v, v);
        }
        let unused = self.unused(s);
        let (mut lo, mut hi) = (1i64, (self.plan.n * self.plan.n) as i64);
        for &l in step.lines.as_slice() {
            let l = l as usize;
            let k = s.left[l] as usize; // this cell included
            let need = m - s.sum[l] as i64;
            if k == 1 {
                lo = lo.max(need);
                hi = hi.min(need);
                continue;
            }
            match self.sum_bounds(&unused, k - 1) {
                Some((small, large)) => {
                    lo = lo.max(need - large);
                    hi = hi.min(need - small);
                }
                None => return (1, 0),
            }
        }
        (lo, hi)
    }

    /// Whether `v` may go in `step`'s cell of `s`: unused, every line
    /// through the cell left able to reach the magic sum (a line with one
    /// cell left then needs a partner that is unused), and the order the
    /// symmetry breaking asks for.
    #[inline(always)]
    fn admits(&self, s: &Square, step: &Step, v: u16) -> bool {
        let m = self.plan.magic_sum as i64;
        let partnerless = |l: &u8| {
            let partner = m - s.sum[*l as usize] as i64 - v as i64;
            partner < 1
                || partner > (self.plan.n * self.plan.n) as i64
                || partner == v as i64
                || is_set(&s.used, partner as u16)
        };
        if is_set(&s.used, v)
            || step.pairs.as_slice().iter().any(partnerless)
            || step.above.iter().any(|&c| s.vals[c as usize] > v)
            || step.below.iter().any(|&c| s.vals[c as usize] < v)
        {
            return false;
        }
        let mut unused = self.unused(s);
        clear(&mut unused, v);
        step.lines.as_slice().iter().all(|&l| {
            let k = s.left[l as usize] as usize - 1;
            let need = m - s.sum[l as usize] as i64 - v as i64;
            self.reachable(need, k, &unused)
        })
    }

    /// Puts `v` (which [`Magic::admits`]) in `step`'s cell of `s`.
    #[inline(always)]
    fn put(&self, s: &mut Square, step: &Step, v: u16) {
        s.vals[step.cell as usize] = v;
        set(&mut s.used, v);
        for &l in step.lines.as_slice() {
            s.sum[l as usize] += v as u32;
            s.left[l as usize] -= 1;
        }
        s.step += 1;
    }

    /// Whether `k` distinct numbers of `unused` can sum to `need`.
    #[inline(always)]
    fn reachable(&self, need: i64, k: usize, unused: &Bits) -> bool {
        match k {
            0 => need == 0,
            1 => {
                (1..=(self.plan.n * self.plan.n) as i64).contains(&need)
                    && is_set(unused, need as u16)
            }
            _ => self
                .sum_bounds(unused, k)
                .is_some_and(|(lo, hi)| (lo..=hi).contains(&need)),
        }
    }

    /// Takes `v` out of `step`'s cell again.
    #[inline]
    fn take(&self, s: &mut Square, step: &Step, v: u16) {
        s.step -= 1;
        for &l in step.lines.as_slice() {
            s.sum[l as usize] -= v as u32;
            s.left[l as usize] += 1;
        }
        clear(&mut s.used, v);
        s.vals[step.cell as usize] = 0;
    }

    /// Counts, in place, the nodes and solutions strictly below `s`.
    fn count_below(&self, s: &mut Square, total: &mut Count) {
        let depth = s.step as usize;
        let steps = &self.plan.steps;
        let Some(step) = steps.get(depth) else {
            return;
        };
        let (lo, hi) = self.candidates(s, step);
        if lo > hi {
            return;
        }
        let last = depth + 1 == steps.len();
        let lo = lo.max(1) as usize;
        let hi = hi.min((self.plan.n * self.plan.n) as i64) as usize;
        // The unused numbers in lo..=hi, as bits (bit v-1 for v).
        let unused = self.unused(s);
        let mut free = unused;
        for (w, word) in free.iter_mut().enumerate() {
            let (first, end) = (w * 64, w * 64 + 64); // values first+1..=end
            if hi <= first || lo > end {
                *word = 0;
                continue;
            }
            let from = lo.saturating_sub(first + 1);
            let to = (hi - first).min(64); // bits from..to
            let mask = if to == 64 { u64::MAX } else { (1u64 << to) - 1 };
            *word &= mask & !((1u64 << from) - 1);
        }
        if self.plan.n * self.plan.n <= 64 {
            // A free cell whose line then has one cell left needs a partner:
            // v is worth trying only if need - v is unused too. Reflecting
            // the unused set about need/2 (a bit reversal and a shift)
            // yields the possible v of every such line at once.
            let m = self.plan.magic_sum as i64;
            let unused = unused[0];
            for &l in step.pairs.as_slice() {
                let need = m - s.sum[l as usize] as i64;
                if !(3..=127).contains(&need) {
                    free[0] = 0;
                    break;
                }
                // Bit i (v = i + 1) of the result is bit need - 2 - i of `unused`.
                let reflected = if need <= 65 {
                    unused.reverse_bits() >> (65 - need)
                } else {
                    unused.reverse_bits() << (need - 65)
                };
                free[0] &= reflected;
                if need % 2 == 0 {
                    free[0] &= !(1u64 << (need / 2 - 1)); // v = need - v: used twice
                }
            }
        }
        for (w, &word) in free.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let v = (w * 64) as u16 + word.trailing_zeros() as u16 + 1;
                word &= word - 1;
                if self.admits(s, step, v) {
                    self.put(s, step, v);
                    total.nodes += 1;
                    if last {
                        total.solutions += 1;
                    } else {
                        self.count_below(s, total);
                    }
                    self.take(s, step, v);
                }
            }
        }
    }
}

#[inline]
fn set(b: &mut Bits, v: u16) {
    let i = v as usize - 1;
    b[i / 64] |= 1 << (i % 64);
}

#[inline]
fn clear(b: &mut Bits, v: u16) {
    let i = v as usize - 1;
    b[i / 64] &= !(1 << (i % 64));
}

#[inline]
fn is_set(b: &Bits, v: u16) -> bool {
    let i = v as usize - 1;
    b[i / 64] >> (i % 64) & 1 == 1
}

/// The sum of the `k` smallest numbers in `b`, if it holds `k`.
#[inline]
fn min_sum(b: &Bits, k: usize) -> Option<u32> {
    let mut sum = 0;
    let mut k = k;
    for (w, &word) in b.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            if k == 0 {
                return Some(sum);
            }
            sum += (w * 64) as u32 + word.trailing_zeros() + 1;
            word &= word - 1;
            k -= 1;
        }
    }
    (k == 0).then_some(sum)
}

/// The sum of the `k` largest numbers in `b`, if it holds `k`.
#[inline]
fn max_sum(b: &Bits, k: usize) -> Option<u32> {
    let mut sum = 0;
    let mut k = k;
    for (w, &word) in b.iter().enumerate().rev() {
        let mut word = word;
        while word != 0 {
            if k == 0 {
                return Some(sum);
            }
            let top = 63 - word.leading_zeros();
            sum += (w * 64) as u32 + top + 1;
            word &= !(1 << top);
            k -= 1;
        }
    }
    (k == 0).then_some(sum)
}

/// Where the listing of a cell's numbers stands: the range the lines
/// allow, tried from the middle out (they leave every line through the
/// cell the most room, which finds a first square of a large empty order
/// far sooner; counts do not depend on the order), and the next offset.
#[derive(Debug, Clone, Copy)]
pub struct Numbers {
    lo: i32,
    hi: i32,
    next: i32,
}

impl Problem for Magic {
    type Node = Option<Box<Square>>;
    /// The square the worker stands on (`None`: the given cells already
    /// contradict).
    type State = Option<Box<Square>>;
    /// A number for the next cell of the plan.
    type Move = u16;
    type Cursor = Numbers;

    fn name(&self) -> &'static str {
        "magic"
    }

    fn instance(&self) -> String {
        let n = self.plan.n;
        let mut s = format!("{} ({n}x{n}", self.name);
        if self.distinct {
            s.push_str(", distinct");
        }
        s.push(')');
        s
    }

    fn root(&self) -> Self::Node {
        self.root.as_ref().ok().cloned()
    }

    fn state(&self, _: Mode) -> Self::State {
        None
    }

    fn load(&self, state: &mut Self::State, node: &Self::Node) {
        state.clone_from(node);
    }

    fn save(&self, state: &Self::State) -> Self::Node {
        state.clone()
    }

    #[inline]
    fn moves(&self, state: &mut Self::State) -> Numbers {
        let none = Numbers {
            lo: 1,
            hi: 0,
            next: 0,
        };
        let Some(s) = state else { return none };
        let Some(step) = self.plan.steps.get(s.step as usize) else {
            return none;
        };
        let (lo, hi) = self.candidates(s, step);
        if lo > hi {
            return none;
        }
        Numbers {
            lo: lo as i32,
            hi: hi as i32,
            next: 0,
        }
    }

    #[inline]
    fn next_move(&self, state: &Self::State, at: &mut Numbers) -> Option<u16> {
        let s = state.as_ref()?;
        let step = self.plan.steps.get(s.step as usize)?;
        let mid = (at.lo + at.hi) / 2;
        while at.next <= at.hi - at.lo {
            let d = at.next;
            at.next += 1;
            let v = if d % 2 == 0 {
                mid - d / 2
            } else {
                mid + d / 2 + 1
            };
            if v < at.lo || v > at.hi {
                continue;
            }
            if self.admits(s, step, v as u16) {
                return Some(v as u16);
            }
        }
        None
    }

    #[inline]
    fn apply(&self, state: &mut Self::State, &v: &u16) {
        let s = state.as_mut().expect("a move from a square");
        let step = &self.plan.steps[s.step as usize];
        self.put(s, step, v);
    }

    #[inline]
    fn undo(&self, state: &mut Self::State, &v: &u16) {
        let s = state.as_mut().expect("a move from a square");
        let step = &self.plan.steps[s.step as usize - 1];
        self.take(s, step, v);
    }

    fn solution_weight(&self, state: &Self::State) -> u64 {
        state
            .as_ref()
            .is_some_and(|s| s.step as usize == self.plan.steps.len()) as u64
    }

    fn render(&self, state: &Self::State, out: &mut String) {
        let Some(s) = state else { return };
        let n = self.plan.n;
        let width = (n * n).to_string().len();
        for r in 0..n {
            if r > 0 {
                out.push('\n');
            }
            for c in 0..n {
                if c > 0 {
                    out.push(' ');
                }
                out.push_str(&format!("{:>width$}", s.vals[r * n + c]));
            }
        }
    }

    /// Shallow enough that the in-place counter does nearly all the work,
    /// deep enough to leave many subtrees for the workers: 4x4 hands over
    /// after two cells (about 240 subtrees), larger squares after four
    /// (about 300,000 for the empty 5x5).
    fn count_cutoff(&self) -> Option<usize> {
        let depth = match self.plan.n {
            0..=3 => return None,
            4 => 2,
            _ => 4,
        };
        Some(depth.min(self.plan.steps.len()))
    }

    /// The same tree as the moves (the same numbers, rising instead of
    /// from the middle out), by the bit tricks of `count_below`.
    fn count_subtree(&self, state: &mut Self::State) -> Count {
        let mut total = Count {
            nodes: 1,
            solutions: self.solution_weight(state),
            depth: None,
        };
        if let Some(s) = state {
            self.count_below(s, &mut total);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hysolve::Mode;
    use hysolve::advanced::sequential;

    fn count(given: Given, distinct: bool) -> u64 {
        let m = Magic::new(given, "t", distinct).unwrap();
        sequential(&m, Mode::Count).0.solutions
    }

    #[test]
    fn small_orders() {
        assert_eq!(count(Given::empty(1).unwrap(), false), 1);
        assert_eq!(count(Given::empty(2).unwrap(), false), 0);
        assert_eq!(count(Given::empty(3).unwrap(), false), 8);
        assert_eq!(count(Given::empty(3).unwrap(), true), 1);
    }

    #[test]
    fn four_by_four_counts_and_symmetry() {
        assert_eq!(count(Given::empty(4).unwrap(), false), 7040);
        assert_eq!(count(Given::empty(4).unwrap(), true), 880);
    }

    /// The in-place counter (with its bit tricks) against the generic walk
    /// that `all` mode takes, on orders where line sums pass 65.
    #[test]
    fn in_place_count_agrees_with_the_generic_walk() {
        let six = "18 15 22 14 29 13\n 6 19 30  8 12 36\n27 23 17 26 11  7\n28 24  4 20 33  2\n 1 25  3 34 16 32\n31  5 35  9 10 21";
        let eight = "24 35 29 36 28 27 40 41\n53 32 54 18 52 5 42 4\n20 38 33 19 46 43 14 47\n3 26 57 31 21 60 56 6\n58 25 12 44 34 16 8 63\n50 23 2 48 55 30 51 1\n7 22 9 49 11 62 39 61\n45 59 64 15 13 17 10 37";
        // Middle rows blanked: 2 completions of the 6x6, 179 of the 8x8, as
        // the independent count in puzzles/tests/independent/magic.rs finds.
        for (text, n, blank, completions) in [(six, 6, 6..24, 2), (eight, 8, 16..40, 179)] {
            let mut given = Given::parse(text, "t").unwrap();
            for i in blank {
                given.cells[i] = 0;
            }
            let m = Magic::new(given, "t", false).unwrap();
            let (counted, _) = sequential(&m, Mode::Count);
            let (walked, listed) = sequential(&m, Mode::All);
            assert_eq!(counted.solutions, completions, "order {n}");
            assert_eq!(counted.solutions, listed.len() as u64, "order {n}");
            assert_eq!(counted.nodes, walked.nodes, "order {n}");
            for text in &listed {
                verify::verify(m.given(), &verify::parse_square(text, n).unwrap()).unwrap();
            }
        }
    }

    #[test]
    fn sums_and_bits() {
        let mut b = [0u64; 4];
        for v in [3, 5, 64, 65, 200] {
            set(&mut b, v);
        }
        assert_eq!(min_sum(&b, 2), Some(8));
        assert_eq!(max_sum(&b, 2), Some(265));
        assert_eq!(min_sum(&b, 5), Some(337));
        assert_eq!(min_sum(&b, 6), None);
        assert_eq!(max_sum(&b, 0), Some(0));
        clear(&mut b, 200);
        assert!(!is_set(&b, 200) && is_set(&b, 65));
    }

    #[test]
    fn contradictions_are_explained() {
        let g = Given::parse("1 2 3 4\n-1 -1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1", "t").unwrap();
        let m = Magic::new(g, "t", false).unwrap();
        assert_eq!(
            m.contradiction(),
            Some("row 1 is full and sums to 10, not 34")
        );
        assert_eq!(sequential(&m, Mode::Count).0.solutions, 0);
        let g = Given::parse("16 15 14 -1\n-1 -1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1", "t").unwrap();
        assert!(
            Magic::new(g, "t", false)
                .unwrap()
                .contradiction()
                .unwrap()
                .contains("row 1 sums to 45")
        );
        assert!(Magic::new(Given::parse("1 -1\n-1 -1", "t").unwrap(), "t", true).is_err());
    }
}
