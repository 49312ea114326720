//! Which rank serves which: the extended star's two levels. Ranks are cut
//! into groups of consecutive ranks; the first rank of each group also
//! runs the group's master, which serves the ranks of its group as rank
//! 0's master serves every rank in a run of one group; rank 0 is then the
//! *root*, a master of group masters. Rank 0's own group is small (rank 0
//! alone, or its node's ranks when the launcher says how many a node
//! holds): its manager already serves every group as the root, and a full
//! group on top of that made it the busiest master of the run. Every rank
//! computes the same layout from the run's size and configuration:
//! nothing about it travels.

/// Ranks at or below which one master serves every rank (one group) when
/// the configuration does not say. Measured (`bench-results/log/2026-11-to-12-groups.md`,
/// "Group masters"): on 16 real ranks groups cost 10 to 18 % of the time,
/// and simulated on 64 ranks of 16 threads in groups of 8 they cost UTS
/// T3XXL 0.651 -> 0.464 efficiency and 5x5 magic 0.814 -> 0.567, each
/// step across groups taking more hops while one master was far from
/// busy; on 1,024 ranks of 16 threads in groups of 32 they lifted T1XXL
/// from 0.239 (one master saturated) to 0.682 (0.661 before rank 0 had
/// a group of its own).
pub(crate) const ONE_GROUP_UP_TO: usize = 64;

/// The groups of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    ranks: usize,
    /// Ranks in group 0, rank 0's; `ranks` for one group.
    first: usize,
    /// Ranks in each other group (the last may have fewer); `ranks` for
    /// one group.
    size: usize,
}

impl Layout {
    /// One group: rank 0's master serves every rank (the one-level star).
    pub(crate) fn flat(ranks: usize) -> Layout {
        Layout {
            ranks: ranks.max(1),
            first: ranks.max(1),
            size: ranks.max(1),
        }
    }

    /// Groups of `group_size` consecutive ranks (0 or at least `ranks`:
    /// one group), after rank 0's own group: rank 0 alone, or the ranks of
    /// its node. With `per_node` ranks on each node (what the launcher
    /// says, when every node has as many), a group is rounded up to whole
    /// nodes: ranks are placed on nodes in order by the launchers we
    /// support (`mpirun --map-by slot`, `ppr:N:node`, Slurm's block
    /// distribution), so a group of whole nodes keeps its traffic on as
    /// few nodes as it can.
    ///
    /// Rank 0's group is small because rank 0's manager is the root too:
    /// simulated, UTS T1XL on 1,024 ranks of 16 threads in groups of 32
    /// kept rank 0 91 % busy (its root's work and a group's of 32) while
    /// the other group masters were 44 % busy (`bench-results/log/2026-11-to-12-groups.md`,
    /// "Group masters").
    pub(crate) fn groups_of(ranks: usize, group_size: usize, per_node: usize) -> Layout {
        let ranks = ranks.max(1);
        if group_size == 0 || group_size >= ranks {
            return Layout::flat(ranks);
        }
        let per_node = per_node.max(1);
        let whole_nodes = per_node > 1 && per_node < ranks;
        let (first, size) = if whole_nodes {
            (per_node, group_size.div_ceil(per_node) * per_node)
        } else {
            (1, group_size)
        };
        Layout {
            ranks,
            first,
            size: size.min(ranks - first),
        }
    }

    /// The group size chosen when none is given: one group up to
    /// [`ONE_GROUP_UP_TO`] ranks; beyond, about the square root of the
    /// ranks (at least 8), so that the root and every group master serve
    /// about as many children each. Simulated at 1,024 ranks of 16 threads
    /// (UTS T1XL, `bench-results/log/2026-11-to-12-groups.md`, "Group masters"): G = 8, 16,
    /// 32, 64, 128 gave 0.436, 0.537, 0.554, 0.409, 0.238 (one group 0.121).
    pub(crate) fn default_group_size(ranks: usize) -> usize {
        if ranks <= ONE_GROUP_UP_TO {
            0
        } else {
            ranks.isqrt().max(8)
        }
    }

    /// Whether there is more than one group (a root above group masters).
    pub(crate) fn grouped(&self) -> bool {
        self.first < self.ranks
    }

    /// Ranks in the run.
    pub(crate) fn ranks(&self) -> usize {
        self.ranks
    }

    /// Ranks per group after rank 0's (the last group may have fewer).
    #[cfg(test)]
    pub(crate) fn group_size(&self) -> usize {
        self.size
    }

    /// How many groups.
    pub(crate) fn groups(&self) -> usize {
        1 + (self.ranks - self.first).div_ceil(self.size)
    }

    /// The group `rank` belongs to.
    pub(crate) fn group_of(&self, rank: usize) -> usize {
        if rank < self.first {
            0
        } else {
            1 + (rank - self.first) / self.size
        }
    }

    /// The rank that runs group `group`'s master: its first.
    pub(crate) fn master_of_group(&self, group: usize) -> usize {
        match group {
            0 => 0,
            g => self.first + (g - 1) * self.size,
        }
    }

    /// The rank whose master serves `rank`: its group's master, or rank 0
    /// in a run of one group.
    pub(crate) fn master_of(&self, rank: usize) -> usize {
        self.master_of_group(self.group_of(rank))
    }

    /// Whether `rank` runs a group's master (in a run of groups).
    pub(crate) fn is_group_master(&self, rank: usize) -> bool {
        self.grouped() && self.master_of(rank) == rank
    }

    /// How many children the root's master serves: the groups, or in a run
    /// of one group the ranks.
    pub(crate) fn root_children(&self) -> usize {
        if self.grouped() {
            self.groups()
        } else {
            self.ranks
        }
    }

    /// The root's child that `rank` belongs to: its group, or itself in a
    /// run of one group.
    pub(crate) fn child_of_root(&self, rank: usize) -> usize {
        if self.grouped() {
            self.group_of(rank)
        } else {
            rank
        }
    }

    /// The rank that speaks for the root's child `child`: its group's
    /// master, or itself in a run of one group.
    pub(crate) fn rank_of_child(&self, child: usize) -> usize {
        if self.grouped() {
            self.master_of_group(child)
        } else {
            child
        }
    }

    /// Whether `rank` runs a master (rank 0, or a group's master): it
    /// polls as rank 0 does.
    pub(crate) fn runs_master(&self, rank: usize) -> bool {
        rank == 0 || self.is_group_master(rank)
    }

    /// The ranks of group `group`, in order.
    pub(crate) fn members(&self, group: usize) -> std::ops::Range<usize> {
        if group == 0 {
            return 0..self.first;
        }
        let start = self.master_of_group(group);
        start..(start + self.size).min(self.ranks)
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn one_group_is_the_flat_star() {
        let l = Layout::flat(5);
        assert!(!l.grouped());
        assert_eq!((l.groups(), l.master_of(4), l.members(0)), (1, 0, 0..5));
        assert!(!l.is_group_master(0));
        assert_eq!(Layout::groups_of(5, 0, 1), l);
        assert_eq!(Layout::groups_of(5, 5, 1), l);
        assert_eq!(Layout::groups_of(5, 9, 1), l);
    }

    #[test]
    fn rank_0_alone_then_uneven_groups_and_their_masters() {
        let l = Layout::groups_of(8, 3, 1);
        assert!(l.grouped());
        assert_eq!(l.groups(), 4);
        assert_eq!(
            (l.members(0), l.members(1), l.members(3)),
            (0..1, 1..4, 7..8)
        );
        assert_eq!(
            (0..8).map(|r| l.master_of(r)).collect::<Vec<_>>(),
            [0, 1, 1, 1, 4, 4, 4, 7]
        );
        assert_eq!(
            (0..8).map(|r| l.group_of(r)).collect::<Vec<_>>(),
            [0, 1, 1, 1, 2, 2, 2, 3]
        );
        assert!(l.is_group_master(0) && l.is_group_master(4) && !l.is_group_master(3));
        for g in 0..l.groups() {
            assert_eq!(l.master_of_group(g), l.members(g).start);
            assert_eq!(l.rank_of_child(g), l.members(g).start);
        }
        // Two ranks: rank 0 and a group of one.
        let l = Layout::groups_of(2, 1, 1);
        assert_eq!((l.groups(), l.members(1)), (2, 1..2));
    }

    #[test]
    fn groups_are_whole_nodes() {
        // 4 ranks a node: rank 0's group is its node, a group of 6 becomes
        // 8, two nodes.
        let l = Layout::groups_of(32, 6, 4);
        assert_eq!((l.group_size(), l.groups()), (8, 5));
        assert_eq!(
            (l.members(0), l.members(1), l.members(4)),
            (0..4, 4..12, 28..32)
        );
        // One rank a node, or every rank on one node: as asked.
        assert_eq!(Layout::groups_of(32, 6, 1).group_size(), 6);
        assert_eq!(Layout::groups_of(32, 6, 32).group_size(), 6);
    }

    #[test]
    fn the_default_is_one_group_then_about_the_square_root() {
        assert_eq!(Layout::default_group_size(64), 0);
        assert_eq!(Layout::default_group_size(65), 8);
        assert_eq!(Layout::default_group_size(1024), 32);
        assert_eq!(Layout::default_group_size(4096), 64);
    }
}
