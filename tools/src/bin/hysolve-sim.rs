//! `hysolve-sim --ranks R --threads T [options] PUZZLE ARGS...`: the
//! extended star simulated on a virtual clock (`hysolve::advanced::sim`):
//! the real master, the real rank state machine and the real search of
//! the puzzle's tree, every node, steal and message charged to the clock.
//! Takes every puzzle `hysolve` takes, with the same arguments.

use clap::{Arg, ArgAction, ArgMatches, Command, value_parser};
use hysolve::advanced::sim::{Network, SimConfig};
use hysolve::advanced::{Checkpoint, CheckpointPlan, DEFAULT_PREFIXES_PER_WORKER};
use hysolve::{Mode, RunConfig};
use hysolve_cli::cli::fingerprint;
use hysolve_cli::doors::{PUZZLES, find};
use std::process::ExitCode;
use std::time::Duration;

fn command() -> Command {
    let mut cmd = Command::new("hysolve-sim")
        .about(
            "Simulate a hysolve run on a virtual clock: the real protocol and the real \
             search, any number of ranks",
        )
        .subcommand_required(true)
        .subcommand_value_name("PUZZLE")
        .arg(
            Arg::new("ranks")
                .long("ranks")
                .value_name("R")
                .value_parser(value_parser!(u32).range(1..=1 << 20))
                .default_value("1")
                .help("Ranks (the master's included)"),
        )
        .arg(
            Arg::new("threads")
                .long("threads")
                .value_name("T")
                .value_parser(value_parser!(u32).range(1..=4096))
                .default_value("1")
                .help("Worker threads per rank"),
        )
        .arg(
            Arg::new("mode")
                .long("mode")
                .value_parser(|s: &str| s.parse::<Mode>())
                .help("count, all, first, unique or optimise [default: the puzzle's]"),
        )
        .arg(
            Arg::new("seed")
                .long("seed")
                .value_parser(value_parser!(u64))
                .default_value("0")
                .help("Seed of the messages' jitter"),
        )
        .arg(
            Arg::new("jitter")
                .long("jitter")
                .value_name("X")
                .value_parser(parse_jitter)
                .default_value("0")
                .help("Each message's delay is drawn between the model's and (1 + X) times it"),
        )
        .arg(
            Arg::new("network")
                .long("network")
                .value_parser(["cluster", "ethernet"])
                .default_value("cluster")
                .help("Network profile: cluster (1.5 µs, 10 GB/s) or ethernet (50 µs, 1.25 GB/s)"),
        )
        .arg(
            Arg::new("latency")
                .long("latency")
                .value_name("US")
                .value_parser(parse_positive)
                .help("One-way latency in microseconds (replaces the profile's)"),
        )
        .arg(
            Arg::new("bandwidth")
                .long("bandwidth")
                .value_name("GBPS")
                .value_parser(parse_positive)
                .help("Bandwidth in GB/s (replaces the profile's)"),
        )
        .arg(
            Arg::new("node-ns")
                .long("node-ns")
                .value_name("NS")
                .value_parser(value_parser!(u64).range(1..))
                .help("Cost of one node in ns [default: measured on this machine]"),
        )
        .arg(
            Arg::new("calibrate")
                .long("calibrate")
                .value_name("SECONDS")
                .value_parser(parse_positive)
                .default_value("1")
                .help("How long the node cost is measured, when --node-ns is not given"),
        )
        .arg(
            Arg::new("calibrate-only")
                .long("calibrate-only")
                .action(ArgAction::SetTrue)
                .conflicts_with("node-ns")
                .help("Only measure the node cost (for --calibrate seconds) and print it: {\"node_ns\": N}"),
        )
        .arg(
            Arg::new("prefixes-per-worker")
                .long("prefixes-per-worker")
                .value_name("N")
                .value_parser(value_parser!(u32).range(1..=100_000))
                .help(format!(
                    "Initial prefixes per worker; a rank of T threads counts as ceil(sqrt(T)), at most 32,768 in all [default: {DEFAULT_PREFIXES_PER_WORKER}]"
                )),
        )
        .arg(
            Arg::new("hunger")
                .long("hunger")
                .value_name("N")
                .value_parser(value_parser!(u32).range(0..=4096))
                .help("Idle workers at which a rank still holding work asks for more; 0: only when dry [default, on ranks of 4 threads or more: a quarter of the threads in one group, 1 in a run of groups]"),
        )
        .arg(
            Arg::new("group-size")
                .long("group-size")
                .value_name("G")
                .value_parser(value_parser!(u32))
                .help("Ranks per group of the extended star's second level; 0: one group [default: one group up to 64 ranks, then about the square root of the ranks]"),
        )
        .arg(
            Arg::new("direct-steals")
                .long("direct-steals")
                .value_name("K")
                .value_parser(value_parser!(u32).range(0..=64))
                .conflicts_with_all(["checkpoint", "resume"])
                .help("Ranks of its group a dry or hungry rank asks for work itself, one at a time, before it asks its master; 0: none [default: 2 in one group, 0 in a run of groups or with checkpoints]; not with checkpoints"),
        )
        .arg(
            Arg::new("message-ns")
                .long("message-ns")
                .value_name("NS")
                .value_parser(value_parser!(u64))
                .help("A manager's CPU for each message sent or received, in ns [default: 2000]"),
        )
        .arg(
            Arg::new("master-ns")
                .long("master-ns")
                .value_name("NS")
                .value_parser(value_parser!(u64))
                .help("The master's bookkeeping for each message, in ns [default: 300]"),
        )
        .arg(
            Arg::new("grain-ns")
                .long("grain-ns")
                .value_name("NS")
                .value_parser(value_parser!(u64).range(1..))
                .help("The clock's grain: the walking a worker does between two looks at the rest of the run (a hungry neighbour is noticed at most this late), in ns [default: 10000]"),
        )
        .arg(
            Arg::new("cores")
                .long("cores")
                .value_name("N")
                .value_parser(value_parser!(u32).range(1..))
                .help("Cores the whole run shares (to compare with an oversubscribed real run) [default: one a worker]"),
        )
        .arg(
            Arg::new("ranks-per-host")
                .long("ranks-per-host")
                .value_name("N")
                .value_parser(value_parser!(u32).range(1..))
                .help("Ranks a machine: a message between two ranks of one machine rings the receiver's doorbell, heard at its workers' next look [default: all the ranks with --cores, else 1]"),
        )
        .arg(
            Arg::new("checkpoint")
                .long("checkpoint")
                .value_name("FILE")
                .value_parser(value_parser!(std::path::PathBuf))
                .help("Write checkpoints as a real run does (hysolve --resume takes them)"),
        )
        .arg(
            Arg::new("checkpoint-every")
                .long("checkpoint-every")
                .value_name("SECONDS")
                .value_parser(parse_positive)
                .default_value("60")
                .help("Virtual seconds between checkpoints"),
        )
        .arg(
            Arg::new("resume")
                .long("resume")
                .value_name("FILE")
                .value_parser(value_parser!(std::path::PathBuf))
                .help("Resume a checkpoint (of a real run or a simulated one)"),
        )
        .arg(
            Arg::new("kill")
                .long("kill")
                .value_name("RANK@SECONDS")
                .value_parser(parse_kill)
                .help("Kill a rank at a virtual time"),
        )
        .arg(
            Arg::new("json")
                .long("json")
                .action(ArgAction::SetTrue)
                .help("Print the prediction as one JSON object"),
        );
    for p in PUZZLES {
        cmd = cmd.subcommand(p.command());
    }
    cmd
}

fn parse_positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("expected a positive number, not {s:?}")),
    }
}

fn parse_jitter(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=100.0).contains(&x) => Ok(x),
        _ => Err(format!("expected a number from 0 to 100, not {s:?}")),
    }
}

fn parse_kill(s: &str) -> Result<(usize, f64), String> {
    let bad = || format!("expected RANK@SECONDS (say 3@0.5), not {s:?}");
    let (rank, at) = s.split_once('@').ok_or_else(bad)?;
    let rank = rank.parse().map_err(|_| bad())?;
    let at: f64 = at.parse().map_err(|_| bad())?;
    if !(at.is_finite() && at >= 0.0) {
        return Err(bad());
    }
    Ok((rank, at))
}

fn main() -> ExitCode {
    let matches = command().get_matches();
    // Warnings by default; `RUST_LOG=hysolve=trace` logs every message
    // the simulated ranks send and take, with its simulated time.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
    match simulate(&matches) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hysolve-sim: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn simulate(m: &ArgMatches) -> Result<(), String> {
    let (name, args) = m.subcommand().expect("a puzzle is required");
    let puzzle = find(name).expect("every subcommand is a puzzle");
    let mode = match m.get_one::<Mode>("mode") {
        Some(&mode) => mode,
        None => puzzle.default_mode(args).map_err(|e| e.to_string())?,
    };
    let job = puzzle.build(args, mode).map_err(|e| e.to_string())?;
    if m.get_flag("calibrate-only") {
        let budget = *m.get_one::<f64>("calibrate").expect("default");
        let ns = job
            .node_ns(mode, Duration::from_secs_f64(budget))
            .ok_or("nothing to measure: this command searches nothing")?;
        println!("{{\"node_ns\": {ns}}}");
        return Ok(());
    }
    let ranks = *m.get_one::<u32>("ranks").expect("default") as usize;
    let threads = *m.get_one::<u32>("threads").expect("default") as usize;
    let mut network = Network::named(m.get_one::<String>("network").expect("default"))
        .expect("clap checked the name");
    if let Some(us) = m.get_one::<f64>("latency") {
        network.latency_ns = (us * 1e3).round() as u64;
        network.name = "custom";
    }
    if let Some(gbps) = m.get_one::<f64>("bandwidth") {
        network.bandwidth = gbps * 1e9;
        network.name = "custom";
    }
    let node_ns = m.get_one::<u64>("node-ns").copied();
    let mut run = RunConfig::new(mode).threads(threads);
    if let Some(&n) = m.get_one::<u32>("hunger") {
        run = run.hunger(n as usize);
    }
    if let Some(&n) = m.get_one::<u32>("group-size") {
        run = run.group_size(n as usize);
    }
    if let Some(&n) = m.get_one::<u32>("direct-steals") {
        run = run.direct_steals(n);
    }
    if let Some(&n) = m.get_one::<u32>("prefixes-per-worker") {
        run = run.prefixes_per_worker(n as usize);
    }
    if let Some(path) = m
        .get_one::<std::path::PathBuf>("checkpoint")
        .or(m.get_one::<std::path::PathBuf>("resume"))
    {
        let fingerprint = fingerprint(puzzle, args).map_err(|e| e.to_string())?;
        let identity =
            Checkpoint::identity(job.name(), &job.instance(), &mode.to_string(), &fingerprint);
        let resume = match m.get_one::<std::path::PathBuf>("resume") {
            Some(file) => Some(Checkpoint::load(file, &identity).map_err(|e| e.to_string())?),
            None => None,
        };
        run = run.checkpoint(CheckpointPlan {
            path: path.clone(),
            every: Duration::from_secs_f64(*m.get_one::<f64>("checkpoint-every").expect("default")),
            identity,
            resume,
        });
    }
    let mut config = SimConfig::new(ranks, run, node_ns.unwrap_or(1));
    config.seed = *m.get_one::<u64>("seed").expect("default");
    config.jitter = *m.get_one::<f64>("jitter").expect("default");
    config.network = network;
    config.kill = m.get_one::<(usize, f64)>("kill").copied();
    let cores = m.get_one::<u32>("cores").map(|&c| c as usize);
    let ranks_per_host = match m.get_one::<u32>("ranks-per-host") {
        Some(&n) => n as usize,
        // Cores shared by the whole run: one machine.
        None if cores.is_some() => ranks,
        None => 1,
    };
    config.machines(cores, ranks_per_host);
    let calibrate = match node_ns {
        Some(_) => None,
        None => Some(Duration::from_secs_f64(
            *m.get_one::<f64>("calibrate").expect("default"),
        )),
    };
    let costs = |c: &mut hysolve::advanced::sim::Costs| {
        if let Some(&ns) = m.get_one::<u64>("message-ns") {
            c.message_cpu_ns = ns;
        }
        if let Some(&ns) = m.get_one::<u64>("master-ns") {
            c.master_ns = ns;
        }
        if let Some(&ns) = m.get_one::<u64>("grain-ns") {
            c.quantum_nodes = (ns / c.node_ns.max(1)).clamp(1, 100_000);
        }
    };
    costs(&mut config.costs);
    let report = job
        .simulate(config, calibrate, &costs)
        .map_err(|e| e.to_string())?;
    if m.get_flag("json") {
        println!(
            "{}",
            serde_json::to_string(&report).expect("a report always serializes")
        );
    } else {
        println!("{report}");
    }
    Ok(())
}
