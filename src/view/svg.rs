//! One solution as SVG. Every cell is a `rect` that says what it is
//! (`data-cell="row,col"`, or `"layer,row,col"` in 3D, and `data-piece`,
//! `data-shaded`, `data-queen` or `data-value`), so pages and tests can find
//! a cell's content from the DOM.

use super::Picture;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Piece colours, told apart at a glance; labels beyond them get evenly
/// spaced hues.
const PALETTE: [&str; 20] = [
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
    "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8", "#800000", "#aaffc3",
    "#808000", "#ffd8b1", "#000075", "#808080",
];

/// How to draw: a colour per piece label, Hitori's numbers.
#[derive(Debug, Clone, Default)]
pub struct Style {
    pub colours: BTreeMap<char, String>,
    /// Hitori: the puzzle's numbers, row by row.
    pub numbers: Option<Vec<u64>>,
}

impl Style {
    /// A colour for every piece label in `pictures`, in label order.
    pub fn for_pictures(pictures: &[Picture]) -> Style {
        let mut labels = std::collections::BTreeSet::new();
        for p in pictures {
            if let Picture::Pack { layers } = p {
                for row in layers.iter().flatten() {
                    labels.extend(row.iter().flatten().copied());
                }
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
    let depth = match picture {
        Picture::Pack { layers } => layers.len().max(1),
        _ => 1,
    };
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
    let font = cell * 11 / 20;
    let text = |s: &mut String, x: usize, y: usize, fill: &str, body: &str| {
        if cell >= 12 {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"{font}\" fill=\"{fill}\" pointer-events=\"none\">{}</text>",
                x + cell / 2,
                y + cell / 2,
                escape(body)
            );
        }
    };
    match picture {
        Picture::Queens { cols: queens } => {
            let n = queens.len();
            for (r, &q) in queens.iter().enumerate() {
                for c in 0..n {
                    let (x, y) = (MARGIN + c * cell, MARGIN + r * cell);
                    let fill = if (r + c) % 2 == 0 {
                        "#f0d9b5"
                    } else {
                        "#b58863"
                    };
                    let queen = if c == q { " data-queen=\"1\"" } else { "" };
                    let _ = write!(
                        s,
                        "<rect data-cell=\"{r},{c}\"{queen} x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\"/>"
                    );
                    if c == q {
                        let _ = write!(
                            s,
                            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#1b1b1b\" stroke=\"#fff\" stroke-width=\"1\"/>",
                            x + cell / 2,
                            y + cell / 2,
                            (cell * 3 / 10).max(2)
                        );
                    }
                }
            }
        }
        Picture::Hitori { cols, shaded, .. } => {
            for (i, &dark) in shaded.iter().enumerate() {
                let (r, c) = (i / cols, i % cols);
                let (x, y) = (MARGIN + c * cell, MARGIN + r * cell);
                let (fill, ink) = if dark {
                    ("#222", "#fff")
                } else {
                    ("#fff", "#000")
                };
                let _ = write!(
                    s,
                    "<rect data-cell=\"{r},{c}\" data-shaded=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\" stroke=\"#999\"/>",
                    u8::from(dark)
                );
                if let Some(v) = style.numbers.as_ref().and_then(|n| n.get(i)) {
                    text(&mut s, x, y, ink, &v.to_string());
                }
            }
        }
        Picture::Magic { n, values } => {
            for (i, v) in values.iter().enumerate() {
                let (r, c) = (i / n, i % n);
                let (x, y) = (MARGIN + c * cell, MARGIN + r * cell);
                let _ = write!(
                    s,
                    "<rect data-cell=\"{r},{c}\" data-value=\"{v}\" x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"#fff\" stroke=\"#555\"/>"
                );
                text(&mut s, x, y, "#000", &v.to_string());
            }
        }
        Picture::Pack { layers } => {
            for (z, layer) in layers.iter().enumerate() {
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
                    for (c, label) in row.iter().enumerate() {
                        let (x, y) = (left + c * cell, top + r * cell);
                        let at = if depth > 1 {
                            format!("{z},{r},{c}")
                        } else {
                            format!("{r},{c}")
                        };
                        match label {
                            Some(l) => {
                                let colour = style.colours.get(l).map_or("#ccc", String::as_str);
                                let _ = write!(
                                    s,
                                    "<rect data-cell=\"{at}\" data-piece=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{colour}\"/>",
                                    escape(&l.to_string())
                                );
                                text(&mut s, x, y, ink_on(colour), &l.to_string());
                            }
                            None => {
                                let _ = write!(
                                    s,
                                    "<rect data-cell=\"{at}\" x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"#f4f4f4\" stroke=\"#ddd\"/>"
                                );
                            }
                        }
                    }
                }
                // Piece outlines: a thick edge wherever neighbours differ.
                let mut path = String::new();
                for (r, row) in layer.iter().enumerate() {
                    for (c, label) in row.iter().enumerate() {
                        let (x, y) = (left + c * cell, top + r * cell);
                        let right = row.get(c + 1).copied().flatten();
                        if label.is_some() && (c + 1 == row.len() || right != *label) {
                            let _ = write!(path, "M{} {}v{cell}", x + cell, y);
                        }
                        if label.is_some() && (c == 0 || row[c - 1] != *label) {
                            let _ = write!(path, "M{x} {y}v{cell}");
                        }
                        let below = layer.get(r + 1).and_then(|b| b[c]);
                        if label.is_some() && (r + 1 == layer.len() || below != *label) {
                            let _ = write!(path, "M{} {}h{cell}", x, y + cell);
                        }
                        if label.is_some() && (r == 0 || layer[r - 1][c] != *label) {
                            let _ = write!(path, "M{x} {y}h{cell}");
                        }
                    }
                }
                let _ = write!(
                    s,
                    "<path d=\"{path}\" fill=\"none\" stroke=\"#222\" stroke-width=\"2\" stroke-linecap=\"square\"/>"
                );
            }
        }
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::view::Kind;

    #[test]
    fn cells_carry_their_content() {
        let p = Picture::parse(Kind::Pack, "AAB\nC.B").unwrap();
        let style = Style::for_pictures(std::slice::from_ref(&p));
        let svg = draw(&p, &style, true);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("data-cell=\"0,2\" data-piece=\"B\""));
        assert!(svg.contains("data-cell=\"1,1\" x="), "a hole has no piece");
        assert_eq!(svg.matches("data-piece=").count(), 5);
        assert!(!draw(&p, &style, false).contains("xmlns"));
        let q = Picture::parse(Kind::Queens, ".Q..\n...Q\nQ...\n..Q.").unwrap();
        let svg = draw(&q, &Style::default(), false);
        assert!(svg.contains("data-cell=\"2,0\" data-queen=\"1\""));
        assert_eq!(svg.matches("<circle").count(), 4);
        let layered = Picture::parse(Kind::Pack, "ab ba\n<& &<").unwrap();
        let svg = draw(
            &layered,
            &Style::for_pictures(std::slice::from_ref(&layered)),
            false,
        );
        assert!(svg.contains("data-cell=\"1,1,0\" data-piece=\"&amp;\""));
        assert!(svg.contains(">layer 2</text>"));
    }
}
