//! Dancing links with colours (Knuth's Algorithm C, TAOCP 7.2.2.1), in flat
//! arrays of `u32`: the structure one worker searches in place.
//!
//! Cells `1..=n` head the items' vertical lists; option `k`'s cells follow
//! one another, between spacers. A spacer's `up` is the first cell of the
//! option before it and its `down` the last cell of the option after it,
//! so a walk along an option wraps around at either end. The primary
//! items still to cover form the horizontal list headed by item 0; the
//! secondary ones a list of their own, headed by item `n + 1`.
//!
//! A cell's colour: 0 uncoloured, `c > 0` colour `c`, and -1 for a cell of
//! a purified item that already has the chosen colour (hiding an option
//! leaves such cells linked: their item is settled until it is unpurified).

use super::format::Instance;

/// One cell: its vertical links, its item (`top`, from 1; a spacer holds 0
/// or minus the option's number) and its colour.
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    up: u32,
    down: u32,
    top: i32,
    color: i32,
}

/// The whole structure, in its state at some partial solution.
#[derive(Debug, Clone)]
pub struct Links {
    cells: Vec<Cell>,
    /// Horizontal links of the item lists, and each item's option count.
    llink: Vec<u32>,
    rlink: Vec<u32>,
    len: Vec<u32>,
    /// The option of each cell (spacers and headers: `u32::MAX`).
    option_of: Vec<u32>,
    /// The first cell of each option covering a primary item.
    first_primary: Vec<u32>,
}

/// What a count below a node found (the node itself excluded).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Below {
    pub nodes: u64,
    pub solutions: u64,
    /// How far below the node the deepest node lies.
    pub depth: u64,
}

impl Links {
    pub fn new(x: &Instance) -> Links {
        let n = x.items.len();
        let cell_count = n + 2 + x.options.iter().map(|o| o.items.len() + 1).sum::<usize>();
        let mut cells = vec![Cell::default(); n + 1];
        let mut option_of = vec![u32::MAX; n + 1];
        for (i, c) in cells.iter_mut().enumerate() {
            c.up = i as u32;
            c.down = i as u32;
        }
        cells.reserve(cell_count);
        let mut len = vec![0u32; n + 1];
        // The spacer before the first option.
        cells.push(Cell::default());
        option_of.push(u32::MAX);
        let mut first_primary = Vec::with_capacity(x.options.len());
        for (k, opt) in x.options.iter().enumerate() {
            let start = cells.len() as u32;
            for &(item, colour) in &opt.items {
                let i = item as usize + 1;
                let at = cells.len() as u32;
                let last = cells[i].up;
                cells.push(Cell {
                    up: last,
                    down: i as u32,
                    top: i as i32,
                    color: colour as i32,
                });
                cells[last as usize].down = at;
                cells[i].up = at;
                len[i] += 1;
                option_of.push(k as u32);
            }
            let first = opt
                .items
                .iter()
                .position(|&(item, _)| (item as usize) < x.primary)
                .expect("the parser drops options without a primary item");
            first_primary.push(start + first as u32);
            // The spacer after this option: up to its first cell; the one
            // before it, down to its last.
            let end = cells.len() as u32;
            cells[start as usize - 1].down = end - 1;
            cells.push(Cell {
                up: start,
                down: 0,
                top: -(k as i32) - 1,
                color: 0,
            });
            option_of.push(u32::MAX);
        }
        // Primary items 1..=primary in the list headed by 0; secondary ones
        // in the list headed by n + 1.
        let mut llink = vec![0u32; n + 2];
        let mut rlink = vec![0u32; n + 2];
        let mut link = |head: usize, range: std::ops::Range<usize>| {
            let mut prev = head;
            for i in range {
                rlink[prev] = i as u32;
                llink[i] = prev as u32;
                prev = i;
            }
            rlink[prev] = head as u32;
            llink[head] = prev as u32;
        };
        link(0, 1..x.primary + 1);
        link(n + 1, x.primary + 1..n + 1);
        Links {
            cells,
            llink,
            rlink,
            len,
            option_of,
            first_primary,
        }
    }

    /// Whether every primary item is covered.
    #[inline]
    pub fn solved(&self) -> bool {
        self.rlink[0] == 0
    }

    /// The primary item still to cover with the fewest options left, the
    /// first such in the items line on ties.
    #[inline]
    fn choose(&self) -> u32 {
        let mut best = self.rlink[0];
        let mut fewest = self.len[best as usize];
        let mut i = self.rlink[best as usize];
        while i != 0 && fewest > 0 {
            let l = self.len[i as usize];
            if l < fewest {
                fewest = l;
                best = i;
            }
            i = self.rlink[i as usize];
        }
        best
    }

    /// Unlinks the other cells of `p`'s option from their items.
    #[inline]
    fn hide(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let c = self.cells[q as usize];
            if c.top <= 0 {
                q = c.up;
            } else {
                if c.color >= 0 {
                    self.cells[c.up as usize].down = c.down;
                    self.cells[c.down as usize].up = c.up;
                    self.len[c.top as usize] -= 1;
                }
                q += 1;
            }
        }
    }

    /// Undoes [`Links::hide`].
    #[inline]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let c = self.cells[q as usize];
            if c.top <= 0 {
                q = c.down;
            } else {
                if c.color >= 0 {
                    self.cells[c.up as usize].down = q;
                    self.cells[c.down as usize].up = q;
                    self.len[c.top as usize] += 1;
                }
                q -= 1;
            }
        }
    }

    /// Removes item `i` and every option that covers it.
    #[inline]
    fn cover(&mut self, i: u32) {
        let mut p = self.cells[i as usize].down;
        while p != i {
            self.hide(p);
            p = self.cells[p as usize].down;
        }
        let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
        self.rlink[l as usize] = r;
        self.llink[r as usize] = l;
    }

    /// Undoes [`Links::cover`].
    #[inline]
    fn uncover(&mut self, i: u32) {
        let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
        self.rlink[l as usize] = i;
        self.llink[r as usize] = i;
        let mut p = self.cells[i as usize].up;
        while p != i {
            self.unhide(p);
            p = self.cells[p as usize].up;
        }
    }

    /// Keeps, in `p`'s item, only the options that give it `p`'s colour.
    #[inline]
    fn purify(&mut self, p: u32) {
        let c = self.cells[p as usize];
        let i = c.top as u32;
        let mut q = self.cells[i as usize].down;
        while q != i {
            if self.cells[q as usize].color == c.color {
                self.cells[q as usize].color = -1;
            } else {
                self.hide(q);
            }
            q = self.cells[q as usize].down;
        }
    }

    /// Undoes [`Links::purify`].
    #[inline]
    fn unpurify(&mut self, p: u32) {
        let c = self.cells[p as usize];
        let i = c.top as u32;
        let mut q = self.cells[i as usize].up;
        while q != i {
            if self.cells[q as usize].color < 0 {
                self.cells[q as usize].color = c.color;
            } else {
                self.unhide(q);
            }
            q = self.cells[q as usize].up;
        }
    }

    /// Takes the item of cell `p` as settled by `p`'s option.
    #[inline]
    fn commit(&mut self, p: u32) {
        let c = self.cells[p as usize];
        if c.color == 0 {
            self.cover(c.top as u32);
        } else if c.color > 0 {
            self.purify(p);
        }
    }

    /// Undoes [`Links::commit`].
    #[inline]
    fn uncommit(&mut self, p: u32) {
        let c = self.cells[p as usize];
        if c.color == 0 {
            self.uncover(c.top as u32);
        } else if c.color > 0 {
            self.unpurify(p);
        }
    }

    /// Commits the items of `x`'s option other than `x`'s own.
    #[inline]
    fn commit_others(&mut self, x: u32) {
        let mut p = x + 1;
        while p != x {
            let c = self.cells[p as usize];
            if c.top <= 0 {
                p = c.up;
            } else {
                self.commit(p);
                p += 1;
            }
        }
    }

    /// Undoes [`Links::commit_others`], in the reverse order.
    #[inline]
    fn uncommit_others(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let c = self.cells[p as usize];
            if c.top <= 0 {
                p = c.down;
            } else {
                self.uncommit(p);
                p -= 1;
            }
        }
    }

    /// Chooses option `k` from the current state (it must be one the state
    /// still allows): covers one of its primary items, then commits the rest.
    pub fn apply(&mut self, k: u32) {
        let x = self.first_primary[k as usize];
        self.cover(self.cells[x as usize].top as u32);
        self.commit_others(x);
    }

    /// Undoes [`Links::apply`] of option `k`, the last one applied.
    pub fn undo(&mut self, k: u32) {
        let x = self.first_primary[k as usize];
        self.uncommit_others(x);
        self.uncover(self.cells[x as usize].top as u32);
    }

    /// The options the search tries next, in order: those still allowed on
    /// the primary item with fewest of them. Empty when solved or stuck.
    pub fn branches(&self, out: &mut Vec<u32>) {
        if self.solved() {
            return;
        }
        let i = self.choose();
        let mut x = self.cells[i as usize].down;
        while x != i {
            out.push(self.option_of[x as usize]);
            x = self.cells[x as usize].down;
        }
    }

    /// Counts the nodes and solutions strictly below the current state, in
    /// place; leaves the state as it found it. `stack` is scratch space.
    pub fn count_below(&mut self, stack: &mut Vec<(u32, u32)>) -> Below {
        let mut below = Below::default();
        stack.clear();
        loop {
            // Descend from the current node, or go back to the next sibling.
            let branch = if self.solved() {
                None
            } else {
                let i = self.choose();
                (self.len[i as usize] > 0).then_some(i)
            };
            let (i, x) = match branch {
                Some(i) => {
                    self.cover(i);
                    (i, self.cells[i as usize].down)
                }
                None => loop {
                    let Some((pi, px)) = stack.pop() else {
                        return below;
                    };
                    self.uncommit_others(px);
                    let next = self.cells[px as usize].down;
                    if next != pi {
                        break (pi, next);
                    }
                    self.uncover(pi);
                },
            };
            below.nodes += 1;
            self.commit_others(x);
            stack.push((i, x));
            below.depth = below.depth.max(stack.len() as u64);
            if self.solved() {
                below.solutions += 1;
            }
        }
    }

    /// Options in the structure.
    pub fn options(&self) -> usize {
        self.first_primary.len()
    }
}
