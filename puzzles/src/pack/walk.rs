//! The packing search in place: a worker's state is one [`Packing`],
//! moved by placing and taking back a piece; a node's moves are the
//! placements of its branching list ([`Pack::branch`]) that fit, listed
//! by a cursor into that list. A count below the cut-off runs the
//! in-place counters of `mod.rs` and `fewest.rs` on the same state: the
//! same tree without the cursor (their tests hold them to the walk's
//! nodes).

use super::{Pack, Packing, bits};
use hysolve::advanced::Count;
use hysolve::{Mode, Problem};

/// Which tree a walk takes, from the mode and `--distinct`: the problem
/// learns it from the engine ([`Problem::state`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Every packing, each once: the modes that list packings, and a count
    /// where no piece can be restricted.
    Plain,
    /// `--distinct`: the restricted piece first, one placement per orbit
    /// of the figure's symmetries; a complete packing counts when it is
    /// the one of its class the search keeps.
    Distinct,
    /// A count of every packing, folded: the restricted piece first, one
    /// placement `r` per orbit, and each packing through `r` counts `|G r|`
    /// times, with no check at the leaves. Every packing has the piece at
    /// exactly one placement, and a symmetry g maps the packings through
    /// `r` one to one onto those through `g r`, so the folded count is the
    /// count of every packing, for about 1/|G| of its search.
    Weighted,
}

/// The list a node's moves come from.
#[derive(Debug, Clone, Copy)]
pub enum List {
    /// None: a dead end.
    Nothing,
    /// The kept placements of the restricted piece.
    Restricted,
    /// The placements whose lowest cell is this one.
    Lowest(u32),
    /// The placements covering this cell (3D: the cell with the fewest).
    Covering(u32),
}

/// A worker's state: the packing it stands on (`None` for an instance
/// whose root is already a dead end), and the tree it walks.
pub struct Walker<const W: usize> {
    s: Option<Packing<W>>,
    rule: Rule,
}

/// The listing of a node's moves: its list, the next entry to try, and
/// the node's limits on region sizes ([`Pack::fits`]).
#[derive(Debug, Clone, Copy)]
pub struct Listing {
    list: List,
    at: u32,
    min: u32,
    gcd: u32,
}

impl<const W: usize> Pack<W> {
    /// The tree a walk in `mode` takes.
    ///
    /// ```
    /// use hysolve::Mode;
    /// use hysolve::advanced::sequential;
    /// use hysolve_puzzles::pack::{Layout, Pack, Rule, figure::Figure, pieces::PieceSet};
    ///
    /// let set = PieceSet::load("pentominoes").unwrap();
    /// let layout = Layout::new(set, Figure::parse_box("20x3").unwrap()).unwrap();
    /// let pack = Pack::<1>::new(layout, false).unwrap();
    /// assert_eq!(pack.rule(Mode::Count), Rule::Weighted);
    /// let (counted, listed) = (sequential(&pack, Mode::Count).0, sequential(&pack, Mode::All).0);
    /// assert_eq!((counted.solutions, listed.solutions), (8, 8));
    /// assert!(counted.nodes * 3 < listed.nodes);
    /// ```
    pub fn rule(&self, mode: Mode) -> Rule {
        if self.distinct {
            Rule::Distinct
        } else if mode == Mode::Count && self.restricted.is_some() {
            Rule::Weighted
        } else {
            Rule::Plain
        }
    }
}

impl<const W: usize> Problem for Pack<W> {
    type Node = Option<Packing<W>>;
    type State = Walker<W>;
    /// A placement.
    type Move = u32;
    type Cursor = Listing;

    fn name(&self) -> &'static str {
        "pack"
    }

    fn instance(&self) -> String {
        let mut s = format!("{} on {}", self.layout.set.name, self.layout.shown.name);
        if self.distinct {
            s.push_str(&format!(
                ", distinct up to {} symmetries",
                self.symmetries()
            ));
        }
        s
    }

    fn root(&self) -> Self::Node {
        self.root.clone()
    }

    fn state(&self, mode: Mode) -> Walker<W> {
        Walker {
            s: None,
            rule: self.rule(mode),
        }
    }

    fn load(&self, w: &mut Walker<W>, node: &Self::Node) {
        w.s.clone_from(node);
    }

    fn save(&self, w: &Walker<W>) -> Self::Node {
        w.s.clone()
    }

    #[inline]
    fn moves(&self, w: &mut Walker<W>) -> Listing {
        let (list, (min, gcd)) = match &w.s {
            Some(s) => (self.branch(s, w.rule), self.limits(&s.left)),
            None => (List::Nothing, (0, 1)),
        };
        Listing {
            list,
            at: 0,
            min,
            gcd,
        }
    }

    #[inline]
    fn next_move(&self, w: &Walker<W>, at: &mut Listing) -> Option<u32> {
        let s = w.s.as_ref()?;
        let list = self.list(at.list);
        while let Some(&p) = list.get(at.at as usize) {
            at.at += 1;
            if self.fits(s, p, at.min, at.gcd) {
                return Some(p);
            }
        }
        None
    }

    #[inline]
    fn apply(&self, w: &mut Walker<W>, &p: &u32) {
        self.place(w.s.as_mut().expect("a move from a packing"), p);
    }

    #[inline]
    fn undo(&self, w: &mut Walker<W>, &p: &u32) {
        self.unplace(w.s.as_mut().expect("a move from a packing"), p);
    }

    fn solution_weight(&self, w: &Walker<W>) -> u64 {
        w.s.as_ref()
            .filter(|s| bits::is_zero(&s.empty))
            .map_or(0, |s| self.leaf_weight(s, w.rule))
    }

    /// 2D: one row of piece letters per line (`.` for a hole). 3D: one line
    /// per row, the layers side by side, separated by a space.
    fn render(&self, w: &Walker<W>, out: &mut String) {
        let Some(s) = &w.s else { return };
        let f = &self.layout.shown;
        let owner = self.owners(s);
        for y in 0..f.h {
            if y > 0 {
                out.push('\n');
            }
            for z in 0..f.d {
                if z > 0 {
                    out.push(' ');
                }
                for x in 0..f.w {
                    let at = self.layout.to_search[x + f.w * (y + f.h * z)];
                    out.push(match at.and_then(|j| owner[j]) {
                        Some(p) => self.layout.labels[self.kind_of[p as usize] as usize],
                        None => '.',
                    });
                }
            }
        }
    }

    /// Two placements deep: enough subtrees for the workers, small enough
    /// that the in-place counter does nearly all the work.
    fn count_cutoff(&self) -> Option<usize> {
        Some(2)
    }

    fn count_subtree(&self, w: &mut Walker<W>) -> Count {
        let weight = self.solution_weight(w);
        let mut total = Count {
            solutions: weight,
            nodes: 1,
            depth: None,
        };
        if let Some(s) = &mut w.s {
            self.count_below(s, w.rule, &mut total);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_pack;
    use super::*;
    use hysolve::advanced::sequential;
    use hysolve::check;

    fn pentominoes(figure: &str, distinct: bool) -> Pack<1> {
        test_pack("pentominoes", figure, distinct)
    }

    #[test]
    fn each_mode_takes_its_tree() {
        let plain = pentominoes("10x6", false);
        assert_eq!(plain.rule(Mode::Count), Rule::Weighted);
        for mode in [Mode::All, Mode::First, Mode::Unique] {
            assert_eq!(plain.rule(mode), Rule::Plain, "{mode:?}");
        }
        let distinct = pentominoes("10x6", true);
        for mode in [Mode::Count, Mode::All, Mode::First] {
            assert_eq!(distinct.rule(mode), Rule::Distinct, "{mode:?}");
        }
    }

    /// The walk's three trees give the published counts of the 6x10
    /// pentomino tilings: 2,339 up to symmetry, 9,356 in all (none is
    /// symmetric): listed one by one (plain), folded by the symmetries
    /// (weighted), and one per class (distinct).
    #[test]
    fn the_three_trees_count_the_published_tilings() {
        let plain = pentominoes("10x6", false);
        assert_eq!(sequential(&plain, Mode::All).0.solutions, 9_356);
        assert_eq!(sequential(&plain, Mode::Count).0.solutions, 9_356);
        let distinct = pentominoes("10x6", true);
        assert_eq!(sequential(&distinct, Mode::All).0.solutions, 2_339);
        assert_eq!(sequential(&distinct, Mode::Count).0.solutions, 2_339);
    }

    /// The promises of `Problem` on a small box, each tree: moves keep the
    /// node, undo restores it, the modes and the kernel agree.
    #[test]
    fn the_walk_conforms() {
        for distinct in [false, true] {
            let checked = check(&pentominoes("20x3", distinct)).unwrap();
            assert!(checked.whole);
            assert_eq!(checked.solutions, if distinct { 2 } else { 8 });
        }
    }
}
