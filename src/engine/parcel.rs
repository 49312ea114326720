//! Parcels: work as it crosses ranks. A parcel is a subtree named by its
//! prefix, and, for a problem that encodes its nodes, the node itself: the
//! receiver then decodes it instead of replaying the prefix from the root
//! (a binomial UTS tree is 17,844 levels deep), and the prefix stops at the
//! master's initial depth, where it still names the parcel's unit.
//!
//! A donation travels packed ([`Parcels`]): every parcel written into one
//! buffer, which the thief reads straight into tasks. As a list of
//! [`Parcel`]s, each with a prefix and a node of its own, a donation of
//! 890 UTS parcels took the thief 89 µs to decode (60 to 110 ns a parcel)
//! and the victim about 25 ns a parcel to encode, on top of a copy of
//! each prefix and node on the way in and out (`cluster/README.md`,
//! "Parcels: how work travels").

use super::mode::Mode;
use super::prefix::{Prefix, replay};
use super::problem::Problem;
use super::task::Task;
use serde::{Deserialize, Serialize};

/// The most parcels a donation reserves room for before it reads them.
const ROOM_MOST: usize = 4096;

/// A subtree as it crosses ranks: its prefix, and its node encoded where the problem can (a node is cheaper to send than to replay).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Parcel {
    /// The whole path from the root, or (with `node`) its first levels.
    pub(crate) prefix: Prefix,
    /// The depth of the subtree's root.
    pub(crate) depth: u32,
    /// The subtree's root as the problem encodes it.
    #[serde(with = "serde_bytes")]
    pub(crate) node: Option<Vec<u8>>,
}

impl Parcel {
    /// A subtree by its whole path.
    pub(crate) fn named(prefix: Prefix) -> Parcel {
        Parcel {
            depth: prefix.depth() as u32,
            prefix,
            node: None,
        }
    }

    /// `task` as it travels: with its node when the problem encodes nodes.
    pub(crate) fn of<P: Problem>(problem: &P, task: &Task<P::Node>) -> Parcel {
        let node = P::ENCODES.then(|| {
            let mut bytes = Vec::new();
            problem.encode(&task.node, &mut bytes);
            bytes
        });
        Parcel {
            prefix: task.prefix.clone(),
            depth: task.depth as u32,
            node,
        }
    }

    /// The task this parcel stands for: its node decoded, or replayed from
    /// the root. `None` for a parcel that names no subtree of this instance.
    /// The run's `mode` shapes the tree a prefix is replayed in.
    pub(crate) fn task<P: Problem>(&self, problem: &P, mode: Mode) -> Option<Task<P::Node>> {
        let node = node_of(
            problem,
            mode,
            self.depth,
            &self.prefix,
            self.node.as_deref(),
        )?;
        Some(Task {
            prefix: self.prefix.clone(),
            depth: self.depth as usize,
            node,
        })
    }
}

/// The node of a parcel: decoded from its bytes, or replayed from the
/// root where it has none (then its prefix is its whole path).
fn node_of<P: Problem>(
    problem: &P,
    mode: Mode,
    depth: u32,
    prefix: &Prefix,
    node: Option<&[u8]>,
) -> Option<P::Node> {
    match node {
        Some(bytes) => problem.decode(bytes),
        None if prefix.depth() == depth as usize => replay(problem, mode, prefix),
        None => None,
    }
}

/// Parcels as a donation carries them: each parcel's depth, prefix and
/// encoded node written one after another into one buffer (postcard's
/// encoding, the node's bytes as one run), so that a donation costs the
/// victim no allocation a parcel and the thief one (the task's prefix).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Parcels {
    count: u32,
    #[serde(with = "serde_bytes")]
    bytes: Vec<u8>,
}

/// One parcel in a [`Parcels`] buffer, as it is written.
#[derive(Serialize)]
struct Packing<'a> {
    depth: u32,
    prefix: &'a [u32],
    #[serde(with = "serde_bytes")]
    node: Option<&'a [u8]>,
}

/// One parcel in a [`Parcels`] buffer, as it is read (its node borrowed
/// from the buffer).
#[derive(Deserialize)]
struct Unpacking<'a> {
    depth: u32,
    prefix: Prefix,
    #[serde(borrow, with = "serde_bytes")]
    node: Option<&'a [u8]>,
}

/// Why packed parcels cannot be taken in.
#[derive(Debug)]
pub(crate) enum Unpacked {
    /// The buffer is not parcels: a corrupt message.
    Malformed(postcard::Error),
    /// A parcel names no subtree of this instance (ranks that disagree on
    /// the instance).
    NoSubtree(Prefix),
}

impl Parcels {
    /// `tasks` as they travel: with their nodes where the problem encodes
    /// nodes.
    pub(crate) fn of<P: Problem>(problem: &P, tasks: &[Task<P::Node>]) -> Parcels {
        let mut parcels = Parcels::default();
        let mut node = Vec::new();
        for task in tasks {
            node.clear();
            if P::ENCODES {
                problem.encode(&task.node, &mut node);
            }
            parcels.pack(
                task.depth as u32,
                &task.prefix,
                P::ENCODES.then_some(&node[..]),
            );
        }
        parcels
    }

    /// Parcels already made (tests' donations).
    #[cfg(test)]
    pub(crate) fn from_parcels<'a>(list: impl IntoIterator<Item = &'a Parcel>) -> Parcels {
        let mut parcels = Parcels::default();
        for p in list {
            parcels.pack(p.depth, &p.prefix, p.node.as_deref());
        }
        parcels
    }

    fn pack(&mut self, depth: u32, prefix: &Prefix, node: Option<&[u8]>) {
        let entry = Packing {
            depth,
            prefix: prefix.path(),
            node,
        };
        let bytes = std::mem::take(&mut self.bytes);
        self.bytes = postcard::to_extend(&entry, bytes).expect("a parcel always serializes");
        self.count += 1;
    }

    /// How many parcels.
    pub(crate) fn len(&self) -> usize {
        self.count as usize
    }

    /// Room to reserve for the parcels: no more than the buffer can hold
    /// (each takes at least three bytes: its depth, its prefix's length
    /// and whether it has a node), and no more than [`ROOM_MOST`], so a
    /// corrupt count reserves little (a task is some 25 times a parcel's
    /// least bytes); past it the list grows as parcels are read.
    fn room(&self) -> usize {
        self.len().min(self.bytes.len() / 3).min(ROOM_MOST)
    }

    /// The buffer's length in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.len()
    }

    /// Calls `each` on every parcel's depth, prefix and node bytes, in
    /// order; stops at the first error `each` returns.
    fn unpack<E>(
        &self,
        mut each: impl FnMut(u32, Prefix, Option<&[u8]>) -> Result<(), E>,
    ) -> Result<(), E>
    where
        E: From<postcard::Error>,
    {
        let mut rest = &self.bytes[..];
        for _ in 0..self.count {
            let (entry, after) = postcard::take_from_bytes::<Unpacking<'_>>(rest)?;
            rest = after;
            each(entry.depth, entry.prefix, entry.node)?;
        }
        if !rest.is_empty() {
            return Err(postcard::Error::DeserializeBadEncoding.into());
        }
        Ok(())
    }

    /// The parcels, one by one (the simulator's costs, and tests').
    #[cfg(any(test, feature = "sim"))]
    pub(crate) fn parcels(&self) -> Result<Vec<Parcel>, postcard::Error> {
        let mut list = Vec::with_capacity(self.room());
        self.unpack(|depth, prefix, node| {
            list.push(Parcel {
                prefix,
                depth,
                node: node.map(<[u8]>::to_vec),
            });
            Ok::<(), postcard::Error>(())
        })?;
        Ok(list)
    }

    /// The tasks these parcels stand for, in order: each node decoded, or
    /// replayed from the root, in the run's `mode`.
    pub(crate) fn tasks<P: Problem>(
        &self,
        problem: &P,
        mode: Mode,
    ) -> Result<Vec<Task<P::Node>>, Unpacked> {
        let mut tasks = Vec::with_capacity(self.room());
        self.unpack(|depth, prefix, node| {
            let Some(node) = node_of(problem, mode, depth, &prefix, node) else {
                return Err(Unpacked::NoSubtree(prefix));
            };
            tasks.push(Task {
                prefix,
                depth: depth as usize,
                node,
            });
            Ok(())
        })?;
        Ok(tasks)
    }
}

impl From<postcard::Error> for Unpacked {
    fn from(e: postcard::Error) -> Self {
        Unpacked::Malformed(e)
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::fixtures::Queens;

    /// A count that its bytes cannot hold reserves room for what they
    /// can, and never more than `ROOM_MOST`, and is refused.
    #[test]
    fn a_corrupt_count_reserves_little_and_is_refused() {
        let claim = |n: u32, bytes: usize| -> Parcels {
            let wire = postcard::to_stdvec(&(n, serde_bytes::Bytes::new(&vec![0; bytes])))
                .expect("encodes");
            postcard::from_bytes(&wire).expect("a count and a buffer")
        };
        assert_eq!(claim(u32::MAX, 30).room(), 10);
        assert_eq!(claim(u32::MAX, 1 << 20).room(), ROOM_MOST);
        assert_eq!(claim(5, 1 << 20).room(), 5);
        let q = Queens::new(6);
        assert!(claim(u32::MAX, 1 << 20).tasks(&q, Mode::Count).is_err());
    }

    /// Every node of the first `depth` levels of 6-Queens as a task, with
    /// its whole path, or its path down to `keep` (as a problem that
    /// encodes its nodes names them).
    fn tasks(depth: usize, keep: usize) -> Vec<Task<<Queens as Problem>::Node>> {
        let q = Queens::new(6);
        let mut out = Vec::new();
        let mut frontier = vec![Prefix::root()];
        for _ in 0..depth {
            let mut next = Vec::new();
            for prefix in frontier {
                let node = replay(&q, Mode::Count, &prefix).expect("a node");
                let mut state = node;
                let mut moves = q.moves(&mut state);
                let mut index = 0;
                while q.next_move(&state, &mut moves).is_some() {
                    next.push(prefix.child(index));
                    index += 1;
                }
            }
            for prefix in &next {
                out.push(Task {
                    prefix: prefix.truncated(keep),
                    depth: prefix.depth(),
                    node: replay(&q, Mode::Count, prefix).expect("a node"),
                });
            }
            frontier = next;
        }
        out
    }

    #[test]
    fn packed_parcels_are_the_tasks_they_were_made_of() {
        let q = Queens::new(6);
        for keep in [1, 2, usize::MAX] {
            let given = tasks(3, keep);
            assert!(given.len() > 50);
            let packed = Parcels::of(&q, &given);
            assert_eq!(packed.len(), given.len());
            // Through a message's encoding, as a donation travels.
            let bytes = postcard::to_stdvec(&packed).expect("serializes");
            let packed: Parcels = postcard::from_bytes(&bytes).expect("deserializes");
            let taken = packed
                .tasks(&q, Mode::Count)
                .expect("every parcel names a node");
            assert_eq!(taken.len(), given.len());
            for (a, b) in given.iter().zip(&taken) {
                assert_eq!((&a.prefix, a.depth, a.node), (&b.prefix, b.depth, b.node));
            }
            // One by one, as `Parcel::of` makes them.
            let one_by_one: Vec<Parcel> = given.iter().map(|t| Parcel::of(&q, t)).collect();
            assert_eq!(packed.parcels().expect("well formed"), one_by_one);
        }
    }

    #[test]
    fn parcels_without_nodes_are_replayed_from_their_paths() {
        let q = Queens::new(6);
        let named: Vec<Parcel> = tasks(2, usize::MAX)
            .into_iter()
            .map(|t| Parcel::named(t.prefix))
            .collect();
        let packed = Parcels::from_parcels(&named);
        let taken = packed
            .tasks(&q, Mode::Count)
            .expect("every path names a node");
        for (p, t) in named.iter().zip(&taken) {
            assert_eq!(Some(t.node), replay(&q, Mode::Count, &p.prefix));
            assert_eq!(t.depth, p.prefix.depth());
        }
    }

    #[test]
    fn a_corrupt_buffer_is_refused_not_taken_in_part() {
        let q = Queens::new(6);
        let good = Parcels::of(&q, &tasks(2, 1));
        let n = good.len();
        // Cut short, with bytes left over, or claiming more parcels than
        // it holds: malformed, whatever the cut.
        for cut in 0..good.bytes.len() {
            let short = Parcels {
                count: good.count,
                bytes: good.bytes[..cut].to_vec(),
            };
            assert!(matches!(
                short.tasks(&q, Mode::Count),
                Err(Unpacked::Malformed(_))
            ));
        }
        let mut long = good.clone();
        long.bytes.push(0);
        assert!(matches!(
            long.tasks(&q, Mode::Count),
            Err(Unpacked::Malformed(_))
        ));
        let more = Parcels {
            count: good.count + 1,
            ..good.clone()
        };
        assert!(matches!(
            more.tasks(&q, Mode::Count),
            Err(Unpacked::Malformed(_))
        ));
        assert_eq!(good.tasks(&q, Mode::Count).expect("well formed").len(), n);
        // A path past the children of a node, and bytes no board encodes,
        // name no subtree: the parcel's prefix says which.
        let stray = Parcels::from_parcels(&[Parcel::named(Prefix(vec![99]))]);
        match stray.tasks(&q, Mode::Count) {
            Err(Unpacked::NoSubtree(p)) => assert_eq!(p, Prefix(vec![99])),
            other => panic!("{other:?}"),
        }
        let garbage = Parcels::from_parcels(&[Parcel {
            prefix: Prefix(vec![2]),
            depth: 1,
            node: Some(vec![0xFF; 9]),
        }]);
        assert!(matches!(
            garbage.tasks(&q, Mode::Count),
            Err(Unpacked::NoSubtree(_))
        ));
    }
}
