//! One solution as SVG. Every cell is a `rect` that says what it is
//! (`data-cell="row,col"`, or `"layer,row,col"` in 3D, then the cell's own
//! `data-*` attributes, such as `data-piece` or `data-value`), so pages and
//! tests can find a cell's content from the DOM.

use super::picture::{Cell, Fill, Picture};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Piece colours, told apart at a glance; labels beyond them get evenly
/// spaced hues.
const PALETTE: [&str; 20] = [
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
    "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8", "#800000", "#aaffc3",
    "#808000", "#ffd8b1", "#000075", "#808080",
];

/// How to draw: a colour per label, the puzzle's numbers.
#[derive(Debug, Clone, Default)]
pub struct Style {
    pub colours: BTreeMap<char, String>,
    /// The puzzle's numbers, row by row (`hysolve view --puzzle`).
    pub numbers: Option<Vec<u64>>,
}

impl Style {
    /// A colour for every piece label in `pictures`, in label order.
    pub fn for_pictures(pictures: &[Picture]) -> Style {
        let mut labels = std::collections::BTreeSet::new();
        for cell in pictures.iter().flat_map(Picture::cells) {
            if let Fill::Label(l) = cell.fill {
                labels.insert(l);
            }
        }
        let n = labels.len();
        let colours = labels
            .into_iter()
            .enumerate()
            .map(|(i, label)| {
                let colour = if n <= PALETTE.len() {
                    PALETTE[i].to_string()
                } else {
                    format!("hsl({}, 70%, 55%)", i * 360 / n)
                };
                (label, colour)
            })
            .collect();
        Style {
            colours,
            numbers: None,
        }
    }
}

/// Text for XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Black or white, whichever reads better on `colour` (`#rrggbb`).
fn ink_on(colour: &str) -> &'static str {
    let hex = colour.trim_start_matches('#');
    let channel =
        |i: usize| u32::from_str_radix(hex.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
    if hex.len() == 6 && 299 * channel(0) + 587 * channel(2) + 114 * channel(4) < 128_000 {
        "#fff"
    } else {
        "#000"
    }
}

const MARGIN: usize = 4;
const LAYER_GAP: usize = 16;
const CAPTION: usize = 18;

/// Draws `picture`. `standalone`: a file of its own (with the SVG namespace
/// and a white background), rather than an element inside a page.
pub fn draw(picture: &Picture, style: &Style, standalone: bool) -> String {
    let (rows, cols) = picture.size();
    let depth = picture.depth();
    let cell = (560 / rows.max(cols * depth).max(1)).clamp(6, 44);
    let caption = if depth > 1 { CAPTION } else { 0 };
    let width = 2 * MARGIN + depth * cols * cell + (depth - 1) * LAYER_GAP;
    let height = 2 * MARGIN + caption + rows * cell;
    let mut s = String::new();
    let ns = if standalone {
        " xmlns=\"http://www.w3.org/2000/svg\""
    } else {
        ""
    };
    let _ = write!(
        s,
        "<svg{ns} width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"sans-serif\" text-anchor=\"middle\" dominant-baseline=\"central\">"
    );
    if standalone {
        let _ = write!(
            s,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>"
        );
    }
    for (z, layer) in picture.layers.iter().enumerate() {
        let left = MARGIN + z * (cols * cell + LAYER_GAP);
        let top = MARGIN + caption;
        if depth > 1 {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"#333\">layer {}</text>",
                left + cols * cell / 2,
                MARGIN + CAPTION / 2,
                z + 1
            );
        }
        for (r, row) in layer.iter().enumerate() {
            for (c, content) in row.iter().enumerate() {
                let at = if depth > 1 {
                    format!("{z},{r},{c}")
                } else {
                    format!("{r},{c}")
                };
                let number = style
                    .numbers
                    .as_ref()
                    .and_then(|n| n.get(r * cols + c))
                    .filter(|_| z == 0);
                draw_cell(
                    &mut s,
                    content,
                    &at,
                    (left + c * cell, top + r * cell),
                    cell,
                    style,
                    number,
                );
            }
        }
        if layer.iter().flatten().any(|c| c.group.is_some()) {
            outline(&mut s, layer, left, top, cell);
        }
    }
    s.push_str("</svg>");
    s
}

/// One cell at `(x, y)`, `size` wide; `number`: the puzzle's, if shown.
fn draw_cell(
    s: &mut String,
    cell: &Cell,
    at: &str,
    (x, y): (usize, usize),
    size: usize,
    style: &Style,
    number: Option<&u64>,
) {
    let fill = match cell.fill {
        Fill::Colour(c) => c,
        Fill::Label(l) => style.colours.get(&l).map_or("#ccc", String::as_str),
    };
    let _ = write!(s, "<rect data-cell=\"{at}\"");
    for (name, value) in &cell.data {
        let _ = write!(s, " {name}=\"{}\"", escape(value));
    }
    let _ = write!(
        s,
        " x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" fill=\"{fill}\""
    );
    if let Some(stroke) = cell.stroke {
        let _ = write!(s, " stroke=\"{stroke}\"");
    }
    s.push_str("/>");
    if cell.disc {
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#1b1b1b\" stroke=\"#fff\" stroke-width=\"1\"/>",
            x + size / 2,
            y + size / 2,
            (size * 3 / 10).max(2)
        );
    }
    let text = match (&cell.text, cell.number_ink.zip(number)) {
        (Some((body, ink)), _) => Some((body.clone(), ink.unwrap_or_else(|| ink_on(fill)))),
        (None, Some((ink, n))) => Some((n.to_string(), ink)),
        (None, None) => None,
    };
    if let Some((body, ink)) = text
        && size >= 12
    {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{ink}\" pointer-events=\"none\">{}</text>",
            x + size / 2,
            y + size / 2,
            size * 11 / 20,
            escape(&body)
        );
    }
}

/// A thick edge wherever a grouped cell meets a cell of another group (or
/// the edge of the layer).
fn outline(s: &mut String, layer: &[Vec<Cell>], left: usize, top: usize, cell: usize) {
    let group = |r: usize, c: usize| {
        layer
            .get(r)
            .and_then(|row| row.get(c))
            .and_then(|x| x.group)
    };
    let mut path = String::new();
    for (r, row) in layer.iter().enumerate() {
        for (c, here) in row.iter().enumerate() {
            let Some(g) = here.group else { continue };
            let (x, y) = (left + c * cell, top + r * cell);
            if group(r, c + 1) != Some(g) {
                let _ = write!(path, "M{} {}v{cell}", x + cell, y);
            }
            if c == 0 || group(r, c - 1) != Some(g) {
                let _ = write!(path, "M{x} {y}v{cell}");
            }
            if group(r + 1, c) != Some(g) {
                let _ = write!(path, "M{} {}h{cell}", x, y + cell);
            }
            if r == 0 || group(r - 1, c) != Some(g) {
                let _ = write!(path, "M{x} {y}h{cell}");
            }
        }
    }
    let _ = write!(
        s,
        "<path d=\"{path}\" fill=\"none\" stroke=\"#222\" stroke-width=\"2\" stroke-linecap=\"square\"/>"
    );
}
