//! Strong-scaling sweeps: runs of one or more workloads over a grid of
//! ranks x threads, reduced to one point per configuration (median, min and
//! max time over the repetitions), with speedup and efficiency against the
//! one-worker run, written as a CSV and as Markdown tables.
//!
//! A run is what `hysolve --json` prints, so the same code reduces a sweep
//! run here with mpirun (`hysolve-sweep run`) and the JSON lines that cluster
//! jobs left behind (`hysolve-sweep gather`, used by `pbs/sweep.sh`).

use super::median;
use hysolve_cli::text::thousands;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// One worker's load in a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    pub rank: usize,
    pub worker: usize,
    pub busy_s: f64,
    pub idle_s: f64,
}

/// One hysolve run, as its JSON summary tells it.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub problem: String,
    pub instance: String,
    pub mode: String,
    pub ranks: usize,
    pub threads: usize,
    /// Input preparation plus search (`prepare_s + wall_s`).
    pub time_s: f64,
    /// Search nodes.
    pub nodes: u64,
    pub solutions: u64,
    /// Distinct hosts the ranks ran on.
    pub hosts: usize,
    /// Some host ran more worker threads than it has processors, or some
    /// rank more threads than the cores it was bound to.
    pub oversubscribed: bool,
    /// Processors of the largest host.
    pub host_cpus: usize,
    pub loads: Vec<Load>,
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key)
        .filter(|x| !x.is_null())
        .ok_or_else(|| format!("no '{key}' in the JSON summary"))
}

fn uint(v: &Value, key: &str) -> Result<u64, String> {
    field(v, key)?
        .as_u64()
        .ok_or_else(|| format!("'{key}' is not a whole number"))
}

fn float(v: &Value, key: &str) -> Result<f64, String> {
    field(v, key)?
        .as_f64()
        .ok_or_else(|| format!("'{key}' is not a number"))
}

fn text(v: &Value, key: &str) -> Result<String, String> {
    Ok(match field(v, key)? {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

impl Run {
    /// Reads a run from hysolve's `--json` line.
    pub fn from_json(v: &Value) -> Result<Run, String> {
        let ranks = uint(v, "ranks")? as usize;
        let threads = uint(v, "threads")? as usize;
        let mut loads = Vec::new();
        // host -> (threads run there, processors it has)
        let mut per_host: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let mut bound_too_tight = false;
        let reports = field(v, "rank_stats")?
            .as_array()
            .ok_or("'rank_stats' is not a list")?;
        for r in reports {
            let rank = uint(r, "rank")? as usize;
            let host = text(r, "host").unwrap_or_else(|_| "unknown".into());
            let cores = uint(r, "cores").unwrap_or(0) as usize;
            let host_cpus = uint(r, "host_cpus").unwrap_or(0) as usize;
            let workers = field(r, "workers")?
                .as_array()
                .ok_or("'workers' is not a list")?;
            for (worker, w) in workers.iter().enumerate() {
                loads.push(Load {
                    rank,
                    worker,
                    busy_s: float(w, "busy_s")?,
                    idle_s: float(w, "idle_s")?,
                });
            }
            bound_too_tight |= cores > 0 && workers.len() > cores;
            let entry = per_host.entry(host).or_default();
            entry.0 += workers.len();
            entry.1 = entry.1.max(host_cpus);
        }
        let oversubscribed =
            bound_too_tight || per_host.values().any(|&(t, cpus)| cpus > 0 && t > cpus);
        Ok(Run {
            problem: text(v, "problem")?,
            instance: text(v, "instance")?,
            mode: text(v, "mode")?,
            ranks,
            threads,
            time_s: float(v, "wall_s")? + v["prepare_s"].as_f64().unwrap_or(0.0),
            nodes: uint(v, "nodes")?,
            solutions: uint(v, "solutions")?,
            hosts: per_host.len().max(1),
            oversubscribed,
            host_cpus: per_host.values().map(|&(_, c)| c).max().unwrap_or(0),
            loads,
        })
    }

    /// The workload this run belongs to: problem, instance and mode.
    pub fn workload(&self) -> String {
        format!("{} {} ({})", self.problem, self.instance, self.mode)
    }

    pub fn workers(&self) -> usize {
        self.ranks * self.threads
    }
}

/// Reads every run from the lines of `text` that are hysolve JSON summaries
/// (other lines, such as a job's log, are skipped), each with its line.
/// `origin` names the source in errors.
pub fn runs_from_text(text: &str, origin: &str) -> Result<Vec<(Run, String)>, String> {
    let mut runs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with('{') {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v.get("wall_s").is_none() || v.get("rank_stats").is_none() {
            continue;
        }
        let run = Run::from_json(&v).map_err(|e| format!("{origin}:{}: {e}", i + 1))?;
        runs.push((run, line.to_string()));
    }
    Ok(runs)
}

/// How a configuration uses its workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layout {
    /// One rank, T threads.
    Threads,
    /// R ranks of one thread.
    Ranks,
    /// R ranks of T threads, both above one.
    Hybrid,
}

impl Layout {
    pub fn of(ranks: usize, threads: usize) -> Layout {
        match (ranks, threads) {
            (1, _) => Layout::Threads,
            (_, 1) => Layout::Ranks,
            _ => Layout::Hybrid,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Layout::Threads => "1 rank x T threads",
            Layout::Ranks => "R ranks x 1 thread",
            Layout::Hybrid => "R ranks x T threads (best)",
        }
    }
}

/// One configuration of one workload, over its repetitions.
#[derive(Debug, Clone)]
pub struct Point {
    pub workload: String,
    pub problem: String,
    pub instance: String,
    pub mode: String,
    pub ranks: usize,
    pub threads: usize,
    pub reps: usize,
    pub median_s: f64,
    pub min_s: f64,
    pub max_s: f64,
    pub hosts: usize,
    pub oversubscribed: bool,
    pub nodes: u64,
    pub solutions: u64,
    /// Against the one-worker point of the workload (or, without one, the
    /// point with fewest workers, assumed to scale perfectly).
    pub speedup: f64,
    pub efficiency: f64,
    /// The run whose time is the median (the lower middle one for an even
    /// count): its per-worker loads draw the load-balance plot.
    pub median_run: Run,
}

impl Point {
    pub fn workers(&self) -> usize {
        self.ranks * self.threads
    }

    pub fn layout(&self) -> Layout {
        Layout::of(self.ranks, self.threads)
    }

    /// Busy time of the busiest worker over the mean busy time (1: perfect).
    pub fn imbalance(&self) -> f64 {
        let loads = &self.median_run.loads;
        if loads.is_empty() {
            return 1.0;
        }
        let max = loads.iter().map(|l| l.busy_s).fold(0.0, f64::max);
        let mean = loads.iter().map(|l| l.busy_s).sum::<f64>() / loads.len() as f64;
        if mean > 0.0 { max / mean } else { 1.0 }
    }
}

/// Reduces runs to one point per (workload, ranks, threads). Fails when two
/// runs of one workload disagree on the number of solutions in a mode where
/// it is exact (count, all): counts must not depend on the configuration.
pub fn reduce(runs: &[Run]) -> Result<Vec<Point>, String> {
    let mut groups: BTreeMap<(String, usize, usize), Vec<&Run>> = BTreeMap::new();
    for r in runs {
        groups
            .entry((r.workload(), r.ranks, r.threads))
            .or_default()
            .push(r);
    }
    let mut solutions: BTreeMap<String, (u64, usize, usize)> = BTreeMap::new();
    for r in runs {
        if r.mode != "count" && r.mode != "all" {
            continue;
        }
        let seen = solutions
            .entry(r.workload())
            .or_insert((r.solutions, r.ranks, r.threads));
        if seen.0 != r.solutions {
            return Err(format!(
                "{}: {} solutions in {}x{} but {} in {}x{}",
                r.workload(),
                seen.0,
                seen.1,
                seen.2,
                r.solutions,
                r.ranks,
                r.threads
            ));
        }
    }
    let mut points = Vec::new();
    for ((workload, ranks, threads), group) in groups {
        let mut times: Vec<f64> = group.iter().map(|r| r.time_s).collect();
        let med = median(&mut times);
        let mut by_time = group.clone();
        by_time.sort_by(|a, b| a.time_s.total_cmp(&b.time_s));
        let median_run = by_time[(by_time.len() - 1) / 2].clone();
        points.push(Point {
            workload,
            problem: median_run.problem.clone(),
            instance: median_run.instance.clone(),
            mode: median_run.mode.clone(),
            ranks,
            threads,
            reps: group.len(),
            median_s: med,
            min_s: times[0],
            max_s: times[times.len() - 1],
            hosts: group.iter().map(|r| r.hosts).max().unwrap_or(1),
            oversubscribed: group.iter().any(|r| r.oversubscribed),
            nodes: median_run.nodes,
            solutions: median_run.solutions,
            speedup: 0.0,
            efficiency: 0.0,
            median_run,
        });
    }
    let workloads: BTreeSet<String> = points.iter().map(|p| p.workload.clone()).collect();
    for w in workloads {
        let base = points
            .iter()
            .filter(|p| p.workload == w)
            .min_by(|a, b| {
                (a.workers(), a.median_s)
                    .partial_cmp(&(b.workers(), b.median_s))
                    .expect("times are finite")
            })
            .map(|p| p.median_s * p.workers() as f64)
            .expect("a workload has points");
        for p in points.iter_mut().filter(|p| p.workload == w) {
            p.speedup = base / p.median_s;
            p.efficiency = p.speedup / p.workers() as f64;
        }
    }
    points.sort_by(|a, b| {
        (&a.workload, a.workers(), a.ranks).cmp(&(&b.workload, b.workers(), b.ranks))
    });
    Ok(points)
}

/// Where and how a sweep was measured.
#[derive(Debug, Clone)]
pub struct Meta {
    pub commit: String,
    pub machine: String,
    /// Processors of one host (the local machine, or a cluster node).
    pub cores: usize,
    pub date: String,
    pub command: String,
}

pub const CSV_HEADER: &str = "commit,machine,cores,problem,instance,mode,ranks,threads,workers,hosts,oversubscribed,reps,median_s,min_s,max_s,speedup,efficiency,busy_imbalance,nodes,solutions,command";

fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// The sweep as CSV, one line per point.
pub fn csv(meta: &Meta, points: &[Point]) -> String {
    let mut s = format!("{CSV_HEADER}\n");
    for p in points {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.3},{:.3},{:.3},{},{},{}",
            meta.commit,
            quoted(&meta.machine),
            meta.cores,
            quoted(&p.problem),
            quoted(&p.instance),
            p.mode,
            p.ranks,
            p.threads,
            p.workers(),
            p.hosts,
            p.oversubscribed,
            p.reps,
            p.median_s,
            p.min_s,
            p.max_s,
            p.speedup,
            p.efficiency,
            p.imbalance(),
            p.nodes,
            p.solutions,
            quoted(&meta.command)
        );
    }
    s
}

fn seconds(s: f64) -> String {
    if s >= 100.0 {
        format!("{s:.1} s")
    } else if s >= 1.0 {
        format!("{s:.3} s")
    } else {
        format!("{:.1} ms", s * 1e3)
    }
}

/// The sweep as Markdown: what was run where, one table per workload, and
/// the plots (file names relative to the Markdown file).
pub fn markdown(meta: &Meta, points: &[Point], plots: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Machine `{}`, {} cores per host. Commit `{}`, {}. Command: `{}`.\n",
        meta.machine, meta.cores, meta.commit, meta.date, meta.command
    );
    let _ = writeln!(
        s,
        "Time is input preparation plus search as the run reports it (`prepare_s + wall_s`), \
         the median of the repetitions (min and max beside it); speedup and efficiency are \
         against the 1-worker median. Imbalance is the busiest worker's busy time over the \
         mean, in the median run. Oversubscribed points run more workers than the host has \
         cores: their times show the cost of sharing cores, not scaling.\n"
    );
    let mut workloads: Vec<&str> = points.iter().map(|p| p.workload.as_str()).collect();
    workloads.dedup();
    for w in workloads {
        let ps: Vec<&Point> = points.iter().filter(|p| p.workload == w).collect();
        let _ = writeln!(
            s,
            "**{w}**: {} solutions, {} nodes.\n",
            thousands(ps[0].solutions),
            thousands(ps[0].nodes)
        );
        let _ = writeln!(
            s,
            "| workers | ranks x threads | hosts | median (min - max) | speedup | efficiency | imbalance | reps |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
        for p in ps {
            let _ = writeln!(
                s,
                "| {}{} | {}x{} | {} | {} ({} - {}) | {:.2}x | {:.2} | {:.2} | {} |",
                p.workers(),
                if p.oversubscribed {
                    " (oversubscribed)"
                } else {
                    ""
                },
                p.ranks,
                p.threads,
                p.hosts,
                seconds(p.median_s),
                seconds(p.min_s),
                seconds(p.max_s),
                p.speedup,
                p.efficiency,
                p.imbalance(),
                p.reps
            );
        }
        s.push('\n');
    }
    for plot in plots {
        let _ = writeln!(s, "![{plot}]({plot})\n");
    }
    s
}

/// Replaces the part of `readme` between the markers of sweep `name` with
/// `section`, or appends a titled section when the markers are missing.
pub fn splice_readme(readme: &str, name: &str, title: &str, section: &str) -> String {
    let begin = format!("<!-- sweep {name}: begin (generated by hysolve-sweep) -->");
    let end = format!("<!-- sweep {name}: end -->");
    let body = format!("{begin}\n{section}{end}");
    if let (Some(b), Some(e)) = (readme.find(&begin), readme.find(&end))
        && b < e
    {
        return format!("{}{body}{}", &readme[..b], &readme[e + end.len()..]);
    }
    let mut out = readme.trim_end().to_string();
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    format!("{out}## {title}\n\n{body}\n")
}

/// Writes `contents` to `path` atomically (the library's
/// [`hysolve::advanced::output::write_atomically`]), so a failed run never leaves
/// half a file behind; the error names the file.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), String> {
    hysolve::advanced::output::write_atomically(path, contents).map_err(|e| e.to_string())
}

#[cfg(test)]
mod test {
    use super::*;

    fn run(ranks: usize, threads: usize, time_s: f64, solutions: u64) -> Run {
        Run {
            problem: "queens".into(),
            instance: "16".into(),
            mode: "count".into(),
            ranks,
            threads,
            time_s,
            nodes: 10,
            solutions,
            hosts: 1,
            oversubscribed: false,
            host_cpus: 2,
            loads: (0..ranks * threads)
                .map(|i| Load {
                    rank: i / threads,
                    worker: i % threads,
                    busy_s: time_s,
                    idle_s: 0.0,
                })
                .collect(),
        }
    }

    #[test]
    fn medians_speedup_and_efficiency() {
        let runs = vec![
            run(1, 1, 4.0, 7),
            run(1, 1, 4.4, 7),
            run(1, 1, 3.0, 7),
            run(2, 1, 2.5, 7),
            run(2, 1, 2.0, 7),
            run(2, 1, 2.1, 7),
        ];
        let points = reduce(&runs).unwrap();
        assert_eq!(points.len(), 2);
        let (one, two) = (&points[0], &points[1]);
        assert_eq!(
            (one.median_s, one.min_s, one.max_s, one.reps),
            (4.0, 3.0, 4.4, 3)
        );
        assert_eq!(one.median_run.time_s, 4.0);
        assert_eq!(two.median_s, 2.1);
        assert!((two.speedup - 4.0 / 2.1).abs() < 1e-12);
        assert!((two.efficiency - 4.0 / 2.1 / 2.0).abs() < 1e-12);
        assert_eq!(one.speedup, 1.0);
    }

    #[test]
    fn disagreeing_counts_are_an_error() {
        let err = reduce(&[run(1, 1, 1.0, 7), run(1, 2, 1.0, 8)]).unwrap_err();
        assert!(err.contains("7 solutions in 1x1 but 8 in 1x2"), "{err}");
    }

    #[test]
    fn reads_hysolve_json_and_skips_other_lines() {
        let line = r#"{"problem":"queens","instance":"8","mode":"count","solutions":92,"ranks":2,"threads":2,"wall_s":0.5,"prepare_s":0.25,"nodes":2057,"rank_stats":[{"rank":0,"host":"a","cores":2,"host_cpus":2,"workers":[{"busy_s":0.4,"idle_s":0.1},{"busy_s":0.3,"idle_s":0.2}]},{"rank":1,"host":"a","cores":2,"host_cpus":2,"workers":[{"busy_s":0.4,"idle_s":0.1},{"busy_s":0.3,"idle_s":0.2}]}]}"#;
        let text = format!("hysolve: 2 ranks\nqueens 8: 92 solutions\n{line}\n");
        let runs = runs_from_text(&text, "job.o1").unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].1, line);
        let r = &runs[0].0;
        assert_eq!((r.ranks, r.threads, r.hosts, r.solutions), (2, 2, 1, 92));
        assert_eq!(r.time_s, 0.75);
        assert!(r.oversubscribed, "4 threads on a 2-processor host");
        assert_eq!(r.loads.len(), 4);
        assert_eq!(r.workload(), "queens 8 (count)");
        let bad = line.replace("\"nodes\":2057", "\"nodes\":\"x\"");
        let err = runs_from_text(&bad, "job.o2").unwrap_err();
        assert!(err.starts_with("job.o2:1: "), "{err}");
    }

    #[test]
    fn readme_section_is_replaced_or_appended() {
        let first = splice_readme("# Results\n\ntext\n", "local", "Sweep", "table 1\n");
        assert!(first.starts_with("# Results\n\ntext\n\n## Sweep\n\n<!-- sweep local: begin"));
        let second = splice_readme(&first, "local", "Sweep", "table 2\n");
        assert!(second.contains("table 2") && !second.contains("table 1"));
        assert_eq!(second.matches("## Sweep").count(), 1);
        let other = splice_readme(&second, "device", "Device", "d\n");
        assert!(other.contains("table 2") && other.contains("d\n<!-- sweep device: end -->"));
    }

    #[test]
    fn csv_has_one_line_per_point() {
        let points = reduce(&[run(1, 1, 2.0, 7), run(1, 2, 1.0, 7)]).unwrap();
        let meta = Meta {
            commit: "abc".into(),
            machine: "vm, \"2\" cores".into(),
            cores: 2,
            date: "today".into(),
            command: "make sweep".into(),
        };
        let text = csv(&meta, &points);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], CSV_HEADER);
        assert!(lines[2].starts_with(
            "abc,\"vm, \"\"2\"\" cores\",2,\"queens\",\"16\",count,1,2,2,1,false,1,1.0000"
        ));
        assert!(lines[2].contains(",2.000,1.000,"), "{}", lines[2]);
    }
}
