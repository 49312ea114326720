//! The count below a board of Takaken's cases, most constrained row first,
//! on AVX-512 (count mode only; `symmetry.rs` holds the cases).
//!
//! The row-order walk of `symmetry.rs` fills the rows top to bottom and
//! meets a dead end only when the next row has no free square. Here the
//! rows left (at most 16, one 32-bit lane each of a 512-bit register) keep
//! their free squares: a queen on row `j`, column bit `q` takes from row
//! `i` the squares `q`, `q << |i - j|` and `q >> |i - j|`, for all rows in
//! four vector instructions. A board is cut as soon as any row left has no
//! free square, or the rows left together miss a column not yet taken (the
//! forward check); the next row filled is the one with the fewest free
//! squares. On N-Queens 16 this visits 70 M boards where the row-order
//! walk visits 246 M (`bench-results/README.md`, "N-Queens").
//!
//! The walk is tuned where its time goes: the row with one or two free
//! squares, the usual case, is found by a compare, not a minimum; the last
//! child of a board continues the loop instead of recursing; the last two
//! rows are filled in scalar registers (`pair`). Each of these keeps the
//! same boards, in the same order.
//!
//! The cases' rules become masks of each row (`Bounds::row_mask`): a
//! Corner board keeps column 1 free in rows `1..bound1`; a Side board keeps
//! the edge columns free in rows `1..bound1` and `bound2 + 1..n`, and its
//! last row off `last_mask`.
//! (The row-order walk asks instead, at row `bound2`, that both edge
//! columns be taken by then: with every column taken once, that is the
//! same set of boards.) A complete Side board is weighed by the same
//! rotation check, from the same array of rows.
//!
//! Three paths, one tree: AVX-512 (F and VPOPCNTDQ) keeps the rows in one
//! register; elsewhere the same walk runs on an array of 16 rows
//! (`scalar_walk!`), compiled twice: for x86-64-v3 (AVX2, BMI, POPCNT)
//! and for the build's baseline target (x86-64-v2 on x86-64, set in
//! `.cargo/config.toml`: what `HYSOLVE_SIMD=none` and aarch64 get). Each
//! path picks the same row, tries the same squares in the same order and
//! cuts the same boards, so every path counts the same nodes ([`path`]
//! says which runs).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::symmetry::{Bounds, Class, Tally};
use crate::engine::simd::{self, Level};

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

/// Counts the completions of a board of `class` (Corner or Side) whose
/// rows `0..y` hold the
/// queens in `board` (bits) and whose row `y` sees the masks `cols`,
/// `left` and `right`, adding each board placed to `t.nodes`. Needs
/// `n - y <= LANES` and `y >= 1`. Runs on `b`'s path (this process's
/// widest, [`path`], unless a test forces one).
#[allow(clippy::too_many_arguments)]
pub(super) fn count(
    class: Class,
    b: &Bounds,
    y: u32,
    cols: u32,
    left: u32,
    right: u32,
    board: [u32; 32],
    t: &mut Tally,
) {
    assert!(b.last() + 1 - y <= LANES && y >= 1);
    let rows = b.last() + 1 - y;
    let mut free = [0u32; LANES as usize];
    for (k, f) in free.iter_mut().enumerate().take(rows as usize) {
        let k32 = k as u32;
        let row = y + k32;
        *f = b.row_mask(class, row) & !(cols | (left << k32) | (right >> k32));
    }
    let mut walk = Walk {
        b: *b,
        class,
        y: y as usize,
        board,
        t: Tally::default(),
    };
    let lanes = (1u32 << rows) - 1;
    let unused = b.all() & !cols;
    match b.path() {
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
            unsafe { walk.start(free, lanes, unused) };
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
            unsafe { walk.start_v3(free, lanes, unused) };
        }
        _ => walk.start_scalar(free, lanes, unused),
    }
    t.nodes += walk.t.nodes;
    t.solutions += walk.t.solutions;
}

struct Walk {
    b: Bounds,
    class: Class,
    /// The first row the register holds (lane `k` is row `y + k`).
    y: usize,
    board: [u32; 32],
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
            let row = self.y + j as usize;
            let rest = rem & !(1 << j);
            if rest == 0 {
                self.leaves(row, f);
                return;
            }
            if rest & (rest - 1) == 0 {
                let k = rest.trailing_zeros();
                let g = lane_of(fr, k);
                self.pair(row, f, self.y + k as usize, g, j.abs_diff(k), unused);
                return;
            }
            let dist = _mm512_abs_epi32(_mm512_sub_epi32(lane, _mm512_set1_epi32(j as i32)));
            let mut tail = None;
            while f != 0 {
                let bit = f & f.wrapping_neg();
                f ^= bit;
                self.t.nodes += 1;
                self.board[row] = bit;
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

/// The walk below on an array of rows, in portable code: `fr[k]` holds the
/// free squares of lane `k` (0 once its row is filled), `rem` the lanes
/// left. The same rules as the AVX-512 walk, in the same order.
macro_rules! scalar_walk {
    ($start:ident, $below:ident $(, #[$feature:meta])?) => {
        impl Walk {
            $(#[$feature])?
            fn $start(&mut self, fr: [u32; LANES as usize], rem: u32, unused: u32) {
                if fits_scalar(&fr, rem, unused) {
                    self.$below(fr, rem, unused);
                }
            }

            $(#[$feature])?
            fn $below(&mut self, mut fr: [u32; LANES as usize], mut rem: u32, mut unused: u32) {
                loop {
                    let j = fewest(&fr, rem);
                    let mut f = fr[j as usize];
                    let row = self.y + j as usize;
                    let rest = rem & !(1 << j);
                    if rest == 0 {
                        self.leaves(row, f);
                        return;
                    }
                    if rest & (rest - 1) == 0 {
                        let k = rest.trailing_zeros();
                        let g = fr[k as usize];
                        self.pair(row, f, self.y + k as usize, g, j.abs_diff(k), unused);
                        return;
                    }
                    let mut tail = None;
                    while f != 0 {
                        let bit = f & f.wrapping_neg();
                        f ^= bit;
                        self.t.nodes += 1;
                        self.board[row] = bit;
                        // Each row left loses the queen's column and its two
                        // diagonals (filled rows are 0), with the forward
                        // check in the same pass: the first row left empty
                        // ends it, as `fits_scalar` would decide.
                        let mut next = [0u32; LANES as usize];
                        let mut all = 0;
                        let mut left = rest;
                        while left != 0 {
                            let k = left.trailing_zeros();
                            left &= left - 1;
                            let d = k.abs_diff(j);
                            let v = fr[k as usize] & !(bit | (bit << d) | (bit >> d));
                            next[k as usize] = v;
                            all |= v;
                            if v == 0 {
                                all = !0;
                                break;
                            }
                        }
                        if all == unused & !bit {
                            if f == 0 {
                                tail = Some((next, bit));
                            } else {
                                self.$below(next, rest, unused & !bit);
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
    /// as `below` would), then `other`, `d` rows away, with free squares
    /// `g`; `unused` holds their two columns. Counts the boards `below`
    /// would place: each square of `f`, and the square left for `other`
    /// when it is free and off the first queen's diagonals.
    fn pair(&mut self, row: usize, mut f: u32, other: usize, g: u32, d: u32, unused: u32) {
        self.t.nodes += f.count_ones() as u64;
        while f != 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            let last = unused & !bit & g & !((bit << d) | (bit >> d));
            if last == 0 {
                continue;
            }
            self.t.nodes += 1;
            match self.class {
                Class::Corner => self.t.solutions += 8,
                Class::Side | Class::Plain => {
                    self.board[row] = bit;
                    self.board[other] = last;
                    let n = self.b.last() as usize;
                    self.t.solutions += self.b.check(&self.board[..=n]);
                }
            }
        }
    }

    /// The last row left, `row`, with free squares `f`: each is a board.
    fn leaves(&mut self, row: usize, mut f: u32) {
        match self.class {
            Class::Corner => {
                let boards = f.count_ones() as u64;
                self.t.nodes += boards;
                self.t.solutions += 8 * boards;
            }
            Class::Side | Class::Plain => {
                let last = self.b.last() as usize;
                while f != 0 {
                    let bit = f & f.wrapping_neg();
                    f ^= bit;
                    self.board[row] = bit;
                    self.t.nodes += 1;
                    self.t.solutions += self.b.check(&self.board[..=last]);
                }
            }
        }
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
