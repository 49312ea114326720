//! Branch and bound in every configuration: maximum cliques of the DIMACS
//! families built from their definitions, the decision variant
//! (`at_least`), checkpoints that carry the incumbent, and how far a
//! parallel run's tree strays from the sequential one (anomalies).

use hysolve::advanced::{Checkpoint, CheckpointPlan, Optimising, optimum, run_threaded};
use hysolve::{Mode, Observer, RunConfig};
use hysolve_puzzles::clique::{Clique, Graph, families, parse_solution};
use std::sync::Arc;
use std::time::Duration;

/// The DIMACS families and their published clique numbers.
fn families() -> Vec<(&'static str, Graph, u64)> {
    vec![
        ("hamming6-2", families::hamming(6, 2).unwrap(), 32),
        ("hamming8-4", families::hamming(8, 4).unwrap(), 16),
        ("johnson8-4-4", families::johnson(8, 4, 4).unwrap(), 14),
        ("johnson16-2-4", families::johnson(16, 2, 4).unwrap(), 8),
        ("keller4", families::keller(4).unwrap(), 11),
    ]
}

/// `clique` as a branch and bound runs it.
fn optimising(clique: Clique) -> Arc<Optimising<Clique>> {
    Arc::new(Optimising(clique))
}

fn run(problem: &Arc<Optimising<Clique>>, config: &RunConfig, ranks: usize) -> hysolve::Outcome {
    run_threaded(problem.clone(), config, ranks, &mut Vec::new()).unwrap()
}

#[test]
fn the_families_have_their_clique_numbers_in_every_configuration() {
    for (name, graph, omega) in families() {
        let problem = optimising(Clique::new(&graph, name));
        let (_, best) = optimum(&problem.0, None);
        assert_eq!(
            best.as_ref().map(|b| b.0),
            Some(omega),
            "{name} sequentially"
        );
        for (ranks, threads) in [(1, 1), (1, 2), (2, 1), (3, 2)] {
            let config = RunConfig::new(Mode::Optimise)
                .threads(threads)
                .prefixes_per_worker(4);
            let o = run(&problem, &config, ranks);
            assert_eq!(o.objective, Some(omega), "{name} in {ranks}x{threads}");
            let clique = parse_solution(&o.found[0]).unwrap();
            assert_eq!(clique.len() as u64, omega);
            assert!(graph.is_clique(&clique), "{name}: not a clique");
            // The incumbent's story: rising, ending at the optimum.
            let values: Vec<u64> = o.improvements.iter().map(|i| i.value).collect();
            assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
            assert_eq!(values.last(), Some(&omega));
            // Only improvements travel: each rank sends at most one per
            // value of the objective, and the master passes on only those
            // that improve on the incumbent, to every other rank.
            for r in &o.reports {
                assert!(
                    r.improvements_sent <= omega + 1,
                    "{name}: rank {} sent {}",
                    r.rank,
                    r.improvements_sent
                );
            }
            // The master's account, as `--json` gives it.
            let json = serde_json::to_value(&o.master).unwrap();
            let master = |field: &str| json[field].as_u64().unwrap();
            assert_eq!(master("improvements") as usize, values.len());
            assert!(master("incumbent_messages") <= master("improvements") * ranks as u64);
        }
    }
}

#[test]
fn at_least_stops_at_a_clique_of_the_target_or_finds_none() {
    let graph = families::keller(4).unwrap();
    let problem = optimising(Clique::new(&graph, "keller4"));
    for (ranks, threads) in [(1, 1), (2, 2)] {
        for target in [5, 11] {
            let config = RunConfig::new(Mode::Optimise)
                .threads(threads)
                .at_least(target);
            let o = run(&problem, &config, ranks);
            let found = o.objective.expect("a clique of the target exists");
            assert!(found >= target);
            assert!(graph.is_clique(&parse_solution(&o.found[0]).unwrap()));
        }
        let config = RunConfig::new(Mode::Optimise).threads(threads).at_least(12);
        let o = run(&problem, &config, ranks);
        assert_eq!(
            (o.objective, o.found.len()),
            (None, 0),
            "keller4 has no 12-clique"
        );
    }
    // The decision stops early: far fewer nodes than the proof.
    let full = run(&problem, &RunConfig::new(Mode::Optimise).threads(1), 1);
    let decided = run(
        &problem,
        &RunConfig::new(Mode::Optimise).threads(1).at_least(11),
        1,
    );
    assert!(
        decided.nodes < full.nodes,
        "{} against {}",
        decided.nodes,
        full.nodes
    );
}

#[test]
fn a_target_outside_optimise_mode_is_refused() {
    let config = RunConfig::new(Mode::Count).at_least(3);
    let err = config.validate(&hysolve::Solutions::Discard).unwrap_err();
    // The library names the setting; the command line names its flag
    // (`cli/tests/cli.rs`).
    assert_eq!(
        err.to_string(),
        "a target objective (RunConfig::at_least) is for optimise mode, not count"
    );
}

/// A checkpoint of the run `identity` names, as a run writes it: the
/// prefixes left, the units of the run, and the incumbent.
fn checkpoint(
    identity: &Checkpoint,
    remaining: &[hysolve::advanced::Prefix],
    units: u64,
    incumbent: (u64, &str),
) -> Checkpoint {
    let mut json = serde_json::to_value(identity).unwrap();
    json["remaining"] = serde_json::to_value(remaining).unwrap();
    json["units"] = units.into();
    json["incumbent"] = serde_json::to_value(incumbent).unwrap();
    serde_json::from_value(json).unwrap()
}

#[test]
fn a_resumed_run_starts_from_the_checkpoints_incumbent() {
    let graph = families::hamming(6, 2).unwrap();
    let problem = optimising(Clique::new(&graph, "hamming6-2"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let identity = Checkpoint::identity("clique", "hamming6-2", "optimise", "x");
    // A checkpoint whose every unit is done: the incumbent is the answer.
    let text = "1 4 6 7 10 11 13 16 18 19 21 24 25 28 30 31 34 35 37 40 41 44 46 47 49 52 54 55 58 59 61 64";
    let done = checkpoint(&identity, &[], 3, (32, text));
    let plan = CheckpointPlan {
        path: path.clone(),
        every: Duration::from_secs(3600),
        identity: identity.clone(),
        resume: Some(done),
    };
    let config = RunConfig::new(Mode::Optimise).threads(2).checkpoint(plan);
    let o = run(&problem, &config, 2);
    assert_eq!(o.objective, Some(32));
    assert_eq!(o.found, [text]);
    assert_eq!(o.nodes, 0, "nothing left to walk");
    // Units left and an incumbent: the run prunes with it from the start
    // and reports what beats it, or it.
    let some = checkpoint(
        &identity,
        &[hysolve::advanced::Prefix::root()],
        1,
        (20, "1 2"),
    );
    let plan = CheckpointPlan {
        path,
        every: Duration::from_secs(3600),
        identity,
        resume: Some(some),
    };
    let config = RunConfig::new(Mode::Optimise).threads(2).checkpoint(plan);
    let o = run(&problem, &config, 2);
    assert_eq!(o.objective, Some(32));
    assert_eq!(
        o.improvements[0].value, 20,
        "the checkpoint's incumbent comes first"
    );
    assert!(graph.is_clique(&parse_solution(&o.found[0]).unwrap()));
}

/// Sets the run's interrupt flag when the search begins.
struct InterruptOnStart(Arc<std::sync::atomic::AtomicBool>);

impl Observer for InterruptOnStart {
    fn started(&self, _: u64) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn interrupted_runs_write_their_incumbent() {
    let graph = families::random(200, 0.85, 1).unwrap();
    let problem = optimising(Clique::new(&graph, "G(200, 0.85)"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let identity = Checkpoint::identity("clique", "G", "optimise", "x");
    let plan = CheckpointPlan {
        path: path.clone(),
        every: Duration::from_secs(3600),
        identity,
        resume: None,
    };
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Interrupted as soon as the exact search begins: the ramp-up before
    // it has found the incumbent that the checkpoint must hold.
    let config = RunConfig::new(Mode::Optimise)
        .threads(2)
        .checkpoint(plan)
        .interrupt(flag.clone())
        .observer(Arc::new(InterruptOnStart(flag)));
    let err = run_threaded(problem, &config, 2, &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("checkpoint written to"), "{err}");
    let c: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let (value, text) = (
        c["incumbent"][0].as_u64().unwrap(),
        c["incumbent"][1].as_str().unwrap(),
    );
    let clique = parse_solution(text).unwrap();
    assert_eq!(clique.len() as u64, value);
    assert!(graph.is_clique(&clique));
}

/// The MaxSAT cut (`puzzles/src/clique/maxsat.rs`) changes the nodes, never
/// the optimum: with and without it, on the families and on dense random
/// graphs, in one worker and in two; and it cuts (keller4: 11,650 nodes
/// without it on one worker).
#[test]
fn the_maxsat_cut_keeps_every_optimum_and_cuts_nodes() {
    let mut graphs = families();
    for seed in 1..=6 {
        let g = families::random(90, 0.85, seed).unwrap();
        let (_, best) = optimum(&Clique::new(&g, "random").maxsat(false), None);
        graphs.push(("random", g, best.unwrap().0));
    }
    for (name, graph, omega) in graphs {
        let mut nodes = Vec::new();
        for on in [false, true] {
            let problem = optimising(Clique::new(&graph, name).maxsat(on));
            let (count, best) = optimum(&problem.0, None);
            assert_eq!(best.map(|b| b.0), Some(omega), "{name}, MaxSAT {on}");
            nodes.push(count.nodes);
            let config = RunConfig::new(Mode::Optimise).threads(2);
            let o = run(&problem, &config, 1);
            assert_eq!(o.objective, Some(omega), "{name} on 2 threads, MaxSAT {on}");
            assert!(graph.is_clique(&parse_solution(&o.found[0]).unwrap()));
        }
        assert!(nodes[1] <= nodes[0], "{name}: {nodes:?}");
        if name == "keller4" {
            assert!(nodes[1] * 10 < nodes[0] * 7, "{name}: {nodes:?}");
        }
    }
}
