//! UTS, the Unbalanced Tree Search benchmark (Olivier et al., LCPC 2006):
//! trees defined by a seed and a few parameters through a SHA-1 random
//! stream, whose node counts are published, so that every load balancer
//! can be checked and timed on the same trees.
//!
//! Every node carries a 20-byte state. The root's is SHA-1 of 16 zero
//! bytes and the seed (32-bit big-endian); child `i`'s is SHA-1 of its
//! parent's state and `i` (32-bit big-endian). A node's random number is
//! bytes 16..19 of its state, big-endian, masked to 31 bits; how many
//! children it has follows from that number, its depth and the tree's
//! shape ([`params`]). Leaves are the solutions: a count reports nodes,
//! leaves and the tree's depth.

pub mod params;

use hysolve::{Mode, Problem};
use params::{Decay, Params, Shape};
use sha1::{Digest, Sha1};

/// The most children a node may have, except a binomial root and the
/// nodes of a balanced tree.
const MAX_CHILDREN: u64 = 100;

/// A tree, ready to walk.
#[derive(Debug, Clone)]
pub struct Uts {
    name: String,
    p: Params,
    /// The root's state.
    root: [u8; 20],
}

/// A node: its random state, its depth (the root's is 0), and how many
/// children it has, drawn once when the node is made (the walk asks twice:
/// whether it is a leaf, then for its children).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    state: [u8; 20],
    depth: u32,
    kids: u32,
}

impl Uts {
    /// The tree of `p`, called `name` in reports.
    pub fn new(p: Params, name: impl Into<String>) -> Uts {
        let mut seed = [0u8; 20];
        seed[16..].copy_from_slice(&p.r.to_be_bytes());
        Uts {
            name: name.into(),
            root: Sha1::digest(seed).into(),
            p,
        }
    }

    /// The node's random number as a probability in [0, 1).
    fn prob(state: &[u8; 20]) -> f64 {
        let r = u32::from_be_bytes([state[16], state[17], state[18], state[19]]) & 0x7FFF_FFFF;
        f64::from(r) / 2_147_483_648.0
    }

    /// A geometric draw whose mean is the target branching factor at depth `h`.
    fn geometric(&self, state: &[u8; 20], h: u32) -> u64 {
        let (b, d, hf) = (self.p.b, f64::from(self.p.d), f64::from(h));
        let target = if h == 0 {
            b
        } else {
            match self.p.decay {
                Decay::Linear => b * (1.0 - hf / d),
                Decay::Exponential => b * hf.powf(-b.ln() / d.ln()),
                Decay::Cyclic if hf > 5.0 * d => 0.0,
                Decay::Cyclic => b.powf((2.0 * std::f64::consts::PI * hf / d).sin()),
                Decay::Fixed if h < self.p.d => b,
                Decay::Fixed => 0.0,
            }
        };
        if target <= 0.0 {
            return 0;
        }
        let p = 1.0 / (1.0 + target);
        let u = Self::prob(state);
        ((1.0 - u).ln() / (1.0 - p).ln()).floor().max(0.0) as u64
    }

    /// The node of `state` at `depth`, with its number of children.
    fn node(&self, state: [u8; 20], depth: u32) -> Node {
        Node {
            state,
            depth,
            kids: self.children_of(&state, depth) as u32,
        }
    }

    /// How many children the node of `state` at depth `h` has.
    fn children_of(&self, state: &[u8; 20], h: u32) -> u64 {
        let binomial = || {
            if h == 0 {
                self.p.b.floor() as u64
            } else if Self::prob(state) < self.p.q {
                u64::from(self.p.m)
            } else {
                0
            }
        };
        match self.p.shape {
            Shape::Balanced => {
                if h < self.p.d {
                    self.p.b.floor() as u64
                } else {
                    0
                }
            }
            Shape::Binomial if h == 0 => binomial(),
            Shape::Binomial => binomial().min(MAX_CHILDREN),
            Shape::Geometric => self.geometric(state, h).min(MAX_CHILDREN),
            Shape::Hybrid if f64::from(h) < self.p.f * f64::from(self.p.d) => {
                self.geometric(state, h).min(MAX_CHILDREN)
            }
            Shape::Hybrid if h == 0 => binomial(),
            Shape::Hybrid => binomial().min(MAX_CHILDREN),
        }
    }
}

impl Uts {
    /// The `i`-th child of `node`: its state is the SHA-1 of the parent's
    /// and `i`.
    #[inline]
    fn child(&self, node: &Node, i: u32) -> Node {
        let mut message = [0u8; 24];
        message[..20].copy_from_slice(&node.state);
        message[20..].copy_from_slice(&i.to_be_bytes());
        self.node(Sha1::digest(message).into(), node.depth + 1)
    }
}

/// The node a worker's state (the path of nodes from the task's) stands on.
#[inline]
fn top(path: &[Node]) -> &Node {
    path.last()
        .expect("the engine loads a node before it walks")
}

/// The listing of a node's children: the next child's index, and how
/// many there are (so that a split counts what a walk leaves without its
/// nodes, [`Problem::moves_left`]).
#[derive(Debug, Clone, Copy)]
pub struct Kids {
    next: u32,
    kids: u32,
}

/// Walked in place: a worker's state is the path of nodes from its task's
/// node, a move a child's index; a child is hashed when the walk goes
/// down to it, not before.
impl Problem for Uts {
    type Node = Node;
    type State = Vec<Node>;
    type Move = u32;
    type Cursor = Kids;

    /// A node travels as its state and depth (24 bytes), however deep it is;
    /// its number of children is drawn again from them.
    const ENCODES: bool = true;

    fn encode(&self, node: &Node, out: &mut Vec<u8>) {
        out.extend_from_slice(&node.state);
        out.extend_from_slice(&node.depth.to_le_bytes());
    }

    fn decode(&self, bytes: &[u8]) -> Option<Node> {
        let (state, depth) = (bytes.get(..20)?, bytes.get(20..24)?);
        (bytes.len() == 24).then(|| {
            self.node(
                state.try_into().expect("20 bytes"),
                u32::from_le_bytes(depth.try_into().expect("4 bytes")),
            )
        })
    }

    fn name(&self) -> &'static str {
        "uts"
    }

    fn instance(&self) -> String {
        self.name.clone()
    }

    fn root(&self) -> Node {
        self.node(self.root, 0)
    }

    fn state(&self, _: Mode) -> Vec<Node> {
        Vec::new()
    }

    fn load(&self, path: &mut Vec<Node>, node: &Node) {
        path.clear();
        path.push(*node);
    }

    fn save(&self, path: &Vec<Node>) -> Node {
        *top(path)
    }

    #[inline]
    fn moves(&self, path: &mut Vec<Node>) -> Kids {
        Kids {
            next: 0,
            kids: top(path).kids,
        }
    }

    #[inline]
    fn next_move(&self, _: &Vec<Node>, at: &mut Kids) -> Option<u32> {
        let i = at.next;
        (i < at.kids).then(|| {
            at.next = i + 1;
            i
        })
    }

    #[inline]
    fn moves_left(&self, at: &Kids) -> Option<u64> {
        Some(u64::from(at.kids - at.next))
    }

    #[inline]
    fn apply(&self, path: &mut Vec<Node>, &i: &u32) {
        let child = self.child(top(path), i);
        path.push(child);
    }

    #[inline]
    fn undo(&self, path: &mut Vec<Node>, _: &u32) {
        path.pop();
    }

    /// A leaf is a solution.
    fn solution_weight(&self, path: &Vec<Node>) -> u64 {
        u64::from(top(path).kids == 0)
    }

    /// A leaf as its depth and state in hexadecimal.
    fn render(&self, path: &Vec<Node>, out: &mut String) {
        use std::fmt::Write;
        let node = top(path);
        let _ = write!(out, "{} ", node.depth);
        for b in node.state {
            let _ = write!(out, "{b:02x}");
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use hysolve::Mode;
    use hysolve::advanced::sequential;

    /// A small binomial tree counted by a plain recursion on the same
    /// definition, and the engine's count of it.
    #[test]
    fn engine_counts_match_a_plain_recursion() {
        let mut p = Params::default();
        for (flag, value) in [
            ("t", "0"),
            ("b", "40"),
            ("q", "0.2"),
            ("m", "4"),
            ("r", "3"),
        ] {
            p.set(flag, value).unwrap();
        }
        let tree = Uts::new(p, "small");
        fn walk(t: &Uts, n: &Node, nodes: &mut u64, leaves: &mut u64) {
            *nodes += 1;
            *leaves += u64::from(n.kids == 0);
            for i in 0..n.kids {
                walk(t, &t.child(n, i), nodes, leaves);
            }
        }
        let (mut nodes, mut leaves) = (0, 0);
        walk(&tree, &tree.root(), &mut nodes, &mut leaves);
        let (c, _) = sequential(&tree, Mode::Count);
        assert_eq!((c.nodes, c.solutions), (nodes, leaves));
        assert!(nodes > 40);
    }

    /// The published T1 and T3 (4.1 M nodes each).
    #[test]
    fn published_small_trees() {
        for name in ["T1", "T3"] {
            let (p, published) = Params::named(name).unwrap();
            let (c, _) = sequential(&Uts::new(p, name), Mode::Count);
            assert_eq!(
                (c.nodes, c.solutions),
                (published.nodes, published.leaves),
                "{name}"
            );
        }
    }
}
