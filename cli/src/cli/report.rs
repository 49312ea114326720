//! Turning an [`Outcome`] into text: the summary line, the `--stats` table
//! and the `--json` object.

use crate::text::cpu_share;
use hysolve::Mode;
use hysolve::Outcome;
use hysolve::advanced::Uniqueness;
use std::fmt::Write;

/// `prepare_s`: reading the input and preparing the problem (before the search clock).
pub fn summary(name: &str, instance: &str, o: &Outcome, prepare_s: f64) -> String {
    let answer = match o.mode {
        Mode::Count | Mode::All if o.solutions == 1 => "1 solution".to_string(),
        Mode::Count | Mode::All => format!("{} solutions", o.solutions),
        Mode::First if o.solutions == 0 => "no solution".to_string(),
        Mode::First => "found a solution".to_string(),
        Mode::Unique => match Uniqueness::from_found(o.solutions) {
            Uniqueness::None => "no solution".to_string(),
            Uniqueness::Unique => "unique solution".to_string(),
            Uniqueness::Multiple => "multiple solutions (two shown)".to_string(),
        },
        Mode::Optimise => match o.objective {
            Some(v) => format!("objective {v}"),
            None => "no solution".to_string(),
        },
    };
    format!(
        "{name} {instance}: {answer} ({} mode, {} rank{} x {} thread{}, {:.3} s search + {:.3} s input, {} nodes{})",
        o.mode,
        o.ranks,
        if o.ranks == 1 { "" } else { "s" },
        o.threads,
        if o.threads == 1 { "" } else { "s" },
        o.wall_s,
        prepare_s,
        o.nodes,
        // The depth of the whole tree, where the search knows it.
        match (o.mode, o.depth) {
            (Mode::Count, Some(d)) => format!(", depth {d}"),
            _ => String::new(),
        }
    )
}

/// A run's search anomaly: its nodes over those of the same search on one
/// thread alone (`--anomaly`). Above 1, the parallel run visited nodes
/// that the sequential order prunes; below 1, it met a good solution
/// sooner.
#[derive(Clone, Copy, Debug)]
pub struct Anomaly {
    pub nodes: u64,
    pub sequential: u64,
}

impl Anomaly {
    /// `None` when the sequential search visited no node.
    pub fn ratio(&self) -> Option<f64> {
        (self.sequential > 0).then(|| self.nodes as f64 / self.sequential as f64)
    }

    /// The line `--stats` prints (and `--anomaly` alone).
    pub fn line(&self) -> String {
        match self.ratio() {
            Some(r) => format!(
                "anomaly: {r:.3} ({} nodes in this run over {} nodes of the search on one thread alone)",
                self.nodes, self.sequential
            ),
            None => format!(
                "anomaly: none (the search on one thread alone visited no node; {} nodes in this run)",
                self.nodes
            ),
        }
    }
}

pub fn stats_table(o: &Outcome, anomaly: Option<Anomaly>) -> String {
    let mut s = String::new();
    let m = &o.master;
    let _ = writeln!(
        s,
        "vector instructions: {} (HYSOLVE_SIMD; this processor has up to {})",
        hysolve::advanced::simd::level(),
        hysolve::advanced::simd::detected()
    );
    let _ = writeln!(s, "master: {m}");
    for r in &o.reports {
        let Some(g) = &r.group else { continue };
        let _ = writeln!(s, "group master on rank {}: {g:#}", r.rank);
    }
    match anomaly {
        Some(a) => {
            let _ = writeln!(s, "{}", a.line());
        }
        None if matches!(o.mode, Mode::Optimise | Mode::First | Mode::Unique) => {
            let _ = writeln!(
                s,
                "anomaly: not measured (--anomaly searches again on one thread to measure it)"
            );
        }
        None => {}
    }
    if o.mode == Mode::Optimise {
        let sent: Vec<String> = o
            .reports
            .iter()
            .map(|r| format!("rank {}: {}", r.rank, r.improvements_sent))
            .collect();
        let _ = writeln!(s, "incumbent: Improved sent by {}", sent.join(", "));
    }
    let trips = |t: Option<hysolve::advanced::TripSummary>| match t {
        Some(t) => t.to_string(),
        None => "none".to_string(),
    };
    let _ = writeln!(
        s,
        "steal round trips, request for work to the work: {}",
        trips(o.steal_round_trips())
    );
    let _ = writeln!(
        s,
        "split waits, request to donate to a worker's split: {}",
        trips(
            hysolve::advanced::RoundTrips::merged(o.reports.iter().map(|r| &r.split_waits))
                .summary()
        )
    );
    for r in o.reports.iter().filter(|r| r.steal_round_trips.count > 0) {
        let _ = writeln!(
            s,
            "  rank {}: {}",
            r.rank,
            trips(r.steal_round_trips.summary())
        );
    }
    let hosts: Vec<String> = o
        .reports
        .iter()
        .map(|r| format!("rank {} on {} ({} usable cores)", r.rank, r.host, r.cores))
        .collect();
    let _ = writeln!(s, "{}", hosts.join(", "));
    let _ = writeln!(
        s,
        "{:>4} {:>6} {:>14} {:>12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>6} {:>8} {:>8} {:>8}",
        "rank",
        "worker",
        "nodes",
        "solutions",
        "tasks",
        "steals",
        "l.donat",
        "recv",
        "donated",
        "asks",
        "hungry",
        "busy_s",
        "idle_s",
        "mgr_cpu"
    );
    for r in &o.reports {
        let busy: f64 = r.workers.iter().map(|w| w.busy_s).sum();
        let idle: f64 = r.workers.iter().map(|w| w.idle_s).sum();
        let _ = writeln!(
            s,
            "{:>4} {:>6} {:>14} {:>12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>6} {:>8.3} {:>8.3} {:>8}",
            r.rank,
            "all",
            r.nodes,
            r.solutions,
            r.workers.iter().map(|w| w.tasks).sum::<u64>(),
            r.workers.iter().map(|w| w.local_steals).sum::<u64>(),
            r.workers.iter().map(|w| w.local_donations).sum::<u64>(),
            r.prefixes_received,
            r.prefixes_donated,
            r.asks,
            r.hungers,
            busy,
            idle,
            cpu_share(r.manager_cpu_s, r.wall_s)
        );
        for (i, w) in r.workers.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:>4} {:>6} {:>14} {:>12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>6} {:>8.3} {:>8.3}",
                r.rank,
                i,
                w.nodes,
                "",
                w.tasks,
                w.local_steals,
                w.local_donations,
                "",
                w.prefixes_donated,
                "",
                "",
                w.busy_s,
                w.idle_s
            );
        }
    }
    s
}

pub fn json(
    name: &str,
    instance: &str,
    o: &Outcome,
    prepare_s: f64,
    anomaly: Option<Anomaly>,
) -> String {
    let mut v = serde_json::json!({
        "problem": name,
        "instance": instance,
        "mode": o.mode,
        "solutions": o.solutions,
        "ranks": o.ranks,
        "threads": o.threads,
        "wall_s": o.wall_s,
        "prepare_s": prepare_s,
        "nodes": o.nodes,
        "depth": o.depth,
        "nodes_per_s": if o.wall_s > 0.0 { o.nodes as f64 / o.wall_s } else { 0.0 },
        "simd": hysolve::advanced::simd::level(),
        "master": o.master,
        "rank_stats": o.reports,
        "steal_round_trip_us": o.steal_round_trips(),
    });
    // Each rank's round trips as their percentiles, not every sample.
    for (i, r) in o.reports.iter().enumerate() {
        v["rank_stats"][i]["steal_round_trips"] = serde_json::json!(r.steal_round_trips.summary());
        v["rank_stats"][i]["split_waits"] = serde_json::json!(r.split_waits.summary());
    }
    if o.mode == Mode::Unique {
        v["answer"] = serde_json::json!(Uniqueness::from_found(o.solutions));
    }
    if o.mode == Mode::All {
        v["written"] = serde_json::json!(o.written);
    }
    if let Some(a) = anomaly {
        v["anomaly"] = serde_json::json!({
            "ratio": a.ratio(),
            "nodes": a.nodes,
            "sequential_nodes": a.sequential,
        });
    }
    if o.mode == Mode::Optimise {
        v["objective"] = serde_json::json!(o.objective);
        v["improvements"] = serde_json::json!(o.improvements);
        v["solution"] = serde_json::json!(o.found.first());
    }
    v.to_string()
}
