//! `engine::check`, the conformance check users run on their own problems:
//! a correct problem passes, and each deliberate fault is caught as the
//! property it breaks, at the node where it breaks it.

use hysolve::advanced::{Count, Optimising, check_up_to, count_by_moves};
use hysolve::{Mode, Optimise, Problem};
use hysolve::{Property, check};
use std::sync::atomic::{AtomicU64, Ordering};

/// A string so far: its length and its bits.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bits {
    len: u32,
    bits: u64,
}

/// What to break.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    /// `undo` of a 1 after three bits forgets to take the bit back.
    Undo,
    /// `decode` of a string of 5 bits drops its last bit.
    Decode,
    /// The kernel below depth 2 misses a node of subtrees whose node
    /// ends in a 1.
    Kernel,
    /// The listing's order flips from one call to the next at depth 4.
    Order,
    /// The listing told a floor above 0 flips its order at depth 3.
    Bounded,
    /// `moves_left` counts a 1 as left after a 1 (where none may follow).
    Left,
}

/// The binary strings of length `n` with no two 1s side by side, with a
/// fault.
struct NoAdjacentOnes {
    n: u32,
    fault: Fault,
    calls: AtomicU64,
}

fn problem(n: u32, fault: Fault) -> NoAdjacentOnes {
    NoAdjacentOnes {
        n,
        fault,
        calls: AtomicU64::new(0),
    }
}

impl Problem for NoAdjacentOnes {
    type Node = Bits;
    type State = Bits;
    type Move = u64;
    /// The next bit to try (2: none), and whether the order is 1 then 0.
    type Cursor = (u64, bool);
    const ENCODES: bool = true;

    fn encode(&self, node: &Bits, out: &mut Vec<u8>) {
        out.push(node.len as u8);
        out.extend_from_slice(&node.bits.to_le_bytes());
    }

    fn decode(&self, bytes: &[u8]) -> Option<Bits> {
        let (&len, rest) = bytes.split_first()?;
        let mut bits = u64::from_le_bytes(rest.try_into().ok()?);
        if self.fault == Fault::Decode && len == 5 {
            bits &= !1;
        }
        Some(Bits {
            len: u32::from(len),
            bits,
        })
    }

    fn name(&self) -> &'static str {
        "no-adjacent-ones"
    }

    fn instance(&self) -> String {
        self.n.to_string()
    }

    fn root(&self) -> Bits {
        Bits { len: 0, bits: 0 }
    }

    fn state(&self, _: Mode) -> Bits {
        self.root()
    }

    fn load(&self, s: &mut Bits, node: &Bits) {
        *s = *node
    }

    fn save(&self, s: &Bits) -> Bits {
        *s
    }

    fn moves(&self, s: &mut Bits) -> (u64, bool) {
        let flip = self.fault == Fault::Order
            && s.len == 4
            && self.calls.fetch_add(1, Ordering::Relaxed) % 2 == 1;
        (if s.len < self.n { 0 } else { 2 }, flip)
    }

    fn next_move(&self, s: &Bits, (next, flip): &mut (u64, bool)) -> Option<u64> {
        while *next < 2 {
            let i = *next;
            *next += 1;
            let bit = if *flip { 1 - i } else { i };
            // A 1 only after a 0.
            if bit == 0 || s.bits & 1 == 0 {
                return Some(bit);
            }
        }
        None
    }

    /// Only the faulty one says (the cursor cannot know whether a 1 may
    /// follow without the node).
    fn moves_left(&self, &(next, _): &(u64, bool)) -> Option<u64> {
        (self.fault == Fault::Left).then(|| 2u64.saturating_sub(next))
    }

    fn apply(&self, s: &mut Bits, &bit: &u64) {
        s.bits = s.bits << 1 | bit;
        s.len += 1;
    }

    fn undo(&self, s: &mut Bits, &bit: &u64) {
        if self.fault == Fault::Undo && bit == 1 && s.len == 4 {
            s.len -= 1;
            return;
        }
        s.bits >>= 1;
        s.len -= 1;
    }

    fn solution_weight(&self, s: &Bits) -> u64 {
        u64::from(s.len == self.n)
    }

    fn render(&self, s: &Bits, out: &mut String) {
        out.push_str(&format!("{:0len$b}", s.bits, len = s.len as usize));
    }

    fn count_cutoff(&self) -> Option<usize> {
        Some(2)
    }

    fn count_subtree(&self, s: &mut Bits) -> Count {
        let mut count = count_by_moves(self, s);
        if self.fault == Fault::Kernel && s.bits & 1 == 1 {
            count.nodes -= 1;
        }
        count
    }
}

/// As an optimiser: the most 1s.
impl Optimise for NoAdjacentOnes {
    fn objective(&self, s: &Bits) -> Option<u64> {
        (s.len == self.n).then_some(s.bits.count_ones().into())
    }

    /// Told the highest floor, it lists nothing (a prefix: allowed).
    fn moves_above(&self, s: &mut Bits, floor: u64) -> (u64, bool) {
        let (next, flip) = self.moves(s);
        let flip = flip || (self.fault == Fault::Bounded && s.len == 3 && floor > 0);
        (if floor == u64::MAX { 2 } else { next }, flip)
    }
}

/// F(k), F(1) = F(2) = 1: there are F(n + 2) strings of length `n`, and
/// the tree (every length up to `n`) has F(n + 4) - 2 nodes.
fn fibonacci(k: u32) -> u64 {
    (1..k).fold((0u64, 1u64), |(a, b), _| (b, a + b)).1
}

#[test]
fn a_correct_problem_passes_every_check() {
    let checked = check(&problem(12, Fault::None)).expect("conforms");
    assert!(checked.whole);
    assert_eq!(checked.solutions, fibonacci(14));
    assert_eq!(checked.nodes, fibonacci(16) - 2);
    assert!(checked.splits > 10, "{} splits", checked.splits);
    // The subtrees at depth 2: 00, 01, 10.
    assert_eq!(checked.kernel_subtrees, 3);
    // As the engine optimises it, its bounded listings too.
    let optimising = check(&Optimising(problem(12, Fault::None))).expect("conforms");
    assert_eq!(optimising, checked);
}

#[test]
fn a_tree_larger_than_the_limit_is_checked_node_by_node_only() {
    let checked = check_up_to(&problem(20, Fault::None), 1000).expect("conforms");
    assert!(!checked.whole);
    assert_eq!(
        (checked.nodes, checked.solutions, checked.splits),
        (1000, 0, 0)
    );
}

#[test]
fn an_undo_that_does_not_restore_is_caught_where_it_fails() {
    let v = check(&problem(8, Fault::Undo)).expect_err("a broken undo");
    assert_eq!(v.property, Property::UndoRestores, "{v}");
    // The first node of 4 bits ending in a 1, in the walk's order: 0001.
    assert_eq!(v.at.path(), &[0, 0, 0, 1], "{v}");
    assert!(v.to_string().contains("undo"), "{v}");
}

#[test]
fn a_count_of_moves_left_that_the_listing_does_not_give_is_caught() {
    let v = check(&problem(8, Fault::Left)).expect_err("a wrong moves_left");
    assert_eq!(v.property, Property::MovesLeftCounts, "{v}");
    // The first node that ends in a 1 and is no leaf: 0000001, which said
    // 2 moves and gave 1.
    assert_eq!(v.at.path(), &[0, 0, 0, 0, 0, 0, 1], "{v}");
    assert!(v.to_string().contains("gave 1"), "{v}");
}

#[test]
fn a_decode_that_does_not_round_trip_is_caught() {
    let v = check(&problem(8, Fault::Decode)).expect_err("a broken decode");
    assert_eq!(v.property, Property::EncodeDecodeRoundTrip, "{v}");
    // The first node of 5 bits ending in a 1: 00001.
    assert_eq!(v.at.path(), &[0, 0, 0, 0, 1], "{v}");
}

#[test]
fn a_kernel_that_skips_nodes_is_caught() {
    let v = check(&problem(8, Fault::Kernel)).expect_err("a kernel that skips");
    assert_eq!(v.property, Property::KernelAgrees, "{v}");
    // The first subtree at depth 2 whose node ends in a 1: 01.
    assert_eq!(v.at.path(), &[0, 1], "{v}");
}

#[test]
fn moves_that_change_order_between_listings_are_caught() {
    let v = check(&problem(8, Fault::Order)).expect_err("an unstable order");
    // Listed twice per node (the walk, and the copy loaded from its
    // save), a flipping order lists the same moves: what it breaks is
    // that a split-off sibling's prefix names another node on replay.
    assert_eq!(v.property, Property::SplitsAreExact, "{v}");
}

#[test]
fn a_bounded_listing_in_another_order_is_caught() {
    let v = check(&Optimising(problem(8, Fault::Bounded))).expect_err("another order");
    assert_eq!(v.property, Property::BoundedListingIsAPrefix, "{v}");
    // The first node at depth 3 whose last bit is 0 (both moves): 000.
    assert_eq!(v.at.path(), &[0, 0, 0], "{v}");
}

#[test]
fn a_bounded_listing_is_checked_only_where_the_engine_lists_by_a_floor() {
    // A count never calls `moves_above`: a fault there is not the
    // counting problem's.
    check(&problem(8, Fault::Bounded)).expect("a count lists by moves alone");
}
