//! Parcels: work as it crosses ranks. A parcel is a subtree named by its
//! prefix, and, for a problem that encodes its nodes, the node itself: the
//! receiver then decodes it instead of replaying the prefix from the root
//! (a binomial UTS tree is 17,844 levels deep), and the prefix stops at the
//! master's initial depth, where it still names the parcel's unit.

use super::mode::Mode;
use super::prefix::{Prefix, replay};
use super::problem::Problem;
use super::task::Task;
use serde::{Deserialize, Serialize};

/// A subtree as it crosses ranks: its prefix, and its node encoded where the problem can (a node is cheaper to send than to replay).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Parcel {
    /// The whole path from the root, or (with `node`) its first levels.
    pub(crate) prefix: Prefix,
    /// The depth of the subtree's root.
    pub(crate) depth: u32,
    /// The subtree's root as the problem encodes it.
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
        let node = match &self.node {
            Some(bytes) => problem.decode(bytes)?,
            None if self.prefix.depth() == self.depth as usize => {
                replay(problem, mode, &self.prefix)?
            }
            None => return None,
        };
        Some(Task {
            prefix: self.prefix.clone(),
            depth: self.depth as usize,
            node,
        })
    }
}
