//! One half of the free cells of a 5x5 square whose diagonals are placed.
//!
//! With both diagonals filled, 16 cells are left. Rows 1 and 5 cross
//! columns 2 and 4 in four free cells, the half's *corners*; each of these
//! four lines has one more free cell, its *tail* (row 1's in column 3,
//! column 2's in row 3, ...). Once the corners are chosen, every tail is its
//! line's sum less the line's other four cells. These 8 cells are the *top*
//! half. The *side* half is the same shape turned a quarter: columns 1 and 5
//! against rows 2 and 4. The two halves share no cell and together fill the
//! 16; each of the eight lines named lies wholly in one half (with its two
//! diagonal cells). The middle row and the middle column meet both halves,
//! but need no check: when the 25 cells hold the numbers 1..25 once each
//! they sum to 325 = 5 x 65, so a fifth row (column) sums to 65 when the
//! other four do.
//!
//! A square is therefore a top half and a side half whose numbers are the
//! 16 the diagonals left, split 8 and 8. [`each`] lists the halves that
//! fit the line sums, each with its numbers as a 16-bit set; counting the
//! squares is a join of the two lists on complementary sets.
//!
//! The walk picks the corners one by one from bitsets of the numbers
//! still free. For a line with sum `k` and two cells left, the numbers `x`
//! whose partner `k - x` is also free are the free set intersected with its
//! own mirror image about `k/2`: the mirror is a shift of the bit-reversed
//! set, kept alongside the set itself. The last corner lies on two such
//! lines at once, so one AND of two mirrors gives every completion.

use super::Allowed;

/// The cells of a half, in the order [`each`] hands out their numbers:
/// corners `p` and `q` (on line X), `X`'s tail, corner `r` (on X' with
/// `s`, and on Y with `p`), `Y`'s tail, corner `s`, then the tails of X'
/// and Y' (Y holds `p` and `r`, Y' holds `q` and `s`).
#[derive(Debug, Clone, Copy)]
pub struct Half {
    /// The cells it fills, as indices of the 5x5 square.
    pub cells: [usize; 8],
    /// The two diagonal cells of each of the lines X, X', Y and Y'.
    pub ends: [[usize; 2]; 4],
}

/// Rows 1 and 5 against columns 2 and 4.
pub const TOP: Half = Half {
    cells: [1, 3, 2, 21, 11, 23, 22, 13],
    ends: [[0, 4], [20, 24], [6, 16], [8, 18]],
};

/// Columns 1 and 5 against rows 2 and 4.
pub const SIDE: Half = Half {
    cells: [5, 15, 10, 9, 7, 19, 14, 17],
    ends: [[0, 20], [4, 24], [6, 8], [16, 18]],
};

/// The magic constant of order 5.
pub const SUM: i32 = 65;

impl Half {
    /// The sums left on X, X', Y and Y' by the diagonal numbers of `v`.
    #[inline]
    pub fn sums(&self, v: &[u8; 25]) -> [i32; 4] {
        self.ends
            .map(|[a, b]| SUM - i32::from(v[a]) - i32::from(v[b]))
    }
}

#[inline(always)]
fn bit(v: i32) -> u64 {
    1 << v
}

/// Bit 63 - v for the number v: its place in a bit-reversed set.
#[inline(always)]
fn rbit(v: i32) -> u64 {
    1 << (63 - v)
}

/// The numbers x with `k - x` in the set whose bit reversal is `rev`.
#[inline(always)]
fn mirror(rev: u64, k: i32) -> u64 {
    match k {
        2..=63 => rev >> (63 - k),
        64..=126 => rev << (k - 63),
        _ => 0,
    }
}

/// Every number but `k/2`: a number cannot be its own partner.
#[inline(always)]
fn not_half(k: i32) -> u64 {
    if k & 1 == 0 && (0..128).contains(&k) {
        !bit(k / 2)
    } else {
        !0
    }
}

/// Calls `f(set, numbers)` for every filling of `half` from the numbers
/// in `free` (bit v for v) that gives its four lines the sums `sums` and
/// puts only allowed numbers in its cells; `set` holds `index[v]` of its 8
/// numbers, and `numbers` follows the order of `half.cells`. Always in the
/// same order.
#[inline(always)]
pub fn each(
    half: &Half,
    free: u64,
    sums: [i32; 4],
    allowed: &Allowed,
    index: &[u16; 32],
    mut f: impl FnMut(u16, [u8; 8]),
) {
    let [p, q, tx, r, ty, s, tx2, ty2] = half.cells;
    let [sx, sx2, sy, sy2] = sums;
    let (ok, rev) = (&allowed.ok, &allowed.rev);
    let free_rev = free.reverse_bits();
    let mut ps = free & ok[p];
    while ps != 0 {
        let a = ps.trailing_zeros() as i32;
        ps &= ps - 1;
        let (f1, r1) = (free & !bit(a), free_rev & !rbit(a));
        let k = sx - a; // q + X's tail
        let mut qs = f1 & ok[q] & mirror(r1 & rev[tx], k) & not_half(k);
        while qs != 0 {
            let b = qs.trailing_zeros() as i32;
            qs &= qs - 1;
            let m = k - b;
            let (f2, r2) = (f1 & !bit(b) & !bit(m), r1 & !rbit(b) & !rbit(m));
            let set2 = index[a as usize] | index[b as usize] | index[m as usize];
            let k1 = sy - a; // r + Y's tail
            let mut rs = f2 & ok[r] & mirror(r2 & rev[ty], k1) & not_half(k1);
            while rs != 0 {
                let d = rs.trailing_zeros() as i32;
                rs &= rs - 1;
                let e = k1 - d;
                // s + X''s tail = ka, s + Y''s tail = kb: equal sums would
                // put one number in both tails.
                let (ka, kb) = (sx2 - d, sy2 - b);
                if ka == kb {
                    continue;
                }
                let (f3, r3) = (f2 & !bit(d) & !bit(e), r2 & !rbit(d) & !rbit(e));
                let set4 = set2 | index[d as usize] | index[e as usize];
                let mut ss = f3
                    & ok[s]
                    & mirror(r3 & rev[tx2], ka)
                    & mirror(r3 & rev[ty2], kb)
                    & not_half(ka)
                    & not_half(kb);
                while ss != 0 {
                    let x = ss.trailing_zeros() as i32;
                    ss &= ss - 1;
                    let (g, h) = (ka - x, kb - x);
                    let set = set4 | index[x as usize] | index[g as usize] | index[h as usize];
                    f(set, [a, b, m, d, e, x, g, h].map(|v| v as u8));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of a half, as cells, must be its tail's line: the
    /// half's cells and the diagonal ends make exactly four lines of five.
    #[test]
    fn halves_are_four_lines_each_and_split_the_free_cells() {
        let diagonal = |c: usize| c / 5 == c % 5 || c / 5 + c % 5 == 4;
        let mut seen = [false; 25];
        for half in [TOP, SIDE] {
            let [p, q, tx, r, ty, s, tx2, ty2] = half.cells;
            let lines = [
                [p, q, tx, half.ends[0][0], half.ends[0][1]],
                [r, s, tx2, half.ends[1][0], half.ends[1][1]],
                [p, r, ty, half.ends[2][0], half.ends[2][1]],
                [q, s, ty2, half.ends[3][0], half.ends[3][1]],
            ];
            for mut line in lines {
                line.sort_unstable();
                let row = line.iter().all(|c| c / 5 == line[0] / 5);
                let col = line.iter().all(|c| c % 5 == line[0] % 5);
                assert!(row ^ col, "{line:?} is not a row or a column");
                assert!(line.windows(2).all(|w| w[0] != w[1]));
            }
            for c in half.cells {
                assert!(!diagonal(c) && !seen[c]);
                seen[c] = true;
            }
        }
        assert_eq!(seen.iter().filter(|&&s| s).count(), 16);
    }
}
