//! Every message of the extended-star protocol: one definition, one encoder,
//! one decoder. See `README.md` beside this file for who sends what, when.

use crate::engine::{Parcel, Parcels, Prefix, Tally, UnitReport, WorkerStats};
use serde::{Deserialize, Serialize};

/// The `Donation`s a rank (or, towards the root, a group) had received,
/// counted apart by where their victims were: `in_group`, from ranks of
/// its own group, whose `Donated` its master hears from them; `outside`,
/// from ranks of other groups (the root asked for them), whose `Donated`
/// reaches its group's master straight from those victims. A master
/// pairs a thief with one victim at a time, so the donations of each kind
/// reach a thief in the order its master hears of them; the two kinds,
/// decided by two masters, may cross (`causal.rs`). Towards the root a
/// group counts what reached it from other groups, as `outside`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Received {
    pub(super) in_group: u64,
    pub(super) outside: u64,
}

impl Received {
    /// Every donation counted here is counted in `announced` as well.
    pub(super) fn within(self, announced: Received) -> bool {
        self.in_group <= announced.in_group && self.outside <= announced.outside
    }

    /// One more donation, of a victim `outside` the group or in it.
    pub(super) fn add(&mut self, outside: bool) {
        if outside {
            self.outside += 1;
        } else {
            self.in_group += 1;
        }
    }

    /// Donations of a group's ranks from other groups, as the root counts
    /// a group's (`outside`).
    pub(super) fn outside(n: u64) -> Received {
        Received {
            in_group: 0,
            outside: n,
        }
    }
}

/// A message between a rank's manager and the master, or from a victim to
/// its thief.
///
/// The messages a rank sends the master that depend on the donations it
/// received (`AskForWork`, `Hungry`, `UnitDone`, `Donated`) carry `after`:
/// the `Donation`s the rank had received when it sent them, counted apart
/// by where their victims were ([`Received`]). The master handles them
/// only once it has handled as many `Donated` naming that rank, of each
/// kind (see `causal.rs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) enum Message {
    /// Rank -> master: every task this rank was given is finished. Carries
    /// the rank's running totals for the progress display, and `dealt`:
    /// the `Work` and `Donation` messages it had received when it asked
    /// (an ask that crossed work on its way to the rank is not the rank's
    /// last: the master does not count it as waiting).
    AskForWork {
        tally: Tally,
        after: Received,
        dealt: u64,
    },
    /// Rank -> master: the rank still holds work, but enough of its
    /// workers are idle with nothing to steal that it would take more (a
    /// rank that would wait until every worker is idle leaves most of them
    /// idle while its last subtrees shrink). Answered by `Work` or a
    /// `Donation`, or by nothing; at most one is out at a time.
    Hungry { after: Received },
    /// Rank -> master, about once a second while the rank works: its
    /// running totals, for the progress display. Changes nothing else.
    Progress(Tally),
    /// Master -> rank: subtrees to search. `initial_depth` is the depth of
    /// the master's initial prefixes, so the rank can count those it walks.
    Work {
        parcels: Vec<Parcel>,
        initial_depth: u32,
    },
    /// Master -> rank: split off half of your unexplored subtrees for
    /// `thief`, a waiting or hungry rank, and send them to it. `asks` is how many
    /// `AskForWork` of this rank the master had handled: a rank that has
    /// sent more since ignores the request (its ask answered it).
    /// Answered by a `Donation` to the thief and a `Donated` to the master,
    /// or, when the rank has nothing left to give, by its next `AskForWork`.
    DonateRequest { thief: u32, asks: u64 },
    /// Victim -> thief: the answer to a `DonateRequest`, or (`direct`) to
    /// the thief's own `StealRequest`: subtrees to search (never empty),
    /// as in `Work`.
    Donation {
        parcels: Parcels,
        initial_depth: u32,
        direct: bool,
    },
    /// Victim -> master: the rank sent `thief` a `Donation` of `parcels`
    /// subtrees in answer to the master's `DonateRequest`; with checkpoints
    /// on, `units` names the unit of each. A direct donation (the answer to
    /// a thief's own `StealRequest`) has none: the master never hears of
    /// it (`README.md`, "Direct steals").
    Donated {
        thief: u32,
        parcels: u32,
        units: Vec<Prefix>,
        after: Received,
    },
    /// Rank -> rank of its group, with direct steals on: the sender's pool
    /// ran dry, or is hungry, and it asks this rank for work before it asks
    /// its master. Answered by a `Donation` (`direct`) or by `NoWork`,
    /// always: the sender waits for the answer before it asks again.
    StealRequest,
    /// Rank -> rank: the answer to a `StealRequest` when the rank has
    /// nothing to give.
    NoWork,
    /// Rank -> master: solutions found (modes that keep solutions), with
    /// checkpoints on, tagged with the unit they belong to.
    Solutions {
        unit: Option<Prefix>,
        texts: Vec<String>,
    },
    /// Rank -> master, with checkpoints on: the rank holds no more of a unit
    /// (it sent the `Donated` of any parcels it split off before this).
    UnitDone { report: UnitReport, after: Received },
    /// Rank -> master, optimisation: a solution better than any the rank
    /// knew of (found there or told by the master): its objective and text.
    Improved { value: u64, text: String },
    /// Master -> rank, optimisation: the best objective known anywhere
    /// (sent when it improves, to every rank but the finder): nothing that
    /// cannot beat it is worth walking.
    Incumbent(u64),
    /// Master -> rank: stop now and report.
    Terminate,
    /// Rank -> master: the rank's last word, after `Terminate`.
    Final(Box<RankReport>),
    /// Group master -> root, in a run of groups: a message of the group's
    /// master to the root, which serves groups as a master serves ranks
    /// (`AskForWork` when no rank of the group holds work, `Hungry`,
    /// `Progress`, `Donated`, `Solutions`, `UnitDone`, `Improved`, and
    /// each rank's `Final`). `receiver` is the rank of the group a donation
    /// for the group goes to (a rank that waits, when one does).
    Up { receiver: u32, msg: Box<Message> },
    /// Root -> group master: a message for the group's master, not for the
    /// rank that runs it (`Work`, `DonateRequest`, `Incumbent`,
    /// `Terminate`).
    Down(Box<Message>),
}

/// A message in the trace log: [`Message::logged`].
pub(super) struct Logged<'a>(&'a Message);

impl std::fmt::Debug for Logged<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Message::Work {
                parcels,
                initial_depth,
            } => f
                .debug_struct("Work")
                .field("parcels", &parcels.len())
                .field("initial_depth", initial_depth)
                .finish(),
            Message::Donation {
                parcels,
                initial_depth,
                direct,
            } => f
                .debug_struct("Donation")
                .field("parcels", &parcels.len())
                .field("initial_depth", initial_depth)
                .field("direct", direct)
                .finish(),
            Message::Solutions { unit, texts } => f
                .debug_struct("Solutions")
                .field("unit", unit)
                .field("texts", &texts.len())
                .finish(),
            Message::Up { receiver, msg } => f
                .debug_struct("Up")
                .field("receiver", receiver)
                .field("msg", &msg.logged())
                .finish(),
            Message::Down(msg) => f.debug_tuple("Down").field(&msg.logged()).finish(),
            other => std::fmt::Debug::fmt(other, f),
        }
    }
}

/// What one rank did over a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RankReport {
    /// The rank.
    pub rank: usize,
    /// Nodes its workers visited.
    pub nodes: u64,
    /// Solutions its workers found (weighted).
    pub solutions: u64,
    /// The deepest node this rank visited, when known.
    pub(crate) depth: Option<u64>,
    /// Each worker's statistics.
    pub workers: Vec<WorkerStats>,
    /// Prefixes received in `Work` messages.
    pub prefixes_received: u64,
    /// Prefixes sent in `Donation` messages.
    pub prefixes_donated: u64,
    /// `Donation` messages received (from victims asked for this rank).
    pub donations_received: u64,
    /// `AskForWork` messages sent.
    pub asks: u64,
    /// `Hungry` messages sent.
    pub hungers: u64,
    /// `StealRequest` messages sent (direct steals).
    #[serde(default)]
    pub(crate) steal_requests: u64,
    /// Direct donations received (answers to its `StealRequest`s), and
    /// the prefixes they held: the master hears of them only here.
    #[serde(default)]
    pub(crate) stolen: u64,
    #[serde(default)]
    pub(crate) prefixes_stolen: u64,
    /// Its steal round trips: from each request for work to the work.
    #[serde(default)]
    pub steal_round_trips: super::rank::trips::RoundTrips,
    /// How long each donation it owed waited for a worker to split its
    /// walk: from the request (the master's or a thief's) to the split.
    #[serde(default)]
    pub split_waits: super::rank::trips::RoundTrips,
    /// `Improved` messages it sent: improvements on the best it knew.
    pub improvements_sent: u64,
    /// `Incumbent` messages it received.
    pub(crate) incumbents_received: u64,
    /// Messages this rank's manager sent (to other ranks).
    pub(crate) messages_sent: u64,
    /// CPU seconds used by the manager thread.
    pub manager_cpu_s: f64,
    /// Seconds from the rank's start to its `Final`.
    pub wall_s: f64,
    /// The host the rank ran on, the cores it could use there (its CPU
    /// affinity), and the processors the host has online.
    pub host: String,
    /// The cores this rank could use (its CPU affinity).
    pub cores: usize,
    /// The processors its host has online.
    pub(crate) host_cpus: usize,
    /// In a run of groups, on the first rank of each group: what the
    /// group's master did.
    pub group: Option<super::MasterStats>,
}

/// A message that could not be decoded.
#[derive(Debug, thiserror::Error)]
#[error("malformed protocol message ({len} bytes): {source}")]
pub struct DecodeError {
    len: usize,
    source: postcard::Error,
}

impl DecodeError {
    /// `len` bytes that `source` says are no message, or no part of one
    /// (a donation's packed parcels).
    pub(super) fn new(len: usize, source: postcard::Error) -> Self {
        DecodeError { len, source }
    }
}

impl Message {
    /// The message's name, as errors show it.
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Message::AskForWork { .. } => "AskForWork",
            Message::Hungry { .. } => "Hungry",
            Message::Progress(_) => "Progress",
            Message::Work { .. } => "Work",
            Message::DonateRequest { .. } => "DonateRequest",
            Message::Donation { .. } => "Donation",
            Message::Donated { .. } => "Donated",
            Message::StealRequest => "StealRequest",
            Message::NoWork => "NoWork",
            Message::Solutions { .. } => "Solutions",
            Message::UnitDone { .. } => "UnitDone",
            Message::Improved { .. } => "Improved",
            Message::Incumbent(_) => "Incumbent",
            Message::Terminate => "Terminate",
            Message::Final(_) => "Final",
            Message::Up { .. } => "Up",
            Message::Down(_) => "Down",
        }
    }

    /// The message as the trace log shows it (`RUST_LOG=hysolve=trace`):
    /// as `Debug`, but work as its count of parcels, not every parcel's
    /// path (a split of a deep walk gives thousands of them), and
    /// solutions as their count.
    pub(super) fn logged(&self) -> Logged<'_> {
        Logged(self)
    }

    /// The donations the sender had received when it sent this, for the
    /// messages the master orders after them (see `causal.rs`).
    pub(super) fn after(&self) -> Option<Received> {
        match self {
            Message::AskForWork { after, .. }
            | Message::Hungry { after }
            | Message::Donated { after, .. }
            | Message::UnitDone { after, .. } => Some(*after),
            Message::Up { msg, .. } => msg.after(),
            _ => None,
        }
    }

    pub(super) fn encode(&self) -> Vec<u8> {
        postcard::to_stdvec(self).expect("protocol messages always serialize")
    }

    pub(super) fn decode(bytes: &[u8]) -> Result<Message, DecodeError> {
        postcard::from_bytes(bytes).map_err(|source| DecodeError {
            len: bytes.len(),
            source,
        })
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::Count;

    fn every_message() -> Vec<Message> {
        let parcels = vec![
            Parcel::named(Prefix(vec![])),
            Parcel::named(Prefix(vec![3, 0, u32::MAX])),
            Parcel::named(Prefix(vec![1; 40])),
            Parcel {
                prefix: Prefix(vec![2]),
                depth: 17_844,
                node: Some(vec![0xAB; 24]),
            },
        ];
        vec![
            Message::AskForWork {
                tally: Tally {
                    nodes: u64::MAX,
                    solutions: 7,
                    initial_done: 3,
                },
                after: Received {
                    in_group: 2,
                    outside: 1,
                },
                dealt: 5,
            },
            Message::Hungry {
                after: Received::outside(3),
            },
            Message::Progress(Tally::default()),
            Message::Work {
                parcels: parcels.clone(),
                initial_depth: 2,
            },
            Message::Work {
                parcels: vec![],
                initial_depth: 0,
            },
            Message::DonateRequest {
                thief: 4095,
                asks: 3,
            },
            Message::Donation {
                parcels: Parcels::from_parcels(&parcels),
                initial_depth: 3,
                direct: false,
            },
            Message::Donation {
                parcels: Parcels::default(),
                initial_depth: 0,
                direct: true,
            },
            Message::Donated {
                thief: 7,
                parcels: 3,
                units: vec![Prefix(vec![0, 1]), Prefix(vec![2, 2])],
                after: Received {
                    in_group: u64::MAX,
                    outside: u64::MAX,
                },
            },
            Message::StealRequest,
            Message::NoWork,
            Message::UnitDone {
                report: UnitReport {
                    unit: Prefix(vec![2, 7]),
                    received: 3,
                    count: Count {
                        nodes: 99,
                        solutions: 4,
                        depth: Some(12),
                    },
                },
                after: Received::default(),
            },
            Message::Solutions {
                unit: Some(Prefix(vec![1])),
                texts: vec!["Q.\n.Q".into(), String::new(), "ünïcode".into()],
            },
            Message::Improved {
                value: 27,
                text: "1 5 9".into(),
            },
            Message::Incumbent(u64::MAX),
            Message::Terminate,
            Message::Final(Box::new(RankReport {
                depth: Some(17_844),
                rank: 3,
                nodes: 1 << 40,
                solutions: 14_772_512,
                workers: vec![WorkerStats {
                    nodes: 5,
                    busy_s: 1.5,
                    idle_s: 0.25,
                    ..WorkerStats::default()
                }],
                prefixes_received: 9,
                prefixes_donated: 4,
                donations_received: 1,
                asks: 2,
                hungers: 5,
                steal_requests: 6,
                stolen: 2,
                prefixes_stolen: 11,
                steal_round_trips: trips(&[12, 300]),
                split_waits: trips(&[40]),
                improvements_sent: 3,
                incumbents_received: 4,
                messages_sent: 17,
                manager_cpu_s: 0.01,
                wall_s: 2.0,
                host: "node-07".into(),
                cores: 16,
                host_cpus: 32,
                group: Some(crate::cluster::MasterStats {
                    work_messages: 3,
                    ..Default::default()
                }),
            })),
        ]
    }

    /// Round trips of these many microseconds.
    fn trips(us: &[u64]) -> crate::cluster::RoundTrips {
        let mut t = crate::cluster::RoundTrips::default();
        for &u in us {
            t.record(std::time::Duration::from_micros(u));
        }
        t
    }

    #[test]
    fn every_message_round_trips() {
        let mut all = every_message();
        let wrapped: Vec<Message> = all
            .iter()
            .flat_map(|m| {
                [
                    Message::Up {
                        receiver: 1023,
                        msg: Box::new(m.clone()),
                    },
                    Message::Down(Box::new(m.clone())),
                ]
            })
            .collect();
        all.extend(wrapped);
        for msg in all {
            let bytes = msg.encode();
            assert_eq!(Message::decode(&bytes).unwrap(), msg);
        }
    }

    #[test]
    fn truncated_and_garbage_bytes_are_errors_not_panics() {
        for msg in every_message() {
            let bytes = msg.encode();
            for cut in 0..bytes.len() {
                let _ = Message::decode(&bytes[..cut]);
            }
        }
        assert!(Message::decode(&[]).is_err());
        assert!(Message::decode(&[200, 1, 2, 3]).is_err());
    }
}
