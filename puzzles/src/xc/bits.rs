//! The search on bitsets over options, for instances with few enough
//! options that every pair's compatibility fits in memory.
//!
//! A state is the set of options still compatible with the partial
//! solution and, per primary item, how many of them cover it (`u16::MAX`
//! once the item is covered). Choosing option `x` drops `live & conflict[x]`
//! and takes one off the counts of each dropped option's primary items;
//! going back restores the state saved one level up, with no undo work.
//! The branching rule and the order of the children are those of the
//! dancing links (`links`): fewest options first, ties to the
//! first item, options in file order; so both search exactly the same
//! tree, node for node.
//!
//! Two options conflict when they share a primary item or an uncoloured
//! secondary one, or give a secondary item different colours (one of them
//! none): Knuth's rules for colours (Algorithm C) come down to that, pairwise.

use super::format::Instance;
use super::links::Below;
use std::sync::Arc;

/// The most options searched on bitsets: the conflict table then takes
/// 32 MiB, shared by the threads of a rank.
pub const MAX_OPTIONS: usize = 16_384;

/// Whether `x` is small enough for bitsets: at most [`MAX_OPTIONS`]
/// options, and primary items that a `u16` numbers.
pub fn fits(x: &Instance) -> bool {
    x.options.len() <= MAX_OPTIONS && x.primary < u16::MAX as usize
}

/// What every state of one instance shares, read-only.
#[derive(Debug)]
pub struct Table {
    /// Words in a set of options.
    words: usize,
    primary: usize,
    /// Per option, the options it conflicts with (itself included).
    conflict: Vec<u64>,
    /// Per primary item, the options that cover it.
    covering: Vec<u64>,
    /// The primary items of option `k`: `items[starts[k]..starts[k + 1]]`.
    items: Vec<u16>,
    starts: Vec<u32>,
}

impl Table {
    /// `None` when the instance has too many options (or items) for bitsets.
    pub fn new(x: &Instance) -> Option<Table> {
        if !fits(x) {
            return None;
        }
        let n = x.options.len();
        let words = n.div_ceil(64).max(1);
        let set = |k: usize, s: &mut [u64]| s[k / 64] |= 1 << (k % 64);
        // Per item, the options covering it, and per (item, colour), those
        // giving it that colour.
        let mut covering = vec![0u64; x.items.len() * words];
        let mut coloured: std::collections::HashMap<(u32, u32), Vec<u64>> = Default::default();
        for (k, o) in x.options.iter().enumerate() {
            for &(i, c) in &o.items {
                let i = i as usize;
                set(k, &mut covering[i * words..(i + 1) * words]);
                if c > 0 {
                    let s = coloured
                        .entry((i as u32, c))
                        .or_insert_with(|| vec![0; words]);
                    set(k, s);
                }
            }
        }
        let mut conflict = vec![0u64; n * words];
        for (k, o) in x.options.iter().enumerate() {
            let row = &mut conflict[k * words..(k + 1) * words];
            for &(i, c) in &o.items {
                let all = &covering[i as usize * words..(i as usize + 1) * words];
                match coloured.get(&(i, c)) {
                    Some(same) if c > 0 => {
                        for ((r, a), s) in row.iter_mut().zip(all).zip(same) {
                            *r |= a & !s;
                        }
                    }
                    _ => {
                        for (r, a) in row.iter_mut().zip(all) {
                            *r |= a;
                        }
                    }
                }
            }
            set(k, row);
        }
        covering.truncate(x.primary * words);
        let mut items = Vec::new();
        let mut starts = vec![0u32];
        for o in &x.options {
            items.extend(
                o.items
                    .iter()
                    .filter(|&&(i, _)| (i as usize) < x.primary)
                    .map(|&(i, _)| i as u16),
            );
            starts.push(items.len() as u32);
        }
        Some(Table {
            words,
            primary: x.primary,
            conflict,
            covering,
            items,
            starts,
        })
    }
}

/// One worker's stack of states, level 0 being the root.
#[derive(Debug, Clone)]
pub struct Bits {
    table: Arc<Table>,
    /// `live[d * words..]`: the options left at level `d`.
    live: Vec<u64>,
    /// `count[d * primary..]`: options left per primary item at level `d`.
    count: Vec<u16>,
    /// Primary items covered at each level.
    covered: Vec<u32>,
    depth: usize,
    /// Scratch for [`Bits::count_below`]: the item branched on and the
    /// next option to try, per level.
    item: Vec<u32>,
    next: Vec<u32>,
}

/// The counts of a covered item: never the fewest.
const COVERED: u16 = u16::MAX;

impl Bits {
    /// The search structure with nothing chosen, over `options` options.
    pub fn new(table: Arc<Table>, options: usize) -> Bits {
        let (w, p) = (table.words, table.primary);
        let mut live = vec![0u64; w];
        for k in 0..options {
            live[k / 64] |= 1 << (k % 64);
        }
        let count = (0..p)
            .map(|i| {
                table.covering[i * w..(i + 1) * w]
                    .iter()
                    .map(|x| x.count_ones())
                    .sum::<u32>() as u16
            })
            .collect();
        Bits {
            table,
            live,
            count,
            covered: vec![0],
            depth: 0,
            item: Vec::new(),
            next: Vec::new(),
        }
    }

    /// Makes room for level `d`.
    #[inline]
    fn reserve(&mut self, d: usize) {
        let (w, p) = (self.table.words, self.table.primary);
        if self.covered.len() <= d {
            self.live.resize((d + 1) * w, 0);
            self.count.resize((d + 1) * p, 0);
            self.covered.resize(d + 1, 0);
        }
    }

    /// Level `d + 1` = level `d` with option `k` chosen.
    #[inline]
    fn step(&mut self, d: usize, k: usize) {
        self.reserve(d + 1);
        let t = &*self.table;
        let (w, p) = (t.words, t.primary);
        let (lo, hi) = self.live.split_at_mut((d + 1) * w);
        let (from, to) = (&lo[d * w..], &mut hi[..w]);
        let (clo, chi) = self.count.split_at_mut((d + 1) * p);
        let count = &mut chi[..p];
        count.copy_from_slice(&clo[d * p..]);
        let conflict = &t.conflict[k * w..(k + 1) * w];
        for (j, ((to, &from), &conflict)) in to.iter_mut().zip(from).zip(conflict).enumerate() {
            let mut dead = from & conflict;
            *to = from & !conflict;
            while dead != 0 {
                let o = j * 64 + dead.trailing_zeros() as usize;
                dead &= dead - 1;
                let (a, b) = (t.starts[o] as usize, t.starts[o + 1] as usize);
                for &i in &t.items[a..b] {
                    // SAFETY: `Table::new` writes into `items` only primary
                    // items, each below `primary`, and `count` is the
                    // `primary` counts of one level, so `i` is in bounds.
                    // (The hot loop of the search: a checked index costs
                    // a compare and a branch per decrement.)
                    let c = unsafe { count.get_unchecked_mut(i as usize) };
                    *c = c.wrapping_sub(1);
                }
            }
        }
        let mine = &t.items[t.starts[k] as usize..t.starts[k + 1] as usize];
        for &i in mine {
            count[i as usize] = COVERED;
        }
        self.covered[d + 1] = self.covered[d] + mine.len() as u32;
    }

    #[inline]
    fn solved_at(&self, d: usize) -> bool {
        self.covered[d] as usize == self.table.primary
    }

    /// The uncovered primary item with the fewest options at level `d`
    /// (first on ties), and how many.
    #[inline]
    fn choose(&self, d: usize) -> (usize, u16) {
        let p = self.table.primary;
        let count = &self.count[d * p..(d + 1) * p];
        // Two passes that the compiler turns into vector code: the
        // minimum, then where it first is.
        let fewest = count.iter().copied().fold(COVERED, u16::min);
        let i = count.iter().position(|&c| c == fewest).unwrap_or(0);
        (i, fewest)
    }

    /// The first option at or after `from` that is live at level `d` and
    /// covers primary item `i`.
    #[inline]
    fn next_option(&self, d: usize, i: usize, from: usize) -> Option<usize> {
        let w = self.table.words;
        let live = &self.live[d * w..(d + 1) * w];
        let cov = &self.table.covering[i * w..(i + 1) * w];
        let mut j = from / 64;
        if j >= w {
            return None;
        }
        let mut word = live[j] & cov[j] & (!0u64 << (from % 64));
        loop {
            if word != 0 {
                return Some(j * 64 + word.trailing_zeros() as usize);
            }
            j += 1;
            if j == w {
                return None;
            }
            word = live[j] & cov[j];
        }
    }

    /// Whether every primary item is covered.
    pub fn solved(&self) -> bool {
        self.solved_at(self.depth)
    }

    /// Chooses option `k` at the current level.
    pub fn apply(&mut self, k: u32) {
        self.step(self.depth, k as usize);
        self.depth += 1;
    }

    /// Goes back one level (the option chosen there is not needed).
    pub fn undo(&mut self) {
        self.depth -= 1;
    }

    /// The options the search tries next, in order.
    pub fn branches(&self, out: &mut Vec<u32>) {
        let d = self.depth;
        if self.solved_at(d) {
            return;
        }
        let (i, _) = self.choose(d);
        let mut from = 0;
        while let Some(k) = self.next_option(d, i, from) {
            out.push(k as u32);
            from = k + 1;
        }
    }

    /// Counts the nodes and solutions strictly below the current level.
    pub fn count_below(&mut self) -> Below {
        let top = self.depth;
        let mut below = Below::default();
        let mut d = top;
        let mut entering = true;
        loop {
            if entering {
                // A new node at level d: choose its item, or go back up.
                entering = false;
                let (i, fewest) = match self.solved_at(d) {
                    true => (0, 0),
                    false => self.choose(d),
                };
                if fewest == 0 {
                    if d == top {
                        return below;
                    }
                    d -= 1;
                } else {
                    if self.item.len() <= d {
                        self.item.resize(d + 1, 0);
                        self.next.resize(d + 1, 0);
                    }
                    self.item[d] = i as u32;
                    self.next[d] = 0;
                }
            }
            // The next option at level d, or back up.
            match self.next_option(d, self.item[d] as usize, self.next[d] as usize) {
                Some(k) => {
                    self.next[d] = k as u32 + 1;
                    self.step(d, k);
                    d += 1;
                    below.nodes += 1;
                    below.depth = below.depth.max((d - top) as u64);
                    if self.solved_at(d) {
                        below.solutions += 1;
                    }
                    entering = true;
                }
                None if d == top => return below,
                None => d -= 1,
            }
        }
    }
}
