//! The simulator (`hysolve::advanced::sim`): exact counts at any scale and
//! under any schedule its jitter draws, the same report for the same seed,
//! the modes that stop early, a killed rank, and `hysolve-sim`'s errors.

use crate::common;

use hysolve::advanced::sequential;
use hysolve::advanced::sim::{SimConfig, SimError, SimReport, simulate};
use hysolve::{Mode, RunConfig};
use hysolve_puzzles::queens::Queens;
use hysolve_puzzles::uts::Uts;
use hysolve_puzzles::uts::params::Params;
use std::process::Command;
use std::sync::Arc;

fn t1() -> Arc<Uts> {
    let (p, _) = Params::named("T1").unwrap();
    Arc::new(Uts::new(p, "T1"))
}

/// UTS T1: 4,130,071 nodes, 3,305,118 leaves (Olivier et al.).
const T1: (u64, u64) = (3_305_118, 4_130_071);

/// UTS T3: 4,112,897 nodes, 3,599,034 leaves (Olivier et al.).
const T3: (u64, u64) = (3_599_034, 4_112_897);

/// `ranks` x `threads` in `mode`, a node costing `node_ns`, on the
/// cluster interconnect.
fn sim_config(mode: Mode, ranks: usize, threads: usize, node_ns: u64) -> SimConfig {
    SimConfig::new(ranks, RunConfig::new(mode).threads(threads), node_ns)
}

/// A field of the report, as `hysolve-sim --json` gives it.
fn field(r: &SimReport, name: &str) -> serde_json::Value {
    serde_json::to_value(r).unwrap()[name].clone()
}

fn counts(r: &SimReport) -> (u64, u64) {
    (r.solutions, r.nodes)
}

/// The report without the one field that may differ between two runs.
fn fixed(r: &SimReport) -> String {
    let mut v = serde_json::to_value(r).unwrap();
    v["simulated_in_s"] = 0.0.into();
    v.to_string()
}

#[test]
fn t1_is_exact_on_2_and_1024_simulated_ranks() {
    let tree = t1();
    for (ranks, threads) in [(1, 1), (2, 1), (1024, 1), (16, 16)] {
        let r = simulate(&tree, &sim_config(Mode::Count, ranks, threads, 30)).unwrap();
        assert_eq!(counts(&r), T1, "{ranks}x{threads}");
        assert_eq!(field(&r, "workers"), ranks * threads);
        assert!(r.predicted_s > 0.0 && r.efficiency > 0.0 && r.efficiency <= 1.0 + 1e-9);
        if ranks > 1 {
            assert!(
                field(&r, "master")["messages_sent"].as_u64().unwrap() > 0
                    && field(&r, "master_received").as_u64() > Some(0)
            );
        }
    }
}

#[test]
fn t1_is_exact_on_64x2_under_8_jittered_seeds_and_a_seed_repeats_exactly() {
    let tree = t1();
    let mut times = Vec::new();
    for seed in 1..=8 {
        let mut config = sim_config(Mode::Count, 64, 2, 30);
        config.seed = seed;
        config.jitter = 2.0;
        let r = simulate(&tree, &config).unwrap();
        assert_eq!(counts(&r), T1, "seed {seed}");
        times.push(r.predicted_s.to_bits());
        if seed == 1 {
            let again = simulate(&tree, &config).unwrap();
            assert_eq!(fixed(&r), fixed(&again), "the same seed, another report");
        }
    }
    // The jitter does reorder the run: the seeds do not all agree.
    times.sort_unstable();
    times.dedup();
    assert!(times.len() > 1, "8 seeds, one schedule");
}

/// A schedule where asks and work cross often: a slow network (ethernet)
/// jittered by up to 4 times each delay, ranks hungry at one idle worker.
fn crossing(ranks: usize, threads: usize, seed: u64) -> SimConfig {
    let mut config = sim_config(Mode::Count, ranks, threads, 30);
    config.seed = seed;
    config.jitter = 4.0;
    config.run = config.run.clone().hunger(1);
    config.network = hysolve::advanced::sim::Network::named("ethernet").unwrap();
    config
}

/// Ranks that ask for more work before they run dry (`Hungry`, here as
/// soon as one worker is idle) cross work on its way to them with their
/// asks; the master must not take such an ask for the rank's last. Under
/// jittered schedules on a slow network the count stays exact (without
/// the master's check of the deals an ask counts, seed 1 already loses
/// subtrees).
#[test]
fn hungry_ranks_keep_the_count_exact_under_32_jittered_seeds() {
    let tree = t1();
    let mut hungers = 0;
    for seed in 1..=32 {
        let mut config = crossing(4, 2, seed);
        // Hungry ranks that ask the master, not their peers first.
        config.run = config.run.clone().direct_steals(0);
        let r = simulate(&tree, &config).unwrap();
        assert_eq!(counts(&r), T1, "seed {seed}");
        hungers += field(&r, "master")["hungers"].as_u64().unwrap();
    }
    assert!(hungers > 1000, "{hungers} hungers handled");
}

/// The extended star's second level: group masters under rank 0. The
/// count and the nodes stay exact at 1,024 ranks of one thread in groups
/// of 32 and at 4,096 ranks of 4 threads in groups of 64, and under 32
/// jittered schedules of 64 ranks of 2 threads in groups of 4 on a slow
/// network (donations across groups, hungry groups, asks that cross work:
/// every path the tree adds), uneven groups too.
#[test]
fn groups_keep_the_count_exact_at_scale_and_under_32_jittered_seeds() {
    let tree = t1();
    for (ranks, threads, group) in [(1024, 1, 32), (4096, 4, 64), (8, 2, 3)] {
        let mut config = sim_config(Mode::Count, ranks, threads, 30);
        config.run = config.run.clone().group_size(group);
        let r = simulate(&tree, &config).unwrap();
        assert_eq!(counts(&r), T1, "{ranks}x{threads} in groups of {group}");
        assert_eq!(field(&r, "groups"), 1 + (ranks - 1).div_ceil(group));
    }
    // T3, binomial: its work must be stolen, across groups too.
    let (p3, _) = Params::named("T3").unwrap();
    let t3 = Arc::new(Uts::new(p3, "T3"));
    let mut crossed = 0;
    for seed in 1..=32 {
        let mut config = crossing(64, 2, seed);
        config.run = config
            .run
            .clone()
            .group_size(if seed % 2 == 0 { 4 } else { 5 });
        let r = simulate(&t3, &config).unwrap();
        assert_eq!(counts(&r), T3, "seed {seed}");
        // Donations the root routed between groups.
        crossed += field(&r, "master")["donations_routed"].as_u64().unwrap();
    }
    assert!(crossed > 0, "no donation crossed groups in 32 seeds");
}

/// Every mode through the tree: the answer of `all`, `first` and `unique`
/// passes up through the group masters, and `Terminate` down. On N-Queens
/// 6 and 1 rank 0's expansion of the root finds the answer itself, before
/// any work is dealt: the root's first messages then carry `Terminate`
/// (they were once wrapped for the groups twice, and the run failed with
/// "rank 0 got a Down it should never receive").
#[test]
fn every_mode_gives_the_real_answer_in_groups() {
    // The count, and whether the expansion holds the first and unique
    // answers (the root then deals no work).
    for (n, all, expansion) in [(9, 352, false), (6, 4, true), (1, 1, true)] {
        let q = Arc::new(Queens::new(n, false).unwrap());
        let (whole, _) = sequential(&*q, Mode::Count);
        for (ranks, threads, group) in [(8, 1, 3), (16, 2, 4)] {
            let what = format!("queens {n} on {ranks}x{threads} in groups of {group}");
            let config = |mode| {
                let mut config = sim_config(mode, ranks, threads, 40);
                config.run = config.run.clone().group_size(group);
                config
            };
            let r = simulate(&q, &config(Mode::Count)).unwrap();
            assert_eq!((r.solutions, r.nodes), (all, whole.nodes), "{what}");
            for (mode, want) in [
                (Mode::All, all),
                (Mode::First, 1),
                (Mode::Unique, all.min(2)),
            ] {
                let config = config(mode);
                let r = simulate(&q, &config).unwrap_or_else(|e| panic!("{what}, {mode:?}: {e}"));
                assert_eq!(r.solutions, want, "{what}, {mode:?}");
                if expansion && mode != Mode::All {
                    assert_eq!(
                        field(&r, "master")["prefixes_dealt"].as_u64().unwrap(),
                        0,
                        "{what}, {mode:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_slower_network_predicts_a_longer_run_with_the_same_counts() {
    let tree = t1();
    let fast = simulate(&tree, &sim_config(Mode::Count, 32, 1, 30)).unwrap();
    let mut config = sim_config(Mode::Count, 32, 1, 30);
    config.network = hysolve::advanced::sim::Network::ETHERNET;
    let slow = simulate(&tree, &config).unwrap();
    assert_eq!(counts(&fast), counts(&slow));
    assert!(slow.predicted_s > fast.predicted_s, "{slow:?}\n{fast:?}");
}

#[test]
fn every_mode_gives_the_real_answer() {
    let q = Arc::new(Queens::new(9, false).unwrap());
    let (whole, _) = sequential(&*q, Mode::Count);
    for (ranks, threads) in [(1, 1), (3, 2), (8, 1)] {
        let config = |mode| sim_config(mode, ranks, threads, 40);
        let r = simulate(&q, &config(Mode::Count)).unwrap();
        assert_eq!((r.solutions, r.nodes), (352, whole.nodes));
        assert_eq!(simulate(&q, &config(Mode::All)).unwrap().solutions, 352);
        assert_eq!(simulate(&q, &config(Mode::First)).unwrap().solutions, 1);
        assert_eq!(simulate(&q, &config(Mode::Unique)).unwrap().solutions, 2);
    }
}

#[test]
fn a_killed_rank_ends_the_run_naming_it() {
    let tree = t1();
    let mut config = sim_config(Mode::Count, 8, 2, 30);
    let whole = simulate(&tree, &config).unwrap().predicted_s;
    config.kill = Some((5, whole * 0.3));
    match simulate(&tree, &config) {
        Err(SimError::RankDied {
            rank: 5,
            at_s,
            checkpoint: None,
        }) => assert!((at_s - whole * 0.3).abs() < 1e-6),
        other => panic!("{other:?}"),
    }
    config.kill = Some((8, 0.0));
    assert!(matches!(simulate(&tree, &config), Err(SimError::Config(_))));
}

fn sim() -> Command {
    Command::new(common::workspace_bin("hysolve-sim"))
}

/// Runs `cmd` (a `hysolve-sim --json` command), which must succeed, and
/// returns its JSON.
fn sim_json(cmd: &mut Command) -> serde_json::Value {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn hysolve_sim_takes_a_puzzle_and_prints_json() {
    let out = sim()
        .args([
            "--ranks",
            "4",
            "--threads",
            "2",
            "--node-ns",
            "40",
            "--json",
        ])
        .args(["queens", "8"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solutions"], 92);
    assert_eq!(v["workers"], 8);
    for key in [
        "nodes",
        "predicted_s",
        "efficiency",
        "master_messages",
        "master_busy",
        "idle",
    ] {
        assert!(!v[key].is_null(), "no {key} in {v}");
    }
    for k in ["start", "steady", "tail"] {
        assert!(v["idle"][k].as_f64().is_some());
    }
    // The workers' time is accounted for whole: nodes (the efficiency),
    // idle by phase, and busy on other than nodes (splits and steals).
    let share = |k: &str, f: &str| v[k][f].as_f64().unwrap();
    let whole = v["efficiency"].as_f64().unwrap()
        + share("idle", "start")
        + share("idle", "steady")
        + share("idle", "tail")
        + share("overhead", "splits")
        + share("overhead", "steals");
    assert!((whole - 1.0).abs() < 0.01, "the shares sum to {whole}: {v}");
    assert!(share("overhead", "steals") > 0.0, "{v}");
    // A finer grain: steps of 1,000 ns of 40 ns nodes, the same count.
    let fine = sim_json(
        sim()
            .args(["--ranks", "4", "--threads", "2", "--node-ns", "40"])
            .args(["--grain-ns", "1000", "--json", "queens", "8"]),
    );
    assert_eq!(fine["costs"]["quantum_nodes"], 25);
    assert_eq!(fine["solutions"], 92);
}

#[test]
fn hysolve_sim_refuses_bad_input_in_one_line() {
    for args in [
        vec!["--ranks", "0", "queens", "8"],
        vec!["--jitter", "-1", "queens", "8"],
        vec!["--kill", "3", "queens", "8"],
        vec![
            "--kill",
            "9@0.1",
            "--ranks",
            "2",
            "--node-ns",
            "9",
            "queens",
            "8",
        ],
        vec!["--network", "carrier-pigeon", "queens", "8"],
        vec![
            "--direct-steals",
            "2",
            "--checkpoint",
            "x.ckpt",
            "queens",
            "8",
        ],
        vec!["--node-ns", "9", "queens", "0"],
    ] {
        let out = sim().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} accepted");
        let first = err.lines().find(|l| l.contains("error")).unwrap_or("");
        assert!(!first.is_empty(), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A rank killed at 30 % of the predicted run: in one group (rank 3 of
/// 8), and on 16 ranks in groups of 8 (rank 0 alone, then ranks 1 to 8
/// and 9 to 15: rank 13). The rank is named, the checkpoint kept (the
/// root's units, written in groups), and the resume exact. The simulator
/// ends a run at any rank's death alike, a group's master's too, so one
/// rank of the groups is enough; `cli/tests/checkpoint.rs` kills a group's
/// master under real mpirun.
#[test]
fn a_rank_killed_at_30_percent_leaves_a_checkpoint_that_resumes_exactly() {
    let one = ["--ranks", "8", "--threads", "2", "--node-ns", "30"];
    killed_at_30_percent(&one, 3);
    let groups = [
        "--ranks",
        "16",
        "--threads",
        "2",
        "--node-ns",
        "30",
        "--group-size",
        "8",
    ];
    killed_at_30_percent(&groups, 13);
}

fn killed_at_30_percent(shape: &[&str], rank: usize) {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("t1.ckpt");
    let whole = sim()
        .args(shape)
        .args(["--json", "uts", "--tree", "T1"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    let predicted = v["predicted_s"].as_f64().unwrap();
    let killed = sim()
        .args(shape)
        .arg("--checkpoint")
        .arg(&ckpt)
        .args(["--checkpoint-every", &(predicted / 20.0).to_string()])
        .args(["--kill", &format!("{rank}@{}", predicted * 0.3)])
        .args(["uts", "--tree", "T1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&killed.stderr);
    assert!(!killed.status.success(), "{shape:?}, rank {rank}");
    assert!(err.contains(&format!("rank {rank} died")), "{err}");
    assert!(err.contains(&ckpt.display().to_string()), "{err}");
    assert!(ckpt.exists(), "the checkpoint is kept");
    // Resumed by the real binary, and by the simulator: the whole tree.
    let copy = dir.path().join("copy.ckpt");
    std::fs::copy(&ckpt, &copy).unwrap();
    let real = Command::new(&*common::BIN)
        .args([
            "uts",
            "--tree",
            "T1",
            "--threads",
            "2",
            "--json",
            "--quiet",
            "--resume",
        ])
        .arg(&ckpt)
        .output()
        .unwrap();
    let r = common::json_of(&real);
    assert_eq!(
        (r["solutions"].as_u64(), r["nodes"].as_u64()),
        (Some(T1.0), Some(T1.1))
    );
    let s = sim_json(
        sim()
            .args(shape)
            .arg("--resume")
            .arg(&copy)
            .args(["--json", "uts", "--tree", "T1"]),
    );
    assert_eq!(
        (s["solutions"].as_u64(), s["nodes"].as_u64()),
        (Some(T1.0), Some(T1.1))
    );
    // Fewer nodes walked after the resume than in the whole run.
    assert!(s["predicted_s"].as_f64().unwrap() < predicted);
}

/// Donations go straight from victim to thief, so a thief's messages can
/// reach the master before the victim's `Donated`: the master holds them
/// back (`cluster/master/causal.rs`). A slow, jittered network makes it happen;
/// the counts, and the units the checkpoints track, stay exact.
#[test]
fn messages_that_overtake_a_donation_are_held_back_and_the_count_stays_exact() {
    let dir = tempfile::tempdir().unwrap();
    let mut held = 0;
    // (Seeds 6 and 7 overtake with the count's dive; 1 to 4 did before it,
    // whose walk looked at its context at other nodes.)
    for seed in 1..=8 {
        let ckpt = dir.path().join(format!("t3-{seed}.ckpt"));
        let v = sim_json(
            sim()
                .args(["--json", "--ranks", "64", "--threads", "1"])
                .args(["--jitter", "100", "--network", "ethernet"])
                .args(["--node-ns", "20", "--seed"])
                .arg(seed.to_string())
                .arg("--checkpoint")
                .arg(&ckpt)
                .args(["--checkpoint-every", "0.001", "uts", "--tree", "T3"]),
        );
        assert_eq!(
            (v["solutions"].as_u64(), v["nodes"].as_u64()),
            (Some(T3.0), Some(T3.1)),
            "seed {seed}"
        );
        held += v["master"]["held_back"].as_u64().unwrap();
    }
    assert!(
        held > 0,
        "no message overtook a donation: the test tests nothing"
    );
}

/// A worker whose task is counted whole when it begins (magic squares cut
/// their tree at the counter's depth) is busy until that count's time has
/// passed, and its pool is idle only then: no simulated run beats one
/// worker's time over the workers (the simulator once finished such tasks
/// at the step that began them, and predicted 1x16 at efficiency 2.47).
#[test]
fn no_configuration_is_predicted_faster_than_its_nodes_allow() {
    for (ranks, threads) in [(1, 4), (1, 16), (4, 16), (4, 1)] {
        let v = sim_json(
            sim()
                .args(["--json", "--node-ns", "3000", "--ranks"])
                .arg(ranks.to_string())
                .arg("--threads")
                .arg(threads.to_string())
                .args(["magic", "examples/magic/empty_4x4.txt"]),
        );
        assert_eq!(v["solutions"], 7040);
        let e = v["efficiency"].as_f64().unwrap();
        assert!(
            e > 0.0 && e <= 1.0 + 1e-9,
            "{ranks}x{threads}: efficiency {e}"
        );
    }
}

/// A group's first work may be a donation from a rank of another group:
/// when the units left are fewer than the groups (a resume near the end of
/// a run), the root deals them to some groups, and the others get work
/// only from those. Resumed from a checkpoint cut to two units, 16 ranks
/// in groups of 4 count exactly what one rank counts from it, under 16
/// jittered schedules, and the groups' accounts of the units stay the
/// root's (a group once took such units for depth 0 and sent up a report
/// the root refused: under mpirun, the job hung).
#[test]
fn groups_whose_first_work_is_a_donation_resume_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("t3.ckpt");
    let shape = ["--ranks", "8", "--threads", "2", "--node-ns", "30"];
    let killed = sim()
        .args(shape)
        .arg("--checkpoint")
        .arg(&ckpt)
        .args(["--checkpoint-every", "0.0001", "--kill", "3@0.002"])
        .args(["uts", "--tree", "T3"])
        .output()
        .unwrap();
    assert!(!killed.status.success());
    let mut c: serde_json::Value = serde_json::from_slice(&std::fs::read(&ckpt).unwrap()).unwrap();
    let remaining = c["remaining"].as_array_mut().unwrap();
    assert!(remaining.len() > 4, "{} units left", remaining.len());
    remaining.truncate(2);
    let cut = serde_json::to_vec(&c).unwrap();
    let copy = |name: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, &cut).unwrap();
        p
    };
    let one = Command::new(&*common::BIN)
        .args(["--threads", "1", "--json", "--quiet", "--resume"])
        .arg(copy("one.ckpt"))
        .args(["uts", "--tree", "T3"])
        .output()
        .unwrap();
    let one = common::json_of(&one);
    let expected = (one["solutions"].as_u64(), one["nodes"].as_u64());
    assert!(expected.0 < Some(T3.0), "the cut checkpoint lacks units");
    for seed in 1..=16 {
        let s = sim_json(
            sim()
                .args([
                    "--json",
                    "--ranks",
                    "16",
                    "--threads",
                    "1",
                    "--group-size",
                    "4",
                ])
                .args(["--jitter", "4", "--network", "ethernet", "--node-ns", "30"])
                .args(["--seed", &seed.to_string(), "--resume"])
                .arg(copy(&format!("g{seed}.ckpt")))
                .args(["uts", "--tree", "T3"]),
        );
        assert_eq!(
            (s["solutions"].as_u64(), s["nodes"].as_u64()),
            expected,
            "seed {seed}"
        );
    }
}

/// Direct steals (`RunConfig::direct_steals`): a dry or hungry rank asks
/// ranks of its group for work itself before it asks its master. Under 32
/// jittered schedules on a slow network, in one group and in groups of 5,
/// the count and the nodes stay exact, ranks do steal from each other, and
/// every mode gives its answer.
#[test]
fn direct_steals_keep_every_answer_exact_under_32_jittered_seeds() {
    let (p3, _) = Params::named("T3").unwrap();
    let t3 = Arc::new(Uts::new(p3, "T3"));
    let mut steals = 0;
    for seed in 1..=32 {
        let mut config = crossing(64, 2, seed);
        config.run = config.run.clone().direct_steals(1 + (seed % 3) as u32);
        config.run = config
            .run
            .clone()
            .group_size(if seed % 2 == 0 { 0 } else { 5 });
        let r = simulate(&t3, &config).unwrap();
        assert_eq!(counts(&r), T3, "seed {seed}");
        steals += field(&r, "master")["steals"].as_u64().unwrap();
    }
    assert!(steals > 1000, "{steals} direct steals in one group");
    let q = Arc::new(Queens::new(9, false).unwrap());
    for group in [0, 4] {
        let config = |mode| {
            let run = RunConfig::new(mode).threads(2).group_size(group);
            SimConfig::new(16, run.direct_steals(2), 40)
        };
        assert_eq!(simulate(&q, &config(Mode::Count)).unwrap().solutions, 352);
        for (mode, answer) in [(Mode::All, 352), (Mode::First, 1), (Mode::Unique, 2)] {
            assert_eq!(simulate(&q, &config(mode)).unwrap().solutions, answer);
        }
    }
}

/// Optimise mode with a problem that has no objective is refused with the
/// error a real run gives, not a panic.
#[test]
fn optimise_mode_without_an_objective_is_refused() {
    let q = Arc::new(Queens::new(6, false).unwrap());
    let err = simulate(&q, &sim_config(Mode::Optimise, 2, 1, 40)).unwrap_err();
    assert!(matches!(err, SimError::Config(_)), "{err:?}");
    assert!(
        err.to_string()
            .contains("needs a problem with an objective"),
        "{err}"
    );
}
