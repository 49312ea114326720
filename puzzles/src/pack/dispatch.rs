//! Dispatch by board size: each size of bitboard is its own type, so the
//! hot loop works on a fixed number of words; a search is handed, with its
//! size's type, to what will run it.

use super::{Layout, Pack};
use crate::PuzzleError;

impl Layout {
    /// The search for this layout, on the smallest board it fits, handed
    /// to `then`: each board size is compiled separately, so the hot loop
    /// works on a fixed number of words, and `then` is called with the
    /// size's own type. (A count folds symmetric packings by itself:
    /// [`Rule::Weighted`](super::Rule::Weighted).)
    pub fn search<T: WithPack>(self, distinct: bool, then: T) -> Result<T::Output, PuzzleError> {
        Ok(match self.words() {
            1 => then.with(Pack::<1>::new(self, distinct)?),
            2 => then.with(Pack::<2>::new(self, distinct)?),
            3 | 4 => then.with(Pack::<4>::new(self, distinct)?),
            _ => then.with(Pack::<8>::new(self, distinct)?),
        })
    }
}

/// What to do with a packing search once its board size, a type of its
/// own, is known ([`Layout::search`]): run it, say.
pub trait WithPack {
    /// What `with` returns.
    type Output;
    /// Takes the search on a board of `W` 64-bit words.
    fn with<const W: usize>(self, pack: Pack<W>) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::super::figure::Figure;
    use super::super::pieces::PieceSet;
    use super::*;

    /// The board size a search was handed with, and its symmetries.
    struct Size;

    impl WithPack for Size {
        type Output = (usize, usize);
        fn with<const W: usize>(self, pack: Pack<W>) -> (usize, usize) {
            (W, pack.symmetries())
        }
    }

    #[test]
    fn each_layout_gets_the_smallest_board_it_fits() {
        // `k` straight pieces of `m` cells fill an m x k box.
        let strip = |m: usize, k: usize| {
            let piece: String = (0..m).map(|x| format!(" {x},0")).collect();
            let set = PieceSet::parse(&format!("I{piece}\n").repeat(k), "sticks").unwrap();
            Layout::new(set, Figure::parse_box(&format!("{m}x{k}")).unwrap()).unwrap()
        };
        // 64 cells in one word, 65 to 128 in two, then four, then eight.
        let cases = [
            (32, 2, 1),
            (33, 2, 2),
            (64, 2, 2),
            (64, 3, 4),
            (64, 4, 4),
            (64, 5, 8),
            (64, 8, 8),
        ];
        for (m, k, words) in cases {
            assert_eq!(strip(m, k).search(false, Size).unwrap().0, words, "{m}x{k}");
        }
        // `--distinct` reaches the search: the 3x2 box's 4 symmetries.
        assert_eq!(strip(3, 2).search(true, Size).unwrap(), (1, 4));
    }
}
