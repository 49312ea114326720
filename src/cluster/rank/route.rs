//! Which side of a rank a message is for: the rank's own state machine
//! (`rank.rs`), its group's master (`group.rs`), or rank 0's head
//! (`head.rs`). The real manager and its workers (`link.rs`) and the
//! simulator (`sim/driver.rs`) route by this one function, so a message
//! goes to the same side, or is refused naming its sender alike, in both.

use crate::cluster::outcome::RunError;
use crate::cluster::protocol::Message;

/// Where a message goes.
#[derive(Debug)]
pub(crate) enum Side {
    /// The rank's own state machine (`RankState::on_message`).
    Rank(Message),
    /// `Terminate`: the rank stops its workers and reports; whoever runs
    /// it knows the rank's times (`RankState::on_terminate`).
    Terminate,
    /// The root's message to the group master this rank runs (a `Down`'s
    /// content).
    Root(Message),
    /// A rank's message to the group master this rank runs.
    Group(Message),
    /// A rank's message to the master (rank 0's head).
    Head(Message),
}

/// Where `msg`, from `from`, goes on `rank` (`group_master`: it runs its
/// group's master). A message no side of this rank takes is refused,
/// naming its sender.
pub(crate) fn side(
    rank: usize,
    from: usize,
    msg: Message,
    group_master: bool,
) -> Result<Side, RunError> {
    Ok(match msg {
        Message::Work { .. }
        | Message::Donation { .. }
        | Message::DonateRequest { .. }
        | Message::StealRequest
        | Message::NoWork
        | Message::Incumbent(_) => Side::Rank(msg),
        Message::Terminate => Side::Terminate,
        Message::Down(msg) if group_master => Side::Root(*msg),
        msg if group_master && !matches!(msg, Message::Up { .. } | Message::Down(_)) => {
            Side::Group(msg)
        }
        msg if rank == 0 && !matches!(msg, Message::Down(_)) => Side::Head(msg),
        msg => {
            return Err(RunError::Protocol {
                rank: from,
                what: msg.kind(),
            });
        }
    })
}

#[cfg(test)]
mod test {
    use super::*;

    fn refused(
        rank: usize,
        from: usize,
        msg: Message,
        group_master: bool,
    ) -> (usize, &'static str) {
        match side(rank, from, msg, group_master) {
            Err(RunError::Protocol { rank, what }) => (rank, what),
            other => panic!("taken: {other:?}"),
        }
    }

    #[test]
    fn each_message_goes_to_one_side_and_strays_are_refused_naming_the_sender() {
        let ask = || Message::AskForWork {
            tally: Default::default(),
            after: Default::default(),
            dealt: 0,
        };
        assert!(matches!(
            side(3, 0, Message::NoWork, false),
            Ok(Side::Rank(_))
        ));
        assert!(matches!(
            side(3, 0, Message::Terminate, true),
            Ok(Side::Terminate)
        ));
        assert!(matches!(side(0, 2, ask(), false), Ok(Side::Head(_))));
        assert!(matches!(side(4, 5, ask(), true), Ok(Side::Group(_))));
        let down = || Message::Down(Box::new(Message::Terminate));
        assert!(matches!(
            side(4, 0, down(), true),
            Ok(Side::Root(Message::Terminate))
        ));
        // A `Down` to a rank that runs no group master, rank 0 included.
        assert_eq!(refused(3, 0, down(), false), (0, "Down"));
        assert_eq!(refused(0, 7, down(), false), (7, "Down"));
        // A master's message to a rank that runs no master.
        assert_eq!(refused(3, 2, ask(), false), (2, "AskForWork"));
    }
}
