//! Fixed-size bitboards: `W` words, cell i at bit i % 64 of word i / 64.
//! Every function is small and generic over `W`, so each board size gets its
//! own straight-line code (a single `u64` for boards up to 64 cells).

pub(crate) type Bits<const W: usize> = [u64; W];

#[inline(always)]
pub(crate) fn zero<const W: usize>() -> Bits<W> {
    [0; W]
}

#[inline(always)]
pub(crate) fn is_zero<const W: usize>(a: &Bits<W>) -> bool {
    a.iter().all(|&w| w == 0)
}

#[inline(always)]
pub(crate) fn and<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    std::array::from_fn(|i| a[i] & b[i])
}

#[inline(always)]
pub(crate) fn or<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    std::array::from_fn(|i| a[i] | b[i])
}

#[inline(always)]
pub(crate) fn xor<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    std::array::from_fn(|i| a[i] ^ b[i])
}

/// Whether cell `i` is set.
#[inline(always)]
pub(crate) fn test<const W: usize>(a: &Bits<W>, i: usize) -> bool {
    (a[i / 64] >> (i % 64)) & 1 == 1
}

#[inline(always)]
pub(crate) fn and_not<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    std::array::from_fn(|i| a[i] & !b[i])
}

#[inline(always)]
pub(crate) fn is_subset<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> bool {
    (0..W).all(|i| a[i] & !b[i] == 0)
}

#[inline(always)]
pub(crate) fn count<const W: usize>(a: &Bits<W>) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}

/// The lowest set bit's index.
#[inline(always)]
pub(crate) fn lowest<const W: usize>(a: &Bits<W>) -> Option<usize> {
    (0..W)
        .find(|&i| a[i] != 0)
        .map(|i| i * 64 + a[i].trailing_zeros() as usize)
}

/// Only the lowest set bit.
#[inline(always)]
pub(crate) fn lowest_bit<const W: usize>(a: &Bits<W>) -> Bits<W> {
    let mut out = [0; W];
    if let Some(i) = (0..W).find(|&i| a[i] != 0) {
        out[i] = a[i] & a[i].wrapping_neg();
    }
    out
}

#[inline(always)]
pub(crate) fn set<const W: usize>(a: &mut Bits<W>, i: usize) {
    a[i / 64] |= 1 << (i % 64);
}

/// Bits moved k places up (towards higher indices).
#[inline(always)]
pub(crate) fn shl<const W: usize>(a: &Bits<W>, k: usize) -> Bits<W> {
    let (q, r) = (k / 64, k % 64);
    std::array::from_fn(|i| {
        if i < q {
            return 0;
        }
        let hi = a[i - q] << r;
        let lo = if r > 0 && i > q {
            a[i - q - 1] >> (64 - r)
        } else {
            0
        };
        hi | lo
    })
}

/// Bits moved k places down (towards lower indices).
#[inline(always)]
pub(crate) fn shr<const W: usize>(a: &Bits<W>, k: usize) -> Bits<W> {
    let (q, r) = (k / 64, k % 64);
    std::array::from_fn(|i| {
        if i + q >= W {
            return 0;
        }
        let lo = a[i + q] >> r;
        let hi = if r > 0 && i + q + 1 < W {
            a[i + q + 1] << (64 - r)
        } else {
            0
        };
        hi | lo
    })
}

/// The indices of the set bits, ascending.
pub(crate) fn ones<const W: usize>(a: &Bits<W>) -> impl Iterator<Item = usize> + '_ {
    (0..W).flat_map(move |i| {
        let mut w = a[i];
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                i * 64 + b
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_words() {
        let mut a: Bits<3> = zero();
        set(&mut a, 63);
        set(&mut a, 100);
        let b = shl(&a, 70);
        assert_eq!(ones(&b).collect::<Vec<_>>(), vec![133, 170]);
        let c = shr(&b, 70);
        assert_eq!(c, a);
        assert_eq!(shr(&a, 64), {
            let mut x: Bits<3> = zero();
            set(&mut x, 36);
            x
        });
        assert_eq!(lowest(&a), Some(63));
        assert_eq!(count(&a), 2);
        let one: Bits<1> = [0b1011000];
        assert_eq!(shl(&one, 1), [0b10110000]);
        assert_eq!(lowest_bit(&one), [0b1000]);
    }
}
