//! Graphs in the DIMACS format of the clique and colouring challenges:
//! `c` comment lines, one `p edge V E` line (V vertices counted from 1, E
//! edges), then one `e U V` line per edge. Errors name the file, line and
//! column; an edge count that disagrees with the edges listed is a
//! warning, as many published files count each edge twice. A file in the
//! challenge's binary format (`.clq.b`, see the `binary` module) is
//! told by its content and read by that module.

use super::binary;
use super::graph::{Graph, MAX_VERTICES};
use hysolve::advanced::input::{InputError, MAX_INPUT_BYTES, read_bytes, text_from_bytes, words};
use std::path::Path;

/// A graph read from a DIMACS file, with what the reader noticed.
#[derive(Debug, Clone)]
pub struct Dimacs {
    /// The graph, its vertices counted from 0 (vertex `v` of the file is
    /// `v - 1`).
    pub graph: Graph,
    /// Things worth telling that do not stop the run (an edge count
    /// that disagrees, repeated edges), each as `file:line: what`.
    pub warnings: Vec<String>,
}

/// Reads the DIMACS file at `path`, ASCII or binary (told by its
/// content: a binary file starts with a line holding only a number).
pub fn read(path: &Path) -> Result<Dimacs, InputError> {
    let bytes = read_bytes(path, MAX_INPUT_BYTES)?;
    let file = path.display().to_string();
    if binary::is_binary(&bytes) {
        return binary::parse(&file, &bytes);
    }
    parse(&file, &text_from_bytes(&file, bytes)?)
}

/// Parses DIMACS `text`; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Dimacs, InputError> {
    let lines = parse_lines(file, text, 1, true)?;
    Ok(finish(file, lines))
}

/// What the lines of a DIMACS text held: the graph of its `p` line with
/// its edges, the edge count declared and the line declaring it, and the
/// edge lines (how many, how many repeated an edge, the first that did).
pub(super) struct Lines {
    pub graph: Graph,
    pub declared: usize,
    pub p_line: usize,
    pub edges: usize,
    pub repeated: usize,
    pub first_repeat: Option<usize>,
}

/// Parses the lines of `text`, the first of them line `first` of `file`;
/// `e` lines are refused unless `edges` (a binary file's preamble holds
/// only `c` and `p` lines).
pub(super) fn parse_lines(
    file: &str,
    text: &str,
    first: usize,
    edges: bool,
) -> Result<Lines, InputError> {
    let mut graph: Option<(Graph, usize, usize)> = None;
    let mut lines = 0;
    let mut repeated = 0;
    let mut first_repeat = None;
    for (i, line) in text.lines().enumerate() {
        let no = i + first;
        let mut w = words(line);
        let Some((col, kind)) = w.next() else {
            continue;
        };
        match kind {
            "c" => continue,
            "p" => {
                if graph.is_some() {
                    return Err(InputError::at(file, no, col, "a second 'p' line"));
                }
                let (fcol, format) = w
                    .next()
                    .ok_or_else(|| InputError::line(file, no, "'p' needs a format: p edge V E"))?;
                if format != "edge" && format != "col" {
                    return Err(InputError::at(
                        file,
                        no,
                        fcol,
                        format!("unknown format '{format}' (expected p edge V E)"),
                    ));
                }
                let n = number(file, no, w.next(), "the number of vertices")?;
                let e = number(file, no, w.next(), "the number of edges")?;
                if let Some((c, extra)) = w.next() {
                    return Err(InputError::at(
                        file,
                        no,
                        c,
                        format!("unexpected '{extra}' after p edge V E"),
                    ));
                }
                if n > MAX_VERTICES {
                    return Err(InputError::line(
                        file,
                        no,
                        format!("{n} vertices: at most {MAX_VERTICES} are accepted"),
                    ));
                }
                graph = Some((Graph::new(n), e, no));
            }
            "e" if !edges => {
                return Err(InputError::at(
                    file,
                    no,
                    col,
                    "an edge line in a binary file's preamble (the edges are its bit matrix)",
                ));
            }
            "e" => {
                let Some((g, _, _)) = &mut graph else {
                    return Err(InputError::at(
                        file,
                        no,
                        col,
                        "an edge before the 'p edge V E' line",
                    ));
                };
                let mut vertex = |what: &str| -> Result<usize, InputError> {
                    let (c, word) = w.next().ok_or_else(|| {
                        InputError::line(
                            file,
                            no,
                            format!("'e' needs two vertices: e U V ({what} missing)"),
                        )
                    })?;
                    let v: usize = word.parse().map_err(|_| {
                        InputError::at(file, no, c, format!("'{word}' is not a vertex number"))
                    })?;
                    if v == 0 || v > g.len() {
                        return Err(InputError::at(
                            file,
                            no,
                            c,
                            format!(
                                "vertex {v} is out of range (the graph has vertices 1 to {})",
                                g.len()
                            ),
                        ));
                    }
                    Ok(v - 1)
                };
                let u = vertex("the first")?;
                let v = vertex("the second")?;
                if let Some((c, extra)) = w.next() {
                    return Err(InputError::at(
                        file,
                        no,
                        c,
                        format!("unexpected '{extra}' after e U V"),
                    ));
                }
                if u == v {
                    return Err(InputError::at(
                        file,
                        no,
                        col,
                        format!("a self-loop on vertex {}", u + 1),
                    ));
                }
                lines += 1;
                if !g.add_edge(u, v) {
                    repeated += 1;
                    first_repeat.get_or_insert(no);
                }
            }
            other => {
                return Err(InputError::at(
                    file,
                    no,
                    col,
                    format!("unknown line type '{other}' (expected c, p or e)"),
                ));
            }
        }
    }
    let Some((graph, declared, p_line)) = graph else {
        return Err(InputError::file(
            file,
            "no 'p edge V E' line: not a DIMACS graph",
        ));
    };
    Ok(Lines {
        graph,
        declared,
        p_line,
        edges: lines,
        repeated,
        first_repeat,
    })
}

/// The graph of `lines`, with warnings for an edge count that disagrees
/// and for repeated edges (each also logged).
pub(super) fn finish(file: &str, lines: Lines) -> Dimacs {
    let Lines {
        graph,
        declared,
        p_line,
        edges: lines,
        repeated,
        first_repeat,
    } = lines;
    let mut warnings = Vec::new();
    let distinct = graph.edges();
    if declared != lines && declared != distinct {
        warnings.push(format!(
            "{file}:{p_line}: the 'p' line declares {declared} edges, the file lists {lines} ({distinct} distinct)"
        ));
    }
    if let Some(no) = first_repeat {
        warnings.push(format!(
            "{file}:{no}: {repeated} edge line(s) repeat an edge already listed (counted once)"
        ));
    }
    for w in &warnings {
        tracing::warn!("{w}");
    }
    Dimacs { graph, warnings }
}

/// The next word of a `p` line as a count.
fn number(
    file: &str,
    no: usize,
    word: Option<(usize, &str)>,
    what: &str,
) -> Result<usize, InputError> {
    let (col, word) =
        word.ok_or_else(|| InputError::line(file, no, format!("'p edge V E' is missing {what}")))?;
    word.parse()
        .map_err(|_| InputError::at(file, no, col, format!("'{word}' is not a count ({what})")))
}

#[cfg(test)]
mod test {
    use super::*;

    fn err(text: &str) -> String {
        parse("g.col", text).unwrap_err().to_string()
    }

    #[test]
    fn a_small_graph_reads_with_comments_and_blank_lines() {
        let d = parse(
            "g.col",
            "c a triangle\n\np edge 3 3\ne 1 2\ne 2 3\n  e 1 3\n",
        )
        .unwrap();
        assert!(d.graph.is_clique(&[0, 1, 2]));
        assert!(d.warnings.is_empty());
    }

    #[test]
    fn bad_input_names_line_and_column() {
        assert_eq!(
            err("p edge 3 1\ne 1 4\n"),
            "g.col:2:5: vertex 4 is out of range (the graph has vertices 1 to 3)"
        );
        assert_eq!(
            err("p edge 3 1\ne 2 2\n"),
            "g.col:2:1: a self-loop on vertex 2"
        );
        assert_eq!(
            err("c x\ne 1 2\n"),
            "g.col:2:1: an edge before the 'p edge V E' line"
        );
        assert_eq!(
            err("c nothing\n"),
            "g.col: no 'p edge V E' line: not a DIMACS graph"
        );
        assert_eq!(
            err("p edge 3 1\nx 1 2\n"),
            "g.col:2:1: unknown line type 'x' (expected c, p or e)"
        );
        assert_eq!(
            err("p edge three 1\n"),
            "g.col:1:8: 'three' is not a count (the number of vertices)"
        );
        assert_eq!(
            err("p edge 3 1\ne 1 b\n"),
            "g.col:2:5: 'b' is not a vertex number"
        );
        assert_eq!(
            err("p edge 3 1\ne 1\n"),
            "g.col:2: 'e' needs two vertices: e U V (the second missing)"
        );
        assert_eq!(
            err("p edge 3 1\np edge 3 1\n"),
            "g.col:2:1: a second 'p' line"
        );
        assert_eq!(
            err("p graph 3 1\n"),
            "g.col:1:3: unknown format 'graph' (expected p edge V E)"
        );
        assert_eq!(
            err("p edge 99999999 1\n"),
            "g.col:1: 99999999 vertices: at most 32768 are accepted"
        );
    }

    #[test]
    fn a_count_that_disagrees_is_a_warning() {
        let d = parse("g.col", "p edge 3 5\ne 1 2\ne 2 1\n").unwrap();
        assert_eq!(d.graph.edges(), 1);
        assert_eq!(d.warnings.len(), 2);
        assert!(
            d.warnings[0].starts_with("g.col:1: the 'p' line declares 5 edges"),
            "{:?}",
            d.warnings
        );
        // Each edge listed twice and counted twice is a common convention.
        let d = parse("g.col", "p edge 2 2\ne 1 2\ne 2 1\n").unwrap();
        assert_eq!(d.warnings.len(), 1);
    }
}
