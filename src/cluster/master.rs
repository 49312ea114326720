//! The master's bookkeeping, free of any transport: which ranks wait for
//! work, which owe a donation, what is left in the pool, and when the answer
//! is known. `README.md` beside this file argues why it terminates exactly
//! when all work is done.

use super::protocol::{Message, RankReport};
use crate::engine::{Piece, Tally};
use std::collections::VecDeque;
use std::time::Instant;

/// Messages the master wants sent: (destination rank, message).
pub type Outbox = Vec<(usize, Message)>;

#[derive(Debug, Clone, Default)]
struct RankState {
    /// Sent `AskForWork` and has not been served since.
    waiting: bool,
    /// Was asked to donate and has answered neither with a `Donation` nor
    /// with an `AskForWork` (which says it has nothing left to give).
    owes_donation: bool,
    /// Running totals from its last `AskForWork` or `Progress`.
    tally: Tally,
}

/// What the master itself did, for `--stats`.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct MasterStats {
    pub initial_prefixes: u64,
    /// Messages the master sent to other ranks (work, donation requests,
    /// terminate).
    pub messages_sent: u64,
    pub work_messages: u64,
    pub prefixes_dealt: u64,
    pub donation_requests: u64,
    pub prefixes_returned: u64,
}

pub struct Master {
    pool: VecDeque<Piece>,
    ranks: Vec<RankState>,
    limit: Option<u64>,
    found: u64,
    /// Next rank to ask for a donation (round robin).
    cursor: usize,
    terminated_at: Option<Instant>,
    finals: Vec<Option<RankReport>>,
    /// Depth of the initial prefixes (they all have the same).
    initial_depth: u32,
    pub stats: MasterStats,
}

impl Master {
    /// A master for `ranks` ranks with the initial prefixes. Every rank,
    /// the master's own included, starts busy and announces itself with an
    /// `AskForWork`.
    pub fn new(ranks: usize, initial: Vec<Piece>, limit: Option<u64>) -> Self {
        let initial_depth = initial.first().map_or(0, |p| p.depth);
        Master {
            initial_depth,
            stats: MasterStats {
                initial_prefixes: initial.len() as u64,
                ..MasterStats::default()
            },
            pool: initial.into(),
            ranks: vec![RankState::default(); ranks],
            limit,
            found: 0,
            cursor: 0,
            terminated_at: None,
            finals: vec![None; ranks],
        }
    }

    pub fn terminated(&self) -> bool {
        self.terminated_at.is_some()
    }

    /// When the answer became known.
    pub fn terminated_at(&self) -> Option<Instant> {
        self.terminated_at
    }

    /// Every rank has sent its `Final`.
    pub fn finished(&self) -> bool {
        self.finals.iter().all(Option::is_some)
    }

    pub fn into_reports(self) -> (Vec<RankReport>, MasterStats) {
        (self.finals.into_iter().flatten().collect(), self.stats)
    }

    /// Running totals the ranks last reported.
    pub fn progress(&self) -> Tally {
        self.ranks.iter().fold(Tally::default(), |t, r| t + r.tally)
    }

    /// Running totals one rank last reported.
    pub fn rank_progress(&self, rank: usize) -> Tally {
        self.ranks[rank].tally
    }

    pub fn on_progress(&mut self, from: usize, tally: Tally) {
        self.ranks[from].tally = tally;
    }

    #[cfg(test)]
    fn pool_len(&self) -> usize {
        self.pool.len()
    }

    pub fn on_ask(&mut self, from: usize, tally: Tally, out: &mut Outbox) {
        // An `AskForWork` also answers a donation request: the rank has
        // nothing left, and any donation it made arrived before this.
        let r = &mut self.ranks[from];
        r.waiting = true;
        r.owes_donation = false;
        r.tally = tally;
        self.serve(out);
    }

    pub fn on_donation(&mut self, from: usize, prefixes: Vec<Piece>, out: &mut Outbox) {
        self.ranks[from].owes_donation = false;
        self.stats.prefixes_returned += prefixes.len() as u64;
        self.pool.extend(prefixes);
        self.serve(out);
    }

    /// Counts `n` solutions towards the mode's limit and returns how many of
    /// them the answer keeps (all of them in modes without a limit).
    pub fn on_solutions(&mut self, n: usize, out: &mut Outbox) -> usize {
        if self.terminated() {
            return 0;
        }
        let keep = match self.limit {
            Some(limit) => (limit.saturating_sub(self.found) as usize).min(n),
            None => n,
        };
        self.found += keep as u64;
        if self.limit.is_some_and(|l| self.found >= l) {
            self.terminate(out);
        }
        keep
    }

    pub fn on_final(&mut self, report: RankReport) {
        let rank = report.rank;
        self.finals[rank] = Some(report);
    }

    /// Stops the run now (a signal): every rank is told to terminate.
    pub fn interrupt(&mut self, out: &mut Outbox) {
        if !self.terminated() {
            self.terminate(out);
        }
    }

    fn terminate(&mut self, out: &mut Outbox) {
        self.terminated_at = Some(Instant::now());
        for rank in 0..self.ranks.len() {
            self.push(out, rank, Message::Terminate);
        }
    }

    fn push(&mut self, out: &mut Outbox, rank: usize, msg: Message) {
        if rank != 0 {
            self.stats.messages_sent += 1;
        }
        out.push((rank, msg));
    }

    /// Serves waiting ranks from the pool; when the pool runs dry, asks busy
    /// ranks to donate; when nothing is left anywhere, terminates.
    fn serve(&mut self, out: &mut Outbox) {
        if self.terminated() {
            return;
        }
        let n = self.ranks.len();
        for rank in 0..n {
            if self.pool.is_empty() {
                break;
            }
            if !self.ranks[rank].waiting {
                continue;
            }
            // Half the pool spread over the ranks: big batches while there
            // is plenty, single prefixes near the end.
            let batch = self.pool.len().div_ceil(2 * n).max(1);
            let pieces: Vec<Piece> = self.pool.drain(..batch).collect();
            self.stats.work_messages += 1;
            self.stats.prefixes_dealt += pieces.len() as u64;
            self.ranks[rank].waiting = false;
            let initial_depth = self.initial_depth;
            self.push(
                out,
                rank,
                Message::Work {
                    pieces,
                    initial_depth,
                },
            );
        }
        if !self.pool.is_empty() {
            return;
        }
        let waiting = self.ranks.iter().filter(|r| r.waiting).count();
        if waiting == 0 {
            return;
        }
        let owed = self.ranks.iter().filter(|r| r.owes_donation).count();
        let mut to_ask = waiting.saturating_sub(owed);
        for k in 0..n {
            if to_ask == 0 {
                break;
            }
            let rank = (self.cursor + k) % n;
            let r = &mut self.ranks[rank];
            if !r.waiting && !r.owes_donation {
                r.owes_donation = true;
                self.stats.donation_requests += 1;
                if rank != 0 {
                    self.stats.messages_sent += 1;
                }
                out.push((rank, Message::DonateRequest));
                to_ask -= 1;
                self.cursor = (rank + 1) % n;
            }
        }
        if waiting == n {
            // Pool empty and every rank idle: done (see README.md).
            self.terminate(out);
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn p(i: u32) -> Piece {
        Piece::named(crate::engine::Prefix(vec![i]))
    }

    fn kinds(out: &Outbox) -> Vec<(usize, &'static str)> {
        out.iter()
            .map(|(r, m)| {
                (
                    *r,
                    match m {
                        Message::Work { .. } => "work",
                        Message::DonateRequest => "donate",
                        Message::Terminate => "terminate",
                        _ => "other",
                    },
                )
            })
            .collect()
    }

    #[test]
    fn empty_pool_and_all_idle_terminates() {
        let mut m = Master::new(2, vec![], None);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), &mut out);
        assert_eq!(kinds(&out), vec![(1, "donate")]);
        assert!(!m.terminated());
        out.clear();
        // Rank 1 runs dry: its ask answers the request.
        m.on_ask(1, Tally::default(), &mut out);
        assert!(m.terminated());
        assert_eq!(kinds(&out), vec![(0, "terminate"), (1, "terminate")]);
    }

    #[test]
    fn donated_work_reaches_the_waiting_rank() {
        let mut m = Master::new(2, vec![p(0)], None);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), &mut out);
        m.on_ask(1, Tally::default(), &mut out);
        assert_eq!(kinds(&out), vec![(0, "work"), (0, "donate")]);
        out.clear();
        m.on_donation(0, vec![p(5), p(6)], &mut out);
        assert_eq!(
            out,
            vec![(
                1,
                Message::Work {
                    pieces: vec![p(5)],
                    initial_depth: 1,
                }
            )]
        );
        assert_eq!(m.pool_len(), 1);
    }

    #[test]
    fn no_termination_while_donated_work_runs() {
        let mut m = Master::new(2, vec![], None);
        let mut out = Outbox::new();
        m.on_ask(1, Tally::default(), &mut out); // rank 0 busy, asked to donate
        assert_eq!(kinds(&out), vec![(0, "donate")]);
        out.clear();
        // rank 0 answers with work, then runs dry.
        m.on_donation(0, vec![p(1)], &mut out);
        assert_eq!(kinds(&out), vec![(1, "work")]);
        out.clear();
        m.on_ask(0, Tally::default(), &mut out);
        assert!(!m.terminated(), "rank 1 still works on the donated prefix");
        assert_eq!(kinds(&out), vec![(1, "donate")]);
        out.clear();
        m.on_ask(1, Tally::default(), &mut out);
        assert!(m.terminated());
    }

    #[test]
    fn a_busy_rank_is_asked_once() {
        let mut m = Master::new(3, vec![], None);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), &mut out);
        assert_eq!(kinds(&out), vec![(1, "donate")]);
        out.clear();
        m.on_ask(2, Tally::default(), &mut out);
        assert!(out.is_empty(), "rank 1 already owes a donation: {out:?}");
        m.on_ask(1, Tally::default(), &mut out);
        assert!(m.terminated());
    }

    #[test]
    fn limit_terminates_and_trims() {
        let mut m = Master::new(3, vec![p(0), p(1)], Some(2));
        let mut out = Outbox::new();
        assert_eq!(m.on_solutions(1, &mut out), 1);
        assert!(!m.terminated());
        assert_eq!(m.on_solutions(3, &mut out), 1);
        assert!(m.terminated());
        assert_eq!(out.len(), 3);
        assert_eq!(m.on_solutions(1, &mut out), 0);
    }
}
