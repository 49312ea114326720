//! The sweep's pictures, as SVG (`plotters`): time, speedup and efficiency
//! against workers with the ideal drawn, and the busy and idle time of every
//! worker in the largest configurations (load balance).
//!
//! Workers are on a log2 axis. Each workload has one colour; each layout
//! (threads only, ranks only, hybrid) one marker and line style.
//! Oversubscribed points are hollow and lie in a shaded band.

use super::sweep::{Layout, Point};
use plotters::coord::combinators::LogCoord;
use plotters::coord::ranged1d::{IntoSegmentedCoord, ValueFormatter};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

const SIZE: (u32, u32) = (960, 640);
/// The workloads' colours, in order.
pub const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];
const LAYOUTS: [Layout; 3] = [Layout::Threads, Layout::Ranks, Layout::Hybrid];

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("drawing a plot: {e}")
}

/// Which quantity a scaling plot shows.
#[derive(Clone, Copy, PartialEq)]
pub enum Metric {
    Time,
    Speedup,
    Efficiency,
}

impl Metric {
    fn value(self, p: &Point) -> f64 {
        match self {
            Metric::Time => p.median_s,
            Metric::Speedup => p.speedup,
            Metric::Efficiency => p.efficiency,
        }
    }

    fn axis(self) -> &'static str {
        match self {
            Metric::Time => "median time (s, log scale)",
            Metric::Speedup => "speedup over 1 worker",
            Metric::Efficiency => "parallel efficiency (speedup / workers)",
        }
    }

    pub fn file_suffix(self) -> &'static str {
        match self {
            Metric::Time => "time",
            Metric::Speedup => "speedup",
            Metric::Efficiency => "efficiency",
        }
    }
}

/// The workloads in order, each with its colour.
fn workloads(points: &[Point]) -> Vec<(String, RGBColor)> {
    let mut names: Vec<String> = points.iter().map(|p| p.workload.clone()).collect();
    names.dedup();
    names
        .into_iter()
        .enumerate()
        .map(|(i, n)| (n, PALETTE[i % PALETTE.len()]))
        .collect()
}

/// The line of one workload in one layout: every worker count's point of
/// that layout (the fastest one where the layout has several, as hybrid
/// does). The 1-worker point starts the threads and ranks lines; the hybrid
/// line starts at its first hybrid point.
fn line<'a>(points: &'a [Point], workload: &str, layout: Layout) -> Vec<&'a Point> {
    let mut best: BTreeMap<usize, &Point> = BTreeMap::new();
    for p in points.iter().filter(|p| p.workload == workload) {
        let starts = p.workers() == 1 && layout != Layout::Hybrid;
        if p.layout() != layout && !starts {
            continue;
        }
        let slot = best.entry(p.workers()).or_insert(p);
        if p.median_s < slot.median_s {
            *slot = p;
        }
    }
    if best.len() == 1 && layout == Layout::Ranks {
        return Vec::new(); // only the 1-worker point: drawn with the threads line
    }
    best.into_values().collect()
}

type Chart<'a, Y> = ChartContext<'a, SVGBackend<'a>, Cartesian2d<LogCoord<f64>, Y>>;

/// Draws one scaling plot to `path`. `cores` is a host's core count: points
/// beyond it are shaded as oversubscribed.
pub fn scaling(points: &[Point], metric: Metric, cores: usize, path: &Path) -> Result<(), String> {
    let max_workers = points.iter().map(Point::workers).max().unwrap_or(1).max(2);
    // Powers of two up to the most workers: the x axis' ticks.
    let ticks: Vec<f64> = (0..=(max_workers as f64).log2().ceil() as u32)
        .map(|k| 2f64.powi(k as i32))
        .collect();
    let x_max = ticks[ticks.len() - 1] * 1.15;
    let values: Vec<f64> = points.iter().map(|p| metric.value(p)).collect();
    let top = values.iter().cloned().fold(0.0, f64::max);
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(
            format!("Strong scaling: {}", metric.file_suffix()),
            ("sans-serif", 26),
        )
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(72);
    let x_range = || (0.87..x_max).log_scale().base(2.0);
    let frame = Frame {
        points,
        metric,
        cores,
        x_max,
    };
    match metric {
        Metric::Time => {
            let low = values.iter().cloned().fold(f64::INFINITY, f64::min);
            let mut chart = builder
                .build_cartesian_2d(x_range(), (low / 40.0..top * 2.0).log_scale())
                .map_err(err)?;
            // The decades below the fastest point hold the legend.
            frame.background(&mut chart, low / 40.0, top * 2.0)?;
            for (workload, colour) in workloads(points) {
                let Some(base) = points
                    .iter()
                    .filter(|p| p.workload == workload)
                    .min_by_key(|p| p.workers())
                else {
                    continue;
                };
                let t1 = base.median_s * base.workers() as f64;
                let xy: Vec<(f64, f64)> = ticks.iter().map(|&w| (w, t1 / w)).collect();
                let ideal = ShapeStyle::from(colour.mix(0.6));
                chart
                    .draw_series(DashedLineSeries::new(xy, 3, 5, ideal))
                    .map_err(err)?
                    .label(format!("{workload}: ideal (1-worker time / workers)"))
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], ideal));
            }
            frame.lines(&mut chart)
        }
        Metric::Speedup => {
            // Headroom above the ideal line holds the legend.
            let y_top = (max_workers as f64).max(top) * 1.7;
            let mut chart = builder
                .build_cartesian_2d(x_range(), 0.0..y_top)
                .map_err(err)?;
            frame.background(&mut chart, 0.0, y_top)?;
            let xy: Vec<(f64, f64)> = ticks.iter().map(|&w| (w, w)).collect();
            chart
                .draw_series(DashedLineSeries::new(xy, 6, 4, BLACK.into()))
                .map_err(err)?
                .label("ideal: speedup = workers")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
            frame.lines(&mut chart)
        }
        Metric::Efficiency => {
            let y_top = top.max(1.0) * 1.15;
            let mut chart = builder
                .build_cartesian_2d(x_range(), 0.0..y_top)
                .map_err(err)?;
            frame.background(&mut chart, 0.0, y_top)?;
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(0.87, 1.0), (x_max, 1.0)],
                    6,
                    4,
                    BLACK.into(),
                ))
                .map_err(err)?
                .label("ideal: efficiency = 1")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
            frame.lines(&mut chart)
        }
    }?;
    root.present().map_err(err)
}

/// What every scaling plot shares: the mesh, the oversubscribed band, the
/// measured lines and the legend.
struct Frame<'p> {
    points: &'p [Point],
    metric: Metric,
    cores: usize,
    x_max: f64,
}

impl Frame<'_> {
    fn background<Y>(&self, chart: &mut Chart<'_, Y>, y0: f64, y1: f64) -> Result<(), String>
    where
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let x_fmt = |x: &f64| format!("{}", x.round());
        chart
            .configure_mesh()
            .x_desc("workers (ranks x threads), log scale")
            .y_desc(self.metric.axis())
            .x_label_formatter(&x_fmt)
            .draw()
            .map_err(err)?;
        let over = self.cores.max(1) as f64 * 1.08;
        if over < self.x_max {
            let band = RGBColor(232, 232, 232);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(over, y0), (self.x_max, y1)],
                    band.filled(),
                )))
                .map_err(err)?
                .label(format!(
                    "oversubscribed: more than {} workers per host (hollow markers)",
                    self.cores
                ))
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], band.filled()));
        }
        Ok(())
    }

    fn lines<Y>(&self, chart: &mut Chart<'_, Y>) -> Result<(), String>
    where
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let metric = self.metric;
        for (workload, colour) in workloads(self.points) {
            for (k, layout) in LAYOUTS.into_iter().enumerate() {
                let pts = line(self.points, &workload, layout);
                if pts.is_empty() {
                    continue;
                }
                let xy: Vec<(f64, f64)> = pts
                    .iter()
                    .map(|p| (p.workers() as f64, metric.value(p)))
                    .collect();
                let style = ShapeStyle::from(colour).stroke_width(2);
                let series = if k == 0 {
                    chart.draw_series(LineSeries::new(xy, style))
                } else {
                    chart.draw_series(DashedLineSeries::new(xy, 4 * k as u32 + 4, 4, style))
                };
                let anno = series
                    .map_err(err)?
                    .label(format!("{workload}: {}", layout.label()));
                let filled = colour.filled();
                match layout {
                    Layout::Threads => {
                        anno.legend(move |(x, y)| Circle::new((x + 10, y), 5, filled))
                    }
                    Layout::Ranks => {
                        anno.legend(move |(x, y)| TriangleMarker::new((x + 10, y), 6, filled))
                    }
                    Layout::Hybrid => anno.legend(move |(x, y)| {
                        Rectangle::new([(x + 6, y - 4), (x + 14, y + 4)], filled)
                    }),
                };
                for p in pts {
                    let at = (p.workers() as f64, metric.value(p));
                    let style = if p.oversubscribed {
                        colour.stroke_width(2)
                    } else {
                        colour.filled()
                    };
                    let drawn = match layout {
                        Layout::Threads => {
                            chart.draw_series(std::iter::once(Circle::new(at, 5, style)))
                        }
                        Layout::Ranks => {
                            chart.draw_series(std::iter::once(TriangleMarker::new(at, 6, style)))
                        }
                        Layout::Hybrid => chart.draw_series(std::iter::once(
                            EmptyElement::at(at) + Rectangle::new([(-4, -4), (4, 4)], style),
                        )),
                    };
                    drawn.map_err(err)?;
                }
            }
        }
        chart
            .configure_series_labels()
            .position(match self.metric {
                // Where each plot's lines are not: time and efficiency fall
                // from the left, speedup rises to the right.
                Metric::Speedup => SeriesLabelPosition::UpperLeft,
                Metric::Time | Metric::Efficiency => SeriesLabelPosition::LowerLeft,
            })
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(err)
    }
}

/// The configurations the load-balance plot shows for a workload: every
/// configuration with the most workers that is not oversubscribed (at most
/// five, hybrid ones first).
pub fn balance_configs<'a>(points: &'a [Point], workload: &str) -> Vec<&'a Point> {
    let mine: Vec<&Point> = points
        .iter()
        .filter(|p| p.workload == workload && !p.median_run.loads.is_empty())
        .collect();
    let fits: Vec<&Point> = mine.iter().copied().filter(|p| !p.oversubscribed).collect();
    let pool = if fits.is_empty() { mine } else { fits };
    let Some(most) = pool.iter().map(|p| p.workers()).max() else {
        return Vec::new();
    };
    let mut chosen: Vec<&Point> = pool.into_iter().filter(|p| p.workers() == most).collect();
    chosen.sort_by_key(|p| (p.layout() != Layout::Hybrid, p.ranks));
    chosen.truncate(5);
    chosen.sort_by_key(|p| p.ranks);
    chosen
}

/// Busy and idle seconds of every worker (stacked bars, grouped by rank) in
/// the median run of the largest configurations: one row per workload.
pub fn balance(points: &[Point], path: &Path) -> Result<(), String> {
    let rows: Vec<(String, Vec<&Point>)> = workloads(points)
        .into_iter()
        .map(|(w, _)| {
            let c = balance_configs(points, &w);
            (w, c)
        })
        .filter(|(_, c)| !c.is_empty())
        .collect();
    let cols = rows.iter().map(|(_, c)| c.len()).max().unwrap_or(1);
    let height = 360 * rows.len().max(1) as u32 + 60;
    let root = SVGBackend::new(path, (SIZE.0.max(380 * cols as u32), height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let root = root
        .titled(
            "Load balance: busy (dark) and idle (light) seconds per worker, median run",
            ("sans-serif", 24),
        )
        .map_err(err)?;
    let colours: BTreeMap<String, RGBColor> = workloads(points).into_iter().collect();
    let panels = root.split_evenly((rows.len().max(1), cols));
    for (r, (workload, configs)) in rows.iter().enumerate() {
        let colour = colours[workload];
        for (c, p) in configs.iter().enumerate() {
            let area = &panels[r * cols + c];
            let loads = &p.median_run.loads;
            let top = loads
                .iter()
                .map(|l| l.busy_s + l.idle_s)
                .fold(0.0, f64::max)
                .max(1e-6);
            let names: Vec<String> = loads
                .iter()
                .map(|l| format!("r{} t{}", l.rank, l.worker))
                .collect();
            let mut chart = ChartBuilder::on(area)
                .caption(
                    format!(
                        "{workload}, {}x{}: imbalance {:.2}",
                        p.ranks,
                        p.threads,
                        p.imbalance()
                    ),
                    ("sans-serif", 15),
                )
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(56)
                .build_cartesian_2d(
                    (0..loads.len().saturating_sub(1).max(1)).into_segmented(),
                    0.0..top * 1.1,
                )
                .map_err(err)?;
            let label = |x: &SegmentValue<usize>| match x {
                SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                    names.get(*i).cloned().unwrap_or_default()
                }
                SegmentValue::Last => String::new(),
            };
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_desc("worker (rank, thread)")
                .y_desc("seconds")
                .x_labels(loads.len().min(32))
                .x_label_formatter(&label)
                .draw()
                .map_err(err)?;
            let gap = (120 / loads.len().max(1)).clamp(2, 24) as u32;
            let bar = |i: usize, lo: f64, hi: f64, style: ShapeStyle| {
                let mut r = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), lo),
                        (SegmentValue::Exact(i + 1), hi),
                    ],
                    style,
                );
                r.set_margin(0, 0, gap, gap);
                r
            };
            chart
                .draw_series(
                    loads
                        .iter()
                        .enumerate()
                        .map(|(i, l)| bar(i, 0.0, l.busy_s, colour.filled())),
                )
                .map_err(err)?;
            chart
                .draw_series(
                    loads.iter().enumerate().map(|(i, l)| {
                        bar(i, l.busy_s, l.busy_s + l.idle_s, colour.mix(0.3).filled())
                    }),
                )
                .map_err(err)?;
        }
    }
    root.present().map_err(err)
}
