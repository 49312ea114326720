//! 5x5 magic squares by lines rather than cells.
//!
//! The tree has four levels: the centre; the rest of the main diagonal
//! (an ordered choice of four numbers that sum to 65 less the centre); the
//! rest of the other diagonal; then every square those nine numbers leave,
//! found at once as a join of two halves (see [`half`]): the side halves
//! go into a table keyed by their 8 numbers, and each top half looks up
//! the halves that hold exactly the other 8. Counting visits no square one
//! by one: a pair of diagonals costs a few hundred half fillings, whatever
//! the number of squares it holds.
//!
//! Symmetries, in an empty square. Besides the 8 rotations and
//! reflections, one more map takes magic squares of order 5 to magic
//! squares: swapping rows 1 and 2, rows 4 and 5, and the same columns
//! (every line goes to a line, each diagonal to itself). With the 8 it
//! makes a group of 16, which moves each of the 8 non-central diagonal
//! cells to each other one, two ways (one the other's transpose). A square
//! of distinct numbers is no image of itself but under the identity, so
//! each has 16 images, and exactly one has its smallest non-central
//! diagonal number top left and the top-right corner smaller than the
//! bottom-left one: a count walks those only, each standing for 16
//! squares, or for 2 up to rotation and reflection (`--distinct`). Listing
//! squares up to rotation and reflection walks instead the one image of 8
//! with the top-left corner the smallest and top-right below bottom-left.
//! Replacing every number x by 26 - x maps magic squares one to one onto
//! magic squares and the centre c onto 26 - c, and commutes with the
//! moves above; so a count walks the centres 1..=13 only and weighs the
//! squares of centres below 13 twice. Given numbers break all of these:
//! then every square is walked.
//!
//! Given numbers restrict each cell to one number, and every other cell to
//! the numbers not given: the masks [`Allowed`] enter every choice above.

pub mod half;

use crate::PuzzleError;
use half::{Half, SIDE, SUM, TOP};
use hysolve::advanced::Count;
use hysolve::{Mode, ScratchTree};

use super::square::Given;

/// The numbers each cell may hold, as bits (bit v for v), and the same
/// sets bit-reversed.
#[derive(Debug, Clone)]
pub struct Allowed {
    /// Per cell, the numbers it may hold (bit `v`: number `v`).
    pub ok: [u64; 25],
    /// The same sets with the bits in reverse order.
    pub rev: [u64; 25],
}

/// The numbers 1..=25 as bits.
const ALL: u64 = ((1 << 26) - 1) & !1;

/// The numbers among `values` as bits (0, an empty cell, left out).
fn numbers(values: impl Iterator<Item = u16>) -> u64 {
    values.fold(0u64, |m, v| m | (1u64 << v)) & ALL
}

/// The centre, then the main diagonal's other cells, then the other
/// diagonal's, in the order they are chosen (the last of each derived).
const CENTRE: usize = 12;
const MAIN: [usize; 4] = [0, 6, 18, 24];
const ANTI: [usize; 4] = [4, 8, 16, 20];

/// Main diagonals a worker below which a count's task is a pair of
/// diagonals ([`Lines::count_cutoff_for`]). The empty square's 21,816 main
/// diagonals are far from equal: the simulated run of 1,024 workers (21 a
/// worker) ended about 65 ms after its ideal 285 ms, on main diagonals
/// whose subtrees take a tenth of a second or more, a thousandth of the
/// whole. At 256 a worker (the empty square cuts deeper from 86 workers),
/// a worker's share is at least ten times such a subtree.
const MAINS_PER_WORKER: usize = 256;

/// Levels of the tree.
const AT_CENTRE: u8 = 1;
const AT_MAIN: u8 = 2;
const AT_ANTI: u8 = 3;
const FULL: u8 = 4;

/// A square filled down to `level` (0: nothing chosen; 4: complete).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partial {
    level: u8,
    v: [u8; 25],
}

/// An order-5 instance, searched by lines.
#[derive(Debug, Clone)]
pub struct Lines {
    name: String,
    given: Given,
    allowed: Allowed,
    distinct: bool,
    /// The tree of a count: symmetric squares folded into one, weighed.
    counted: Folding,
    /// The tree of the other modes: every square listed stands for itself.
    listed: Folding,
    /// The two halves, the one with more given cells first.
    halves: [Half; 2],
    /// The level whose nodes are the count's tasks in a small run.
    cutoff: u8,
    /// The ordered main diagonals (under the count's folding).
    mains: usize,
}

/// Which squares a walk keeps and what each stands for (see the module's
/// notes on symmetry): the problem learns from the mode which one a worker
/// walks ([`Problem::state`](hysolve::Problem::state)).
#[derive(Debug, Clone, Copy)]
pub struct Folding {
    walk: Walk,
    /// Centres above 13 are left out, those below weigh twice.
    complement: bool,
    /// What one walked square stands for.
    images: u64,
}

impl Folding {
    /// The walk of a square with nothing given (`empty`) or not, up to
    /// symmetry (`distinct`) or not, that folds symmetric squares (`fold`,
    /// counting only) or lists them.
    fn new(empty: bool, fold: bool, distinct: bool) -> Folding {
        Folding {
            walk: match (empty, fold, distinct) {
                (true, true, _) => Walk::Orbits,
                (true, false, true) => Walk::Corners,
                _ => Walk::Every,
            },
            complement: empty && fold,
            images: match (empty && fold, distinct) {
                (false, _) => 1,
                (true, false) => 16,
                (true, true) => 2,
            },
        }
    }
}

/// Which squares the walk keeps (see the module's notes on symmetry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// Every square.
    Every,
    /// One of the 8 images under rotation and reflection.
    Corners,
    /// One of the 16 images of the larger group.
    Orbits,
}

impl Lines {
    /// Prepares the search for the completions of the order-5 `given`.
    /// `distinct`: squares up to the 8 symmetries (nothing may be given).
    /// A count folds symmetric squares into one counted with a weight;
    /// the other modes list each square (the mode comes from the engine).
    pub fn new(
        given: Given,
        name: impl Into<String>,
        distinct: bool,
    ) -> Result<Lines, PuzzleError> {
        if given.n != 5 {
            return Err(PuzzleError::Parameter {
                puzzle: "magic",
                param: "Lines",
                problem: format!("fills 5x5 squares only, this one is {0}x{0}", given.n),
            });
        }
        let empty = given.cells.iter().all(|&v| v == 0);
        if distinct && !empty {
            return Err(PuzzleError::Parameter {
                puzzle: "magic",
                param: "distinct",
                problem: "counts squares up to symmetry, so nothing may be given".into(),
            });
        }
        let taken = numbers(given.cells.iter().copied());
        let ok: [u64; 25] = std::array::from_fn(|c| match given.cells[c] {
            0 => ALL & !taken,
            v => 1 << v,
        });
        let allowed = Allowed {
            ok,
            rev: ok.map(u64::reverse_bits),
        };
        let givens = |h: &Half| h.cells.iter().filter(|&&c| given.cells[c] != 0).count();
        let halves = if givens(&SIDE) > givens(&TOP) {
            [SIDE, TOP]
        } else {
            [TOP, SIDE]
        };
        let mut lines = Lines {
            name: name.into(),
            given,
            allowed,
            distinct,
            counted: Folding::new(empty, true, distinct),
            listed: Folding::new(empty, false, distinct),
            halves,
            cutoff: AT_MAIN,
            mains: 0,
        };
        let mut mains = 0;
        let counted = lines.counted;
        lines.each_child(&lines.root(), counted, |centre| {
            lines.each_child(centre, counted, |_| mains += 1);
        });
        lines.mains = mains;
        if mains < 1000 {
            lines.cutoff = AT_ANTI;
        }
        Ok(lines)
    }

    /// The square as given.
    pub fn given(&self) -> &Given {
        &self.given
    }

    fn used(s: &Partial) -> u64 {
        numbers(s.v.iter().map(|&v| v.into()))
    }

    /// Calls `f` with each child of `s` above the last level, in order, in
    /// the walk of `fo`.
    #[inline]
    fn each_child(&self, s: &Partial, fo: Folding, mut f: impl FnMut(&Partial)) {
        let ok = &self.allowed.ok;
        let free = ALL & !Self::used(s);
        let mut child = s.clone();
        child.level += 1;
        match s.level {
            0 => {
                let top = if fo.complement { 13 } else { 25 };
                for c in 1..=top {
                    if ok[CENTRE] >> c & 1 == 1 {
                        child.v[CENTRE] = c as u8;
                        f(&child);
                    }
                }
            }
            AT_CENTRE => {
                let need = SUM - i32::from(s.v[CENTRE]);
                let walk = fo.walk;
                self.each_line(
                    free,
                    need,
                    MAIN,
                    |[a, b, c, d]| match walk {
                        Walk::Every => true,
                        // The top-left corner is the smallest corner...
                        Walk::Corners => a < d,
                        // ... or the smallest number of both diagonals.
                        Walk::Orbits => a < b && a < c && a < d,
                    },
                    &mut child,
                    &mut f,
                );
            }
            AT_MAIN => {
                let need = SUM - i32::from(s.v[CENTRE]);
                let top_left = s.v[0] as i32;
                let walk = fo.walk;
                // And the top-right corner is below the bottom-left one.
                self.each_line(
                    free,
                    need,
                    ANTI,
                    |[a, b, c, d]| match walk {
                        Walk::Every => true,
                        Walk::Corners => top_left < a && a < d,
                        Walk::Orbits => top_left < a.min(b).min(c) && a < d,
                    },
                    &mut child,
                    &mut f,
                );
            }
            _ => {}
        }
    }

    /// Calls `f` with `child` holding each ordered choice of four numbers
    /// from `free` for `cells` (allowed there, summing to `need`, the last
    /// derived) that passes `keep`.
    #[inline(always)]
    fn each_line(
        &self,
        free: u64,
        need: i32,
        cells: [usize; 4],
        keep: impl Fn([i32; 4]) -> bool,
        child: &mut Partial,
        f: &mut impl FnMut(&Partial),
    ) {
        let ok = &self.allowed.ok;
        let mut xs = free & ok[cells[0]];
        while xs != 0 {
            let a = xs.trailing_zeros() as i32;
            xs &= xs - 1;
            let mut ys = free & ok[cells[1]] & !(1 << a);
            while ys != 0 {
                let b = ys.trailing_zeros() as i32;
                ys &= ys - 1;
                let mut zs = free & ok[cells[2]] & !(1 << a) & !(1 << b);
                while zs != 0 {
                    let c = zs.trailing_zeros() as i32;
                    zs &= zs - 1;
                    let d = need - a - b - c;
                    if !(1..=25).contains(&d)
                        || (free & ok[cells[3]] & !(1 << a) & !(1 << b) & !(1 << c)) >> d & 1 == 0
                        || !keep([a, b, c, d])
                    {
                        continue;
                    }
                    for (cell, v) in cells.into_iter().zip([a, b, c, d]) {
                        child.v[cell] = v as u8;
                    }
                    f(child);
                }
            }
        }
    }

    /// The free numbers once both diagonals are placed, and each one's bit
    /// in a 16-bit set.
    fn index(s: &Partial) -> (u64, [u16; 32]) {
        let free = ALL & !Self::used(s);
        let mut index = [0u16; 32];
        let mut rest = free;
        let mut i = 0;
        while rest != 0 {
            index[rest.trailing_zeros() as usize] = 1 << i;
            rest &= rest - 1;
            i += 1;
        }
        (free, index)
    }

    /// The number of squares that complete the two diagonals of `s`.
    fn count_squares(&self, s: &Partial, join: &mut Join) -> u64 {
        let (free, index) = Self::index(s);
        let allowed = &self.allowed;
        // The half with more given cells first: when it has no filling,
        // the other is never walked.
        let [first, then] = &self.halves;
        half::each(first, free, first.sums(&s.v), allowed, &index, |set, _| {
            let n = &mut join.counts[set as usize];
            if *n == 0 {
                join.touched.push(set);
            }
            *n += 1;
        });
        if join.touched.is_empty() {
            return 0;
        }
        let mut squares = 0u64;
        half::each(then, free, then.sums(&s.v), allowed, &index, |set, _| {
            squares += u64::from(join.counts[usize::from(!set)]);
        });
        for &set in &join.touched {
            join.counts[set as usize] = 0;
        }
        join.touched.clear();
        squares
    }

    /// Counts, in place, the nodes and solutions strictly below `s`, in
    /// the walk of `fo`.
    fn count_below(&self, s: &Partial, total: &mut Count, join: &mut Join, fo: Folding) {
        if s.level == AT_ANTI {
            let squares = self.count_squares(s, join);
            total.nodes += squares;
            total.solutions += squares * Self::weight(s, fo);
            return;
        }
        self.each_child(s, fo, |child| {
            total.nodes += 1;
            self.count_below(child, total, join, fo);
        });
    }

    /// What a full square of the walk of `fo` stands for.
    fn weight(s: &Partial, fo: Folding) -> u64 {
        let twice = fo.complement && s.v[CENTRE] < 13;
        fo.images << u64::from(twice)
    }
}

/// The side halves of one pair of diagonals, counted by their numbers.
struct Join {
    counts: Vec<u32>,
    touched: Vec<u16>,
}

impl Join {
    fn new() -> Join {
        Join {
            counts: vec![0; 1 << 16],
            touched: Vec::with_capacity(4096),
        }
    }
}

/// A worker's scratch: its own join table (used by every subtree it
/// counts), and the walk of the run's mode.
pub struct Scratch {
    join: Join,
    folding: Folding,
}

impl Lines {
    /// The children of `s`, in order: lines of numbers, then at the
    /// last level the squares the join finds.
    fn children_in(&self, s: &Partial, out: &mut Vec<Partial>, fo: Folding) {
        if s.level != AT_ANTI {
            self.each_child(s, fo, |c| out.push(c.clone()));
            return;
        }
        // Every side half with its numbers, sorted by their set (stably:
        // the order of the walk within a set), then each top half with
        // every side half that holds the other 8 numbers.
        let (free, index) = Self::index(s);
        let allowed = &self.allowed;
        let mut sides: Vec<(u16, [u8; 8])> = Vec::new();
        half::each(&SIDE, free, SIDE.sums(&s.v), allowed, &index, |set, v| {
            sides.push((set, v))
        });
        sides.sort_by_key(|&(set, _)| set);
        half::each(&TOP, free, TOP.sums(&s.v), allowed, &index, |set, top| {
            let want = !set;
            let from = sides.partition_point(|&(s, _)| s < want);
            for &(_, side) in sides[from..].iter().take_while(|&&(s, _)| s == want) {
                let mut square = s.clone();
                square.level = FULL;
                for (cell, v) in TOP.cells.into_iter().zip(top) {
                    square.v[cell] = v;
                }
                for (cell, v) in SIDE.cells.into_iter().zip(side) {
                    square.v[cell] = v;
                }
                out.push(square);
            }
        });
    }

    /// How many squares `s` stands for: 0 before it is full.
    fn square_weight(s: &Partial, fo: Folding) -> u64 {
        if s.level == FULL {
            Self::weight(s, fo)
        } else {
            0
        }
    }

    /// `s` as rows of numbers.
    fn render_square(&self, s: &Partial, out: &mut String) {
        for (r, row) in s.v.chunks(5).enumerate() {
            if r > 0 {
                out.push('\n');
            }
            for (c, v) in row.iter().enumerate() {
                if c > 0 {
                    out.push(' ');
                }
                out.push_str(&format!("{v:>2}"));
            }
        }
    }
}

impl ScratchTree for Lines {
    type Node = Partial;
    type Scratch = Scratch;

    const ENCODES: bool = true;

    fn encode(&self, s: &Partial, out: &mut Vec<u8>) {
        out.push(s.level);
        out.extend_from_slice(&s.v);
    }

    fn decode(&self, bytes: &[u8]) -> Option<Partial> {
        let (&level, v) = bytes.split_first()?;
        let v: [u8; 25] = v.try_into().ok()?;
        (level <= FULL && v.iter().all(|&x| x <= 25)).then_some(Partial { level, v })
    }

    fn name(&self) -> &'static str {
        "magic"
    }

    fn instance(&self) -> String {
        let mut s = format!("{} (5x5", self.name);
        if self.distinct {
            s.push_str(", distinct");
        }
        s.push_str(", by lines)");
        s
    }

    fn root(&self) -> Partial {
        Partial {
            level: 0,
            v: [0; 25],
        }
    }

    fn scratch(&self, mode: Mode) -> Scratch {
        Scratch {
            join: Join::new(),
            folding: if mode == Mode::Count {
                self.counted
            } else {
                self.listed
            },
        }
    }

    fn children(&self, s: &Partial, out: &mut Vec<Partial>, w: &mut Scratch) {
        self.children_in(s, out, w.folding)
    }

    fn solution_weight(&self, s: &Partial, w: &Scratch) -> u64 {
        Self::square_weight(s, w.folding)
    }

    fn render(&self, s: &Partial, out: &mut String) {
        self.render_square(s, out)
    }

    /// Each ordered main diagonal is a task (a few thousand per centre,
    /// each a few milliseconds), or each pair of diagonals when the givens
    /// leave fewer than a thousand main diagonals.
    fn count_cutoff(&self) -> Option<usize> {
        Some(self.cutoff as usize)
    }

    /// A run with fewer than `MAINS_PER_WORKER` (256) main diagonals a
    /// worker counts each pair of diagonals as a task instead: a main
    /// diagonal is counted whole, and the heaviest of the empty square's
    /// 21,816 held the run's tail (simulated, `--distinct` on 64 ranks of 16
    /// threads: 0.814 efficiency with a task a main diagonal, 0.955 with
    /// a task a pair, 17.1 % of the workers' time idle in the tail against
    /// 1.6 %). On one thread, a task a pair costs about 6 % more (the
    /// anti-diagonals walked by the engine, not the kernel), so a small run
    /// keeps a task a main diagonal.
    fn count_cutoff_for(&self, workers: usize) -> Option<usize> {
        let fine = self.mains < MAINS_PER_WORKER.saturating_mul(workers);
        Some(if fine { AT_ANTI } else { self.cutoff } as usize)
    }

    fn count_subtree(&self, s: &Partial, w: &mut Scratch) -> Count {
        let Scratch { join, folding } = w;
        let mut total = Count {
            nodes: 1,
            solutions: Self::square_weight(s, *folding),
            depth: None,
        };
        self.count_below(s, &mut total, join, *folding);
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magic::verify::{parse_square, verify};
    use hysolve::Mode;
    use hysolve::advanced::sequential;

    /// The centre 7 and a main diagonal 3, 20, 7, 10, 25 (top-left 3 can
    /// be the smallest corner).
    const CENTRE_7: [(usize, u16); 5] = [(0, 3), (6, 20), (12, 7), (18, 10), (24, 25)];

    fn with_diagonal(diagonal: &[(usize, u16)]) -> Given {
        let mut given = Given::empty(5).unwrap();
        for &(cell, v) in diagonal {
            given.cells[cell] = v;
        }
        given
    }

    fn squares(lines: &Lines) -> Vec<Vec<u16>> {
        let (_, listed) = sequential(lines, Mode::All);
        listed
            .iter()
            .map(|text| parse_square(text, 5).unwrap())
            .collect()
    }

    fn canonical(sq: &[u16]) -> bool {
        sq[0] < sq[4] && sq[0] < sq[20] && sq[0] < sq[24] && sq[4] < sq[20]
    }

    /// Canonical among the 16: the smallest non-central diagonal number
    /// top left, top right below bottom left.
    fn orbit_canonical(sq: &[u16]) -> bool {
        [6, 18, 24, 4, 8, 16, 20].iter().all(|&c| sq[0] < sq[c]) && sq[4] < sq[20]
    }

    /// The 8 images of a square: 4 rotations, each also transposed.
    fn images(sq: &[u16]) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        let mut sq = sq.to_vec();
        for _ in 0..4 {
            sq = (0..25).map(|i| sq[(4 - i % 5) * 5 + i / 5]).collect();
            out.push(sq.clone());
            out.push((0..25).map(|i| sq[(i % 5) * 5 + i / 5]).collect());
        }
        out
    }

    /// The 16 images: the 8, and the 8 of the square with rows and
    /// columns 1, 2 and 4, 5 swapped (which is magic too).
    fn images16(sq: &[u16]) -> Vec<Vec<u16>> {
        let swap = [1, 0, 2, 4, 3];
        let moved: Vec<u16> = (0..25).map(|i| sq[swap[i / 5] * 5 + swap[i % 5]]).collect();
        let mut out = images(sq);
        out.extend(images(&moved));
        out
    }

    /// Counting and listing walk the same tree; every square listed is a
    /// magic square completing the givens, and none twice.
    #[test]
    fn count_and_list_agree_and_every_square_checks() {
        let given = with_diagonal(&CENTRE_7);
        let lines = Lines::new(given.clone(), "t", false).unwrap();
        let (counted, _) = sequential(&lines, Mode::Count);
        let (walked, listed) = sequential(&lines, Mode::All);
        assert!(counted.solutions > 1000, "{}", counted.solutions);
        assert_eq!(counted.solutions, listed.len() as u64);
        assert_eq!(counted.nodes, walked.nodes);
        let mut seen = std::collections::HashSet::new();
        for text in &listed {
            let sq = parse_square(text, 5).unwrap();
            verify(&given, &sq).unwrap();
            assert!(seen.insert(sq));
        }
    }

    /// The counting walk of the empty square, below one main diagonal,
    /// keeps exactly the squares with that diagonal that are canonical
    /// among their 16 images, each weighing 16 (2 up to rotation and
    /// reflection) times 2 for its complement; each square has exactly one
    /// such image, and one canonical image among its 8.
    #[test]
    fn symmetry_and_complement_fold_exactly() {
        let every = squares(&Lines::new(with_diagonal(&CENTRE_7), "t", false).unwrap());
        let kept = every.iter().filter(|sq| orbit_canonical(sq)).count() as u64;
        assert!(kept > 100, "{kept}");
        for sq in &every {
            assert_eq!(images(sq).iter().filter(|im| canonical(im)).count(), 1);
            let sixteen = images16(sq);
            assert_eq!(sixteen.iter().filter(|im| orbit_canonical(im)).count(), 1);
            for im in &sixteen {
                verify(&Given::empty(5).unwrap(), im).unwrap();
            }
        }
        let mut node = Partial {
            level: AT_MAIN,
            v: [0; 25],
        };
        for &(cell, v) in &CENTRE_7 {
            node.v[cell] = v as u8;
        }
        for (distinct, weight) in [(false, 32), (true, 4)] {
            let folded = Lines::new(Given::empty(5).unwrap(), "e", distinct).unwrap();
            let mut scratch = folded.scratch(Mode::Count);
            let total = folded.count_subtree(&node, &mut scratch);
            assert_eq!(total.solutions, weight * kept, "distinct {distinct}");
        }
        let kept = every.iter().filter(|sq| canonical(sq)).count() as u64;
        // Listing with --distinct walks the canonical squares only, unweighted.
        let distinct = Lines::new(Given::empty(5).unwrap(), "e", true).unwrap();
        let walk = distinct.listed;
        let mut below = Vec::new();
        distinct.children_in(&node, &mut below, walk);
        let mut listed = 0;
        let mut out = Vec::new();
        for anti in &below {
            out.clear();
            distinct.children_in(anti, &mut out, walk);
            for sq in &out {
                assert_eq!(Lines::square_weight(sq, walk), 1);
                let v: Vec<u16> = sq.v.iter().map(|&x| x.into()).collect();
                assert!(canonical(&v) && every.contains(&v));
                listed += 1;
            }
        }
        assert_eq!(listed, kept);
        // x -> 26 - x: the complementary diagonal has as many squares.
        let complement: Vec<(usize, u16)> = CENTRE_7.iter().map(|&(c, v)| (c, 26 - v)).collect();
        let other = Lines::new(with_diagonal(&complement), "t", false).unwrap();
        assert_eq!(
            sequential(&other, Mode::Count).0.solutions,
            every.len() as u64
        );
    }

    #[test]
    fn nodes_travel_as_bytes() {
        let lines = Lines::new(Given::empty(5).unwrap(), "e", false).unwrap();
        let listed = lines.listed;
        // The path down to the first square, every node through bytes.
        let mut path = vec![lines.root()];
        let mut kids = Vec::new();
        while path.last().unwrap().level < FULL {
            kids.clear();
            lines.children_in(path.last().unwrap(), &mut kids, listed);
            match kids.first() {
                Some(kid) => path.push(kid.clone()),
                None => {
                    // A dead end: try the next sibling up the path.
                    let dead = path.pop().unwrap();
                    let mut siblings = Vec::new();
                    lines.children_in(path.last().unwrap(), &mut siblings, listed);
                    let i = siblings.iter().position(|s| *s == dead).unwrap();
                    path.push(siblings[i + 1].clone());
                }
            }
        }
        for node in &path {
            let mut bytes = Vec::new();
            lines.encode(node, &mut bytes);
            assert_eq!(lines.decode(&bytes).as_ref(), Some(node));
        }
        let square = path.last().unwrap();
        let v: Vec<u16> = square.v.iter().map(|&x| x.into()).collect();
        verify(&Given::empty(5).unwrap(), &v).unwrap();
        assert_eq!(lines.decode(&[5; 26]), None);
        assert_eq!(lines.decode(&[1; 25]), None);
    }

    /// A large run counts a pair of diagonals a task where a small one
    /// counts a main diagonal, and the count and nodes are the same at
    /// either depth (the engine's walk above, the kernel below).
    #[test]
    fn a_large_run_cuts_at_pairs_of_diagonals_and_counts_the_same() {
        for distinct in [false, true] {
            let empty = Lines::new(Given::empty(5).unwrap(), "e", distinct).unwrap();
            assert!(empty.mains >= 1000, "{}", empty.mains);
            assert_eq!(empty.count_cutoff_for(1), Some(AT_MAIN as usize));
            let large = empty.mains.div_ceil(MAINS_PER_WORKER);
            assert_eq!(empty.count_cutoff_for(large - 1), Some(AT_MAIN as usize));
            assert_eq!(empty.count_cutoff_for(large + 1), Some(AT_ANTI as usize));
        }
        // The kernel counts what the moves give at both depths (the first
        // subtrees of each, up to 20,000 nodes).
        let empty = Lines::new(Given::empty(5).unwrap(), "e", true).unwrap();
        let checked = hysolve::advanced::check_up_to(&empty, 20_000).unwrap();
        assert!(checked.kernel_subtrees >= 2, "{checked:?}");
    }

    #[test]
    fn other_orders_are_refused() {
        let err = Lines::new(Given::empty(4).unwrap(), "e", false).unwrap_err();
        assert!(err.to_string().contains("5x5 squares only"));
        assert!(Lines::new(with_diagonal(&CENTRE_7), "t", true).is_err());
    }
}
