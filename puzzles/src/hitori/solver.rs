//! The reasoning core: a partial shading, propagation to a fixpoint, and
//! connectivity reasoning.
//!
//! A cell is unknown, white (unshaded) or black (shaded). Two cells are
//! *peers* when they share a row or a column and their number. The rules,
//! and what each decision forces:
//!
//! - rule 1 (no repeated number among whites of a line): a white cell makes
//!   every peer black;
//! - rule 2 (blacks never touch): a black cell makes its neighbours white;
//! - rule 4 (a black cell hides a duplicate: some peer is white): a black
//!   cell with one non-black peer left makes it white; a black cell with none
//!   is a contradiction; an unknown cell whose peers are all black must be
//!   white;
//! - rule 3 (whites connected): the non-black cells must stay connected. An
//!   unknown cell that is an articulation point of the non-black cells must
//!   be white, because shading it would cut them into parts that each keep a
//!   white cell forever (a part of one cell cannot be shaded beside a black
//!   cell; a larger part cannot be shaded whole). A disconnected non-black
//!   region is a contradiction.
//!
//! Local rules run from a queue of freshly decided cells; the articulation
//! pass (Tarjan's lowpoint DFS, iterative) runs when the queue is empty and
//! may feed the queue again.
//!
//! The articulation pass is skipped after shading cells that are *loose*:
//! off the border and with no shaded diagonal neighbour. Invariant: after a
//! propagation, the non-black cells are connected and no unknown cell is an
//! articulation point of them (the root's propagation always runs the pass).
//! Whitening keeps the invariant (the non-black cells do not change).
//! Shading a loose cell b keeps it: b's eight surrounding cells are all
//! non-black and ring it, so its neighbours stay connected; and an unknown u
//! that became an articulation point would make {u, b} a separating pair,
//! which in the plane needs a closed chain of shaded cells (diagonal steps
//! allowed, the border counting as shaded) through both; a chain through b
//! needs a shaded or border cell among b's eight surrounding cells other
//! than u, and a loose b has none.

use super::grid::Grid;

pub(crate) const UNKNOWN: u8 = 0;
pub(crate) const WHITE: u8 = 1;
pub(crate) const BLACK: u8 = 2;

/// The fixed structure of a grid: its shape and its peer lists.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub rows: usize,
    pub cols: usize,
    /// Peers of cell `i`: `peers[peer_start[i]..peer_start[i + 1]]`.
    peer_start: Vec<u32>,
    peers: Vec<u32>,
    /// The four neighbours of each cell (up, down, left, right), [`NONE`] off the grid.
    neighbours: Vec<[u32; 4]>,
}

/// No neighbour on this side.
const NONE: u32 = u32::MAX;

/// A partial shading. Cloned for every child, so kept flat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shading {
    pub cells: Box<[u8]>,
    pub unknown: u32,
    pub black: u32,
}

/// A worker's buffers for the propagation (part of its state), kept
/// between calls so that the search allocates nothing but the children it
/// returns.
#[derive(Default)]
pub struct Scratch {
    queue: Vec<u32>,
    disc: Vec<u32>,
    low: Vec<u32>,
    stack: Vec<(u32, u8)>,
}

/// Where a contradiction was met: the branch is dead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dead;

impl Layout {
    pub(crate) fn new(grid: &Grid) -> Layout {
        let (rows, cols) = (grid.rows, grid.cols);
        let mut peer_start = Vec::with_capacity(grid.len() + 1);
        let mut peers = Vec::new();
        // Same-number cells of each line, found by sorting (value, position).
        let mut row_groups: Vec<Vec<(u32, u32)>> = Vec::with_capacity(rows);
        for r in 0..rows {
            let mut line: Vec<(u32, u32)> = (0..cols)
                .map(|c| (grid.at(r, c), (r * cols + c) as u32))
                .collect();
            line.sort_unstable();
            row_groups.push(line);
        }
        let mut col_groups: Vec<Vec<(u32, u32)>> = Vec::with_capacity(cols);
        for c in 0..cols {
            let mut line: Vec<(u32, u32)> = (0..rows)
                .map(|r| (grid.at(r, c), (r * cols + c) as u32))
                .collect();
            line.sort_unstable();
            col_groups.push(line);
        }
        let same = |line: &[(u32, u32)], v: u32, me: u32, out: &mut Vec<u32>| {
            let lo = line.partition_point(|&(x, _)| x < v);
            out.extend(
                line[lo..]
                    .iter()
                    .take_while(|&&(x, _)| x == v)
                    .map(|&(_, i)| i)
                    .filter(|&i| i != me),
            );
        };
        let mut neighbours = Vec::with_capacity(grid.len());
        for (r, row_group) in row_groups.iter().enumerate() {
            for (c, col_group) in col_groups.iter().enumerate() {
                let i = (r * cols + c) as u32;
                let v = grid.at(r, c);
                peer_start.push(peers.len() as u32);
                same(row_group, v, i, &mut peers);
                same(col_group, v, i, &mut peers);
                let at = |ok: bool, j: usize| if ok { j as u32 } else { NONE };
                let i = i as usize;
                neighbours.push([
                    at(r > 0, i.wrapping_sub(cols)),
                    at(r + 1 < rows, i + cols),
                    at(c > 0, i.wrapping_sub(1)),
                    at(c + 1 < cols, i + 1),
                ]);
            }
        }
        peer_start.push(peers.len() as u32);
        Layout {
            rows,
            cols,
            peer_start,
            peers,
            neighbours,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.rows * self.cols
    }

    #[inline]
    pub(crate) fn peers(&self, i: usize) -> &[u32] {
        &self.peers[self.peer_start[i] as usize..self.peer_start[i + 1] as usize]
    }

    /// Neighbour of `i` in direction `d` (0 up, 1 down, 2 left, 3 right).
    #[inline]
    fn neighbour(&self, i: usize, d: u8) -> Option<usize> {
        let j = self.neighbours[i][d as usize];
        (j != NONE).then_some(j as usize)
    }

    /// The empty shading.
    pub(crate) fn blank(&self) -> Shading {
        Shading {
            cells: vec![UNKNOWN; self.len()].into_boxed_slice(),
            unknown: self.len() as u32,
            black: 0,
        }
    }

    /// Decides `cells` (each with its colour), then propagates to a fixpoint,
    /// in the buffers `sc`. `s` must be the result of an earlier
    /// propagation, or `first` set.
    pub(crate) fn decide(
        &self,
        s: &mut Shading,
        cells: &[(usize, u8)],
        first: bool,
        sc: &mut Scratch,
    ) -> Result<(), Dead> {
        sc.queue.clear();
        for &(i, colour) in cells {
            assign(s, i, colour, &mut sc.queue)?;
        }
        self.propagate(s, sc, first)
    }

    /// Whether the black cell `b` touches the border or a black cell diagonally.
    #[inline]
    fn attached(&self, s: &Shading, b: usize) -> bool {
        let [up, down, left, right] = self.neighbours[b];
        if up == NONE || down == NONE || left == NONE || right == NONE {
            return true;
        }
        let [_, _, ul, ur] = self.neighbours[up as usize];
        let [_, _, dl, dr] = self.neighbours[down as usize];
        [ul, ur, dl, dr]
            .iter()
            .any(|&d| s.cells[d as usize] == BLACK)
    }

    fn propagate(&self, s: &mut Shading, sc: &mut Scratch, first: bool) -> Result<(), Dead> {
        let mut shaded = first;
        loop {
            while let Some(i) = sc.queue.pop() {
                let i = i as usize;
                if s.cells[i] == WHITE {
                    for &p in self.peers(i) {
                        assign(s, p as usize, BLACK, &mut sc.queue)?;
                    }
                    continue;
                }
                shaded = shaded || self.attached(s, i);
                for d in 0..4 {
                    if let Some(q) = self.neighbour(i, d) {
                        assign(s, q, WHITE, &mut sc.queue)?;
                    }
                }
                self.hide_duplicate(s, i, &mut sc.queue)?;
                for &p in self.peers(i) {
                    let p = p as usize;
                    match s.cells[p] {
                        BLACK => self.hide_duplicate(s, p, &mut sc.queue)?,
                        UNKNOWN if self.peers(p).iter().all(|&q| s.cells[q as usize] == BLACK) => {
                            assign(s, p, WHITE, &mut sc.queue)?
                        }
                        _ => {}
                    }
                }
            }
            if !shaded {
                return Ok(());
            }
            shaded = false;
            self.articulation(s, sc)?;
            if sc.queue.is_empty() {
                return Ok(());
            }
        }
    }

    /// Rule 4 for the black cell `b`: it needs a peer that is or can become white.
    #[inline]
    fn hide_duplicate(&self, s: &mut Shading, b: usize, queue: &mut Vec<u32>) -> Result<(), Dead> {
        let mut candidate = None;
        for &p in self.peers(b) {
            match s.cells[p as usize] {
                WHITE => return Ok(()),
                UNKNOWN if candidate.is_some() => return Ok(()),
                UNKNOWN => candidate = Some(p as usize),
                _ => {}
            }
        }
        match candidate {
            Some(p) => assign(s, p, WHITE, queue),
            None => Err(Dead),
        }
    }

    /// Checks that the non-black cells are connected and whitens every
    /// unknown articulation point among them (queued for propagation).
    fn articulation(&self, s: &mut Shading, sc: &mut Scratch) -> Result<(), Dead> {
        let n = self.len();
        let Some(start) = s.cells.iter().position(|&c| c != BLACK) else {
            return Err(Dead);
        };
        sc.disc.clear();
        sc.disc.resize(n, 0);
        sc.low.clear();
        sc.low.resize(n, 0);
        sc.stack.clear();
        let mut time = 1u32;
        sc.disc[start] = 1;
        sc.low[start] = 1;
        sc.stack.push((start as u32, 0));
        let mut visited = 1u32;
        let mut root_children = 0;
        while let Some(top) = sc.stack.last_mut() {
            let v = top.0 as usize;
            if top.1 < 4 {
                let d = top.1;
                top.1 += 1;
                if let Some(w) = self.neighbour(v, d)
                    && s.cells[w] != BLACK
                {
                    if sc.disc[w] == 0 {
                        time += 1;
                        sc.disc[w] = time;
                        sc.low[w] = time;
                        visited += 1;
                        sc.stack.push((w as u32, 0));
                    } else if sc.disc[w] < sc.low[v] {
                        sc.low[v] = sc.disc[w];
                    }
                }
                continue;
            }
            sc.stack.pop();
            let Some(&(parent, _)) = sc.stack.last() else {
                break;
            };
            let p = parent as usize;
            if sc.low[v] < sc.low[p] {
                sc.low[p] = sc.low[v];
            }
            if p == start {
                root_children += 1;
            } else if sc.low[v] >= sc.disc[p] && s.cells[p] == UNKNOWN {
                assign(s, p, WHITE, &mut sc.queue)?;
            }
        }
        if visited as usize != n - s.black as usize {
            return Err(Dead);
        }
        if root_children >= 2 && s.cells[start] == UNKNOWN {
            assign(s, start, WHITE, &mut sc.queue)?;
        }
        Ok(())
    }

    /// The unknown cell to branch on: the one with most unknown peers (its
    /// whitening shades the most), first in reading order among equals.
    pub(crate) fn branch_cell(&self, s: &Shading) -> Option<usize> {
        let mut best = None;
        let mut best_score = 0usize;
        for (i, &c) in s.cells.iter().enumerate() {
            if c != UNKNOWN {
                continue;
            }
            let score = 1 + self
                .peers(i)
                .iter()
                .filter(|&&p| s.cells[p as usize] == UNKNOWN)
                .count();
            if score > best_score {
                best_score = score;
                best = Some(i);
            }
        }
        best
    }
}

/// Sets an unknown cell and queues it; a decided cell must already agree.
#[inline]
fn assign(s: &mut Shading, i: usize, colour: u8, queue: &mut Vec<u32>) -> Result<(), Dead> {
    let c = s.cells[i];
    if c == UNKNOWN {
        s.cells[i] = colour;
        s.unknown -= 1;
        if colour == BLACK {
            s.black += 1;
        }
        queue.push(i as u32);
        Ok(())
    } else if c == colour {
        Ok(())
    } else {
        Err(Dead)
    }
}
