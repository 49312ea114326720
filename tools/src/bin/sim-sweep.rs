//! `make sim-sweep`: strong scaling in simulation (`hysolve-sim`), from 1
//! worker to thousands, as ranks of 16 threads and as ranks of 1 thread.
//! The node cost of each workload is measured once (`hysolve-sim
//! --calibrate-only`) or given (`--node-ns`), then given to every point,
//! so the points differ only in the configuration. Writes a CSV row per
//! point (with the commit, the machine and the command) and an SVG of the
//! efficiency against workers.

use clap::Parser;
use hysolve_tools::plot::PALETTE;
use hysolve_tools::{commit, machine, open_csv, run_json};
use plotters::coord::combinators::IntoLogRange;
use plotters::prelude::*;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(about = "Strong scaling predicted by hysolve-sim")]
struct Opts {
    /// Workloads: hysolve arguments, one string each
    #[arg(long = "workload", default_values = ["uts --tree T1L", "uts --tree T3L", "queens 17"])]
    workloads: Vec<String>,
    /// Worker counts
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384"
    )]
    workers: Vec<usize>,
    /// Threads per rank of the shapes (each worker count as ranks x this)
    #[arg(long, value_delimiter = ',', default_value = "16,1")]
    shapes: Vec<usize>,
    /// Ranks per group, an axis: each point is simulated once per size
    /// given (0: one group); none given: hysolve's default layout
    #[arg(long = "group-sizes", value_delimiter = ',')]
    group_sizes: Vec<usize>,
    /// Node costs in ns, one per workload, in their order (each measured
    /// on one worker, 1 s of its walk, when not given)
    #[arg(long = "node-ns", value_delimiter = ',')]
    node_ns: Vec<u64>,
    /// Extra hysolve-sim options (say "--network ethernet")
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    sim_args: String,
    /// The hysolve-sim binary
    #[arg(long, default_value = "target/release/hysolve-sim")]
    sim: String,
    /// CSV to write (appended to if it exists)
    #[arg(long, default_value = "bench-results/sim-sweep.csv")]
    out: PathBuf,
    /// The plot of this run's points
    #[arg(long, default_value = "bench-results/sim-sweep-efficiency.svg")]
    plot: PathBuf,
}

struct Row {
    workload: String,
    threads: usize,
    workers: usize,
    efficiency: f64,
}

fn main() -> std::process::ExitCode {
    let opts = Opts::parse();
    match sweep(&opts) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sim-sweep: error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn sim(
    opts: &Opts,
    ranks: usize,
    threads: usize,
    node_ns: Option<u64>,
    group: Option<usize>,
    args: &[String],
) -> Result<serde_json::Value, String> {
    let mut cmd = vec![
        opts.sim.clone(),
        "--json".into(),
        format!("--ranks={ranks}"),
        format!("--threads={threads}"),
    ];
    if let Some(ns) = node_ns {
        cmd.push(format!("--node-ns={ns}"));
    }
    if let Some(g) = group {
        cmd.push(format!("--group-size={g}"));
    }
    cmd.extend(opts.sim_args.split_whitespace().map(String::from));
    cmd.extend(args.iter().cloned());
    run_json(&cmd)
}

fn sweep(opts: &Opts) -> Result<(), String> {
    let mut csv = open_csv(
        &opts.out,
        "commit,machine,command,workload,ranks,threads,workers,network,node_ns,nodes,predicted_s,\
         efficiency,master_messages,master_received,master_busy,idle_start,idle_steady,idle_tail,\
         simulated_in_s,groups,group_master_busy",
    )?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let (commit, machine) = (commit(), machine());
    let mut rows = Vec::new();
    println!(
        "{:<16} {:>6} {:>7} {:>7} {:>11} {:>6} {:>9} {:>6} {:>17} {:>8}",
        "workload",
        "ranks",
        "threads",
        "workers",
        "predicted_s",
        "eff",
        "master_tx",
        "busy",
        "idle st/sd/tl %",
        "sim_s"
    );
    if !opts.node_ns.is_empty() && opts.node_ns.len() != opts.workloads.len() {
        return Err(format!(
            "--node-ns gives {} costs for {} workloads",
            opts.node_ns.len(),
            opts.workloads.len()
        ));
    }
    for (i, workload) in opts.workloads.iter().enumerate() {
        let args: Vec<String> = workload.split_whitespace().map(String::from).collect();
        // The node cost, given or measured once.
        let node_ns = match opts.node_ns.get(i) {
            Some(&ns) => ns,
            None => {
                let mut cmd = vec![opts.sim.clone(), "--calibrate-only".into()];
                cmd.extend(args.iter().cloned());
                run_json(&cmd)?["node_ns"]
                    .as_u64()
                    .ok_or("hysolve-sim gave no node cost")?
            }
        };
        let groups: Vec<Option<usize>> = if opts.group_sizes.is_empty() {
            vec![None]
        } else {
            opts.group_sizes.iter().map(|&g| Some(g)).collect()
        };
        for (&threads, &group) in opts
            .shapes
            .iter()
            .flat_map(|t| groups.iter().map(move |g| (t, g)))
        {
            for &workers in &opts.workers {
                if workers % threads != 0 {
                    continue;
                }
                let ranks = workers / threads;
                let v = sim(opts, ranks, threads, Some(node_ns), group, &args)?;
                let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
                let idle = |k: &str| v["idle"][k].as_f64().unwrap_or(f64::NAN) * 100.0;
                println!(
                    "{workload:<16} {ranks:>6} {threads:>7} {workers:>7} {:>11.4} {:>6.3} {:>9} {:>5.1}% {:>5.1}/{:>5.1}/{:>5.1} {:>8.1}",
                    f("predicted_s"),
                    f("efficiency"),
                    v["master_messages"],
                    f("master_busy") * 100.0,
                    idle("start"),
                    idle("steady"),
                    idle("tail"),
                    f("simulated_in_s"),
                );
                writeln!(
                    csv,
                    "{commit},\"{machine}\",\"{command}\",\"{workload}\",{ranks},{threads},{workers},{},{node_ns},{},{},{},{},{},{},{},{},{},{},{},{}",
                    v["network"]["name"].as_str().unwrap_or("?"),
                    v["nodes"],
                    f("predicted_s"),
                    f("efficiency"),
                    v["master_messages"],
                    v["master_received"],
                    f("master_busy"),
                    idle("start") / 100.0,
                    idle("steady") / 100.0,
                    idle("tail") / 100.0,
                    f("simulated_in_s"),
                    v["groups"].as_u64().unwrap_or(1),
                    f("group_master_busy"),
                )
                .map_err(|e| e.to_string())?;
                rows.push(Row {
                    workload: workload.clone(),
                    threads,
                    workers,
                    efficiency: f("efficiency"),
                });
            }
        }
    }
    plot(&rows, &opts.plot, &commit, &machine)
}

/// Efficiency against workers (log2), a colour per workload, solid lines
/// for ranks of 16 threads, dashed-looking thin ones for ranks of 1.
fn plot(rows: &[Row], path: &std::path::Path, commit: &str, machine: &str) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let max = rows.iter().map(|r| r.workers).max().unwrap_or(2).max(2) as f64;
    let root = SVGBackend::new(path, (960, 640)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Predicted efficiency (hysolve-sim, {commit}; node costs from {machine})"),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d((1f64..max).log_scale().base(2.0), 0f64..1.05)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("workers (ranks x threads), log scale")
        .y_desc("efficiency (one worker's time / workers x time)")
        .x_label_formatter(&|x| format!("{}", x.round() as u64))
        .draw()
        .map_err(|e| err(&e))?;
    let mut workloads: Vec<&str> = rows.iter().map(|r| r.workload.as_str()).collect();
    workloads.dedup();
    for (i, w) in workloads.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let mut shapes: Vec<usize> = rows
            .iter()
            .filter(|r| r.workload == *w)
            .map(|r| r.threads)
            .collect();
        shapes.sort_unstable();
        shapes.dedup();
        for t in shapes {
            let pts: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r.workload == *w && r.threads == t)
                .map(|r| (r.workers as f64, r.efficiency))
                .collect();
            let width = if t > 1 { 2 } else { 1 };
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(width)))
                .map_err(|e| err(&e))?
                .label(format!("{w}, ranks x {t}"))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(width))
                });
            chart
                .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, color.filled())))
                .map_err(|e| err(&e))?;
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerLeft)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}
