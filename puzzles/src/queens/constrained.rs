//! The count kernel of N-Queens: the subtree of a board with at most 16
//! rows left, walked as `walker.rs`'s moves walk it, in the same order,
//! only faster (count mode only; a test holds the two to the same nodes).
//!
//! The rows left (one 32-bit lane each of a 512-bit register, in row
//! order) keep their free squares: a queen on row `j`, column bit `q`
//! takes from row `i` the squares `q`, `q << |i - j|` and `q >> |i - j|`,
//! for all rows in four vector instructions. A board has no children when
//! a row left has no free square, or the rows left together miss a column
//! not yet taken (the forward check); otherwise its children fill the row
//! with the fewest free squares, the lowest of a tie.
//!
//! The walk is tuned where its time goes: the row with one or two free
//! squares, the usual case, is found by a compare, not a minimum; the last
//! child of a board continues the loop instead of recursing; the last two
//! rows are filled in scalar registers (`pair`). Each of these keeps the
//! same boards, in the same order. A complete Side board is weighed by the
//! rotation check of `symmetry.rs`.
//!
//! Three paths, one tree: AVX-512 (F and VPOPCNTDQ) keeps the rows in one
//! register; elsewhere the same walk runs on arrays of 16 rows, one a
//! depth, with the distance between any two lanes' rows in a table
//! (`scalar_walk!`), compiled twice: for x86-64-v3 (AVX2, BMI, POPCNT)
//! and for the build's baseline target (x86-64-v2 on x86-64, set in
//! `.cargo/config.toml`: what `HYSOLVE_SIMD=none` and aarch64 get). Each
//! path picks the same row, tries the same squares in the same order and
//! cuts the same boards, so every path counts the same nodes ([`path`]
//! says which runs).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::symmetry::{Bounds, Class};
use hysolve::advanced::simd::{self, Level};

/// The most rows one register holds.
pub(super) const LANES: u32 = 16;

/// The instructions the counter uses in this process: AVX-512 where the
/// processor has F and VPOPCNTDQ and [`simd::level`] allows them, the
/// portable walk compiled for x86-64-v3 at `avx2`, the portable walk for
/// the baseline target otherwise. Every path visits the same boards.
pub(super) fn path() -> Level {
    match simd::level() {
        Level::Avx512 if supported() => Level::Avx512,
        Level::Avx512 | Level::Avx2 if simd::detected() >= Level::Avx2 => Level::Avx2,
        _ => Level::None,
    }
}

/// Whether this processor has the instructions `Walk::start` is compiled
/// for (the standard library caches the answer after its first question).
fn supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vpopcntdq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Running totals of a counter.
#[derive(Debug, Default)]
pub(super) struct Tally {
    pub solutions: u64,
    pub nodes: u64,
}

/// Counts the completions of a board of `class` whose rows `open` (at
/// most [`LANES`] of them) are not filled yet, `free[r]` holding the free
/// squares of row `r`, `unused` the columns not taken and `board[r]` the
/// queen (a bit) of each filled row; adds each board below it to
/// `t.nodes` (the board itself is counted by the caller). Visits the
/// boards `Walker`'s moves reach, in the same order. Runs on `path`.
#[allow(clippy::too_many_arguments)]
pub(super) fn count(
    class: Class,
    b: &Bounds,
    path: Level,
    free: &[u32; 32],
    open: u32,
    unused: u32,
    board: &[u32; 32],
    t: &mut Tally,
) {
    assert!(
        open != 0 && open.count_ones() <= LANES,
        "1 to {LANES} rows left"
    );
    // Lane `k` holds the `k`-th row left, in row order.
    let mut fr = [0u32; LANES as usize];
    let mut rows = [0i32; LANES as usize];
    let mut left = open;
    let mut k = 0;
    while left != 0 {
        let r = left.trailing_zeros();
        left &= left - 1;
        fr[k] = free[r as usize];
        rows[k] = r as i32;
        k += 1;
    }
    let lanes = ((1u64 << k) - 1) as u32;
    let mut walk = Walk {
        b: *b,
        class,
        rows,
        board: *board,
        levels: [[0; LANES as usize]; LANES as usize],
        dist: [[0; LANES as usize]; LANES as usize],
        t: Tally::default(),
    };
    match path {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            // A real check, not a debug one: `start` runs AVX-512
            // instructions. It runs once a subtree, not once a board.
            assert!(
                supported(),
                "the AVX-512 path needs AVX-512 F and VPOPCNTDQ"
            );
            // SAFETY: `start` is compiled for AVX-512 F and VPOPCNTDQ, and
            // the assert above has just checked that this processor has
            // both (in every build, release included).
            unsafe { walk.start(fr, lanes, unused) };
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            assert!(
                simd::detected() >= Level::Avx2,
                "the AVX2 path needs x86-64-v3"
            );
            // SAFETY: `start_v3` is compiled for x86-64-v3 (AVX2, BMI1,
            // BMI2, LZCNT, POPCNT); the assert above has just checked that
            // this processor has them (`simd::detected` asks for each).
            unsafe { walk.start_v3(fr, lanes, unused) };
        }
        _ => walk.start_scalar(fr, lanes, unused),
    }
    t.nodes += walk.t.nodes;
    t.solutions += walk.t.solutions;
}

struct Walk {
    b: Bounds,
    class: Class,
    /// The row of each lane.
    rows: [i32; LANES as usize],
    board: [u32; 32],
    /// The distance between the rows of two lanes (the portable walk's,
    /// made by its start).
    dist: [[u8; LANES as usize]; LANES as usize],
    /// The portable walk's rows left, one array a depth (`scalar_walk!`).
    levels: [[u32; LANES as usize]; LANES as usize],
    t: Tally,
}

#[cfg(target_arch = "x86_64")]
impl Walk {
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    fn start(&mut self, free: [u32; LANES as usize], lanes: u32, unused: u32) {
        // SAFETY: `free` is 16 `u32`s, the 64 bytes an unaligned load reads.
        let fr = unsafe { _mm512_loadu_si512(free.as_ptr().cast()) };
        if fits(fr, lanes, unused) {
            self.below(fr, lanes, unused);
        }
    }

    /// Fills the rows of the lanes set in `rem`, whose free squares are
    /// `fr`; `unused` are the columns not taken.
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    fn below(&mut self, mut fr: __m512i, mut rem: u32, mut unused: u32) {
        let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        // SAFETY: `rows` is 16 `i32`s, the 64 bytes an unaligned load reads.
        let rowv = unsafe { _mm512_loadu_si512(self.rows.as_ptr().cast()) };
        // The last child that fits continues here instead of recursing.
        loop {
            // The row left with the fewest free squares, the lowest of a
            // tie: a compare for one or two, else one minimum over (free
            // squares << 4 | lane).
            let pc = _mm512_popcnt_epi32(fr);
            let m = rem as u16;
            let one = _mm512_mask_cmple_epu32_mask(m, pc, _mm512_set1_epi32(1));
            let j = if one != 0 {
                one.trailing_zeros()
            } else {
                let two = _mm512_mask_cmple_epu32_mask(m, pc, _mm512_set1_epi32(2));
                if two != 0 {
                    two.trailing_zeros()
                } else {
                    let key = _mm512_or_si512(_mm512_slli_epi32::<4>(pc), lane);
                    let key = _mm512_mask_mov_epi32(_mm512_set1_epi32(i32::MAX), m, key);
                    (_mm512_reduce_min_epi32(key) & 15) as u32
                }
            };
            let mut f = lane_of(fr, j);
            let row = self.rows[j as usize];
            let rest = rem & !(1 << j);
            if rest == 0 {
                self.leaves(row, f);
                return;
            }
            if rest & (rest - 1) == 0 {
                let k = rest.trailing_zeros();
                let g = lane_of(fr, k);
                self.pair(row, f, self.rows[k as usize], g, unused);
                return;
            }
            let dist = _mm512_abs_epi32(_mm512_sub_epi32(rowv, _mm512_set1_epi32(row)));
            let mut tail = None;
            while f != 0 {
                let bit = f & f.wrapping_neg();
                f ^= bit;
                self.t.nodes += 1;
                self.board[row as usize] = bit;
                let q = _mm512_set1_epi32(bit as i32);
                let taken = _mm512_or_si512(
                    q,
                    _mm512_or_si512(_mm512_sllv_epi32(q, dist), _mm512_srlv_epi32(q, dist)),
                );
                // Rows filled become 0, so that the forward check may OR
                // every lane.
                let next = _mm512_maskz_andnot_epi32(rest as u16, taken, fr);
                if fits(next, rest, unused & !bit) {
                    if f == 0 {
                        tail = Some((next, bit));
                    } else {
                        self.below(next, rest, unused & !bit);
                    }
                }
            }
            let Some((next, bit)) = tail else { return };
            // `board[row]` still holds `bit`: it was the last one written.
            fr = next;
            rem = rest;
            unused &= !bit;
        }
    }
}

/// The walk below on arrays of rows, in portable code: `self.levels[d][k]`
/// holds the free squares of lane `k` at depth `d` of the walk (lanes not
/// in `rem` are not read), `rem` the lanes left. A child's rows are written
/// straight into the next level, so no array is copied on the way down,
/// and the last child continues the loop one level deeper. The same rules
/// as the AVX-512 walk, in the same order.
macro_rules! scalar_walk {
    ($start:ident, $below:ident $(, #[$feature:meta])?) => {
        impl Walk {
            $(#[$feature])?
            fn $start(&mut self, fr: [u32; LANES as usize], rem: u32, unused: u32) {
                if fits_scalar(&fr, rem, unused) {
                    for (a, d) in self.dist.iter_mut().enumerate() {
                        for (b, d) in d.iter_mut().enumerate() {
                            *d = self.rows[a].abs_diff(self.rows[b]) as u8;
                        }
                    }
                    self.levels[0] = fr;
                    self.$below(0, rem, unused);
                }
            }

            $(#[$feature])?
            fn $below(&mut self, mut d: usize, mut rem: u32, mut unused: u32) {
                loop {
                    let j = fewest(&self.levels[d], rem);
                    let mut f = self.levels[d][j as usize];
                    let row = self.rows[j as usize];
                    let rest = rem & !(1 << j);
                    if rest == 0 {
                        self.leaves(row, f);
                        return;
                    }
                    if rest & (rest - 1) == 0 {
                        let k = rest.trailing_zeros();
                        let g = self.levels[d][k as usize];
                        self.pair(row, f, self.rows[k as usize], g, unused);
                        return;
                    }
                    // Two lanes or more are left, so `d + 1` is at most
                    // `LANES - 2`: every level indexed exists.
                    let mut tail = None;
                    while f != 0 {
                        let bit = f & f.wrapping_neg();
                        f ^= bit;
                        self.t.nodes += 1;
                        self.board[row as usize] = bit;
                        // Each row left loses the queen's column and its two
                        // diagonals, with the forward check in the same pass:
                        // the first row left empty ends it, as `fits_scalar`
                        // would decide.
                        let mut all = 0;
                        let mut left = rest;
                        while left != 0 {
                            let k = left.trailing_zeros();
                            left &= left - 1;
                            let dist = self.dist[j as usize][k as usize] as u32;
                            let v = self.levels[d][k as usize]
                                & !(bit | (bit << dist) | (bit >> dist));
                            self.levels[d + 1][k as usize] = v;
                            all |= v;
                            if v == 0 {
                                all = !0;
                                break;
                            }
                        }
                        if all == unused & !bit {
                            if f == 0 {
                                tail = Some(bit);
                            } else {
                                self.$below(d + 1, rest, unused & !bit);
                            }
                        }
                    }
                    let Some(bit) = tail else { return };
                    // `board[row]` still holds `bit`, and `levels[d + 1]` its
                    // rows: both were the last ones written.
                    d += 1;
                    rem = rest;
                    unused &= !bit;
                }
            }
        }
    };
}

scalar_walk!(start_scalar, below_scalar);
#[cfg(target_arch = "x86_64")]
scalar_walk!(
    start_v3,
    below_v3,
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
);

/// The lane of `rem` whose row has the fewest free squares, the lowest of a
/// tie (as the AVX-512 walk picks it): one or two squares found without a
/// popcount, the usual case.
#[inline(always)]
fn fewest(fr: &[u32; LANES as usize], rem: u32) -> u32 {
    let mut two = None;
    let mut left = rem;
    while left != 0 {
        let k = left.trailing_zeros();
        left &= left - 1;
        let f = fr[k as usize];
        let below = f & (f - 1);
        if below == 0 {
            return k;
        }
        if two.is_none() && below & (below - 1) == 0 {
            two = Some(k);
        }
    }
    if let Some(k) = two {
        return k;
    }
    let mut best = u32::MAX;
    let mut left = rem;
    while left != 0 {
        let k = left.trailing_zeros();
        left &= left - 1;
        best = best.min((fr[k as usize].count_ones() << 4) | k);
    }
    best & 15
}

/// The forward check on an array of rows: every row of `rem` has a free
/// square, and together they cover the columns not taken (the lanes
/// outside `rem` are not read).
#[inline(always)]
fn fits_scalar(fr: &[u32; LANES as usize], rem: u32, unused: u32) -> bool {
    let mut all = 0;
    let mut left = rem;
    while left != 0 {
        let k = left.trailing_zeros();
        left &= left - 1;
        let f = fr[k as usize];
        if f == 0 {
            return false;
        }
        all |= f;
    }
    all == unused
}

impl Walk {
    /// The last two rows left: `row` with free squares `f` (filled first,
    /// as `below` would), then `other` with free squares `g`; `unused`
    /// holds their two columns. Counts the boards `below` would place:
    /// each square of `f`, and the square left for `other` when it is
    /// free and off the first queen's diagonals.
    fn pair(&mut self, row: i32, mut f: u32, other: i32, g: u32, unused: u32) {
        let d = row.abs_diff(other);
        self.t.nodes += f.count_ones() as u64;
        while f != 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            let last = unused & !bit & g & !((bit << d) | (bit >> d));
            if last == 0 {
                continue;
            }
            self.t.nodes += 1;
            self.board[row as usize] = bit;
            self.board[other as usize] = last;
            self.t.solutions += self.weight();
        }
    }

    /// The last row left, `row`, with free squares `f`: each is a board.
    fn leaves(&mut self, row: i32, mut f: u32) {
        let boards = f.count_ones() as u64;
        self.t.nodes += boards;
        match self.class {
            Class::Plain => return self.t.solutions += boards,
            Class::Corner => return self.t.solutions += 8 * boards,
            Class::Side => {}
        }
        while f != 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            self.board[row as usize] = bit;
            self.t.solutions += self.weight();
        }
    }

    /// The weight of the complete board `board` holds.
    #[inline]
    fn weight(&self) -> u64 {
        let n = self.b.last() as usize + 1;
        self.b.weight(self.class, &self.board[..n])
    }
}

/// The free squares of lane `k`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn lane_of(fr: __m512i, k: u32) -> u32 {
    _mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_permutexvar_epi32(
        _mm512_set1_epi32(k as i32),
        fr,
    ))) as u32
}

/// The forward check: every row of `rem` has a free square, and together
/// they cover the columns not taken. The lanes outside `rem` are 0.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn fits(fr: __m512i, rem: u32, unused: u32) -> bool {
    let rem = rem as u16;
    _mm512_test_epi32_mask(fr, fr) == rem && _mm512_reduce_or_epi32(fr) as u32 == unused
}
