//! Target figures: a box by its sizes, a built-in figure, or a figure file.
//!
//! Figure file: one line per row, `#` a cell to fill, `.` a hole; 3D figures
//! as layers separated by a blank line; `%` starts a comment line. Shorter
//! rows and layers are padded with holes.
//!
//! A figure is its set of cells: the margins of holes around them, the
//! padding of short rows and layers and where the cells sit in the file
//! change nothing the search sees ([`Figure::cropped`] gives it the box of
//! the cells), only how solutions are drawn (on the figure as written).

use crate::PuzzleError;
use hysolve::advanced::input::{InputError, read_text};
use std::path::Path;

/// The most cells in the bounding box of a figure's cells (the solver's
/// bitboards).
pub const MAX_BOX: usize = 512;

/// The most cells in the box of a figure as written, margins of holes
/// included (each a `bool` in memory).
pub const MAX_WRITTEN: usize = 1 << 20;

/// A figure inside its bounding box; cell (x, y, z) has index x + w(y + h z).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// Its name (the box, or the file).
    pub name: String,
    /// Width of the bounding box.
    pub w: usize,
    /// Height of the bounding box.
    pub h: usize,
    /// Depth of the bounding box (1 when flat).
    pub d: usize,
    /// Which cells of the box belong to the figure, x fastest, then y, then z.
    pub filled: Vec<bool>,
}

/// Built-in figures: name, description, figure text.
pub const BUILT_IN: [(&str, &str, &str); 1] = [(
    "8x8-hole",
    "the 8x8 board without its centre 2x2 (Dana Scott's pentomino problem)",
    "########\n########\n########\n###..###\n###..###\n########\n########\n########\n",
)];

impl Figure {
    /// A full box `WxH` or `WxHxD`.
    pub fn parse_box(spec: &str) -> Result<Figure, PuzzleError> {
        let sizes: Vec<usize> = spec
            .split('x')
            .map(|s| s.parse::<usize>().ok().filter(|&v| v >= 1))
            .collect::<Option<_>>()
            .filter(|v: &Vec<usize>| v.len() == 2 || v.len() == 3)
            .ok_or_else(|| PuzzleError::Parameter {
                puzzle: "pack",
                param: "box",
                problem: format!("'{spec}': expected WxH or WxHxD with sizes of 1 or more"),
            })?;
        let (w, h, d) = (sizes[0], sizes[1], sizes.get(2).copied().unwrap_or(1));
        if w.saturating_mul(h).saturating_mul(d) > MAX_BOX {
            return Err(PuzzleError::Parameter {
                puzzle: "pack",
                param: "box",
                problem: format!("'{spec}': more than {MAX_BOX} cells"),
            });
        }
        Ok(Figure {
            name: spec.to_owned(),
            w,
            h,
            d,
            filled: vec![true; w * h * d],
        })
    }

    /// A built-in figure by name, or a figure file.
    pub fn load(spec: &str) -> Result<Figure, InputError> {
        if let Some(&(name, _, text)) = BUILT_IN.iter().find(|(n, _, _)| *n == spec) {
            return Figure::parse(text, name);
        }
        let text = read_text(Path::new(spec), 1 << 20)?;
        let mut fig = Figure::parse(&text, spec)?;
        fig.name = Path::new(spec)
            .file_name()
            .map_or(spec.to_owned(), |n| n.to_string_lossy().into_owned());
        Ok(fig)
    }

    /// Parses a figure text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Figure, InputError> {
        let mut layers: Vec<Vec<Vec<bool>>> = vec![Vec::new()];
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('%') {
                continue;
            }
            let row = line.trim_end();
            if row.is_empty() {
                if !layers.last().expect("never empty").is_empty() {
                    layers.push(Vec::new());
                }
                continue;
            }
            let mut cells = Vec::with_capacity(row.len());
            for (j, ch) in row.chars().enumerate() {
                match ch {
                    '#' => cells.push(true),
                    '.' | ' ' => cells.push(false),
                    other => {
                        return Err(InputError::at(
                            file,
                            i + 1,
                            j + 1,
                            format!("unexpected '{other}': a figure has '#' (cell) and '.' (hole)"),
                        ));
                    }
                }
                if cells.len() > MAX_WRITTEN {
                    return Err(InputError::at(
                        file,
                        i + 1,
                        j + 1,
                        format!("row longer than {MAX_WRITTEN} cells"),
                    ));
                }
            }
            layers.last_mut().expect("never empty").push(cells);
        }
        if layers.last().is_some_and(|l| l.is_empty()) {
            layers.pop();
        }
        let d = layers.len();
        let h = layers.iter().map(Vec::len).max().unwrap_or(0);
        let w = layers.iter().flatten().map(Vec::len).max().unwrap_or(0);
        if w * h * d == 0 || !layers.iter().flatten().flatten().any(|&c| c) {
            return Err(InputError::file(file, "empty figure: no '#' cell"));
        }
        // The box of the cells, margins of holes left out: what the search sees.
        let span = |along: &dyn Fn(usize, usize, usize) -> usize| {
            let mut at = (usize::MAX, 0);
            for (z, layer) in layers.iter().enumerate() {
                for (y, row) in layer.iter().enumerate() {
                    for (x, _) in row.iter().enumerate().filter(|&(_, &c)| c) {
                        let v = along(x, y, z);
                        at = (at.0.min(v), at.1.max(v));
                    }
                }
            }
            at.1 + 1 - at.0
        };
        let tight = [span(&|x, _, _| x), span(&|_, y, _| y), span(&|_, _, z| z)];
        if tight.iter().product::<usize>() > MAX_BOX {
            let [w, h, d] = tight;
            return Err(InputError::file(
                file,
                format!("bounding box {w}x{h}x{d} has more than {MAX_BOX} cells"),
            ));
        }
        if w.saturating_mul(h).saturating_mul(d) > MAX_WRITTEN {
            return Err(InputError::file(
                file,
                format!("written {w}x{h}x{d} with its holes: more than {MAX_WRITTEN} cells"),
            ));
        }
        let mut filled = vec![false; w * h * d];
        for (z, layer) in layers.iter().enumerate() {
            for (y, row) in layer.iter().enumerate() {
                for (x, &c) in row.iter().enumerate() {
                    filled[x + w * (y + h * z)] = c;
                }
            }
        }
        Ok(Figure {
            name: file.to_owned(),
            w,
            h,
            d,
            filled,
        })
    }

    /// The figure in the bounding box of its cells, margins of holes cut
    /// off, and where that box starts in this one's.
    pub fn cropped(&self) -> (Figure, [usize; 3]) {
        let (mut low, mut high) = ([usize::MAX; 3], [0; 3]);
        for i in (0..self.filled.len()).filter(|&i| self.filled[i]) {
            let c = self.coords(i);
            for k in 0..3 {
                low[k] = low[k].min(c[k] as usize);
                high[k] = high[k].max(c[k] as usize + 1);
            }
        }
        if low[0] == usize::MAX {
            return (self.clone(), [0; 3]);
        }
        let [w, h, d] = [0, 1, 2].map(|k| high[k] - low[k]);
        let mut filled = Vec::with_capacity(w * h * d);
        for z in 0..d {
            for y in 0..h {
                for x in 0..w {
                    let at = [x + low[0], y + low[1], z + low[2]].map(|v| v as i32);
                    filled.push(
                        self.index(at[0], at[1], at[2])
                            .is_some_and(|i| self.filled[i]),
                    );
                }
            }
        }
        let figure = Figure {
            name: self.name.clone(),
            w,
            h,
            d,
            filled,
        };
        (figure, low)
    }

    /// Cells to fill.
    pub fn cells(&self) -> usize {
        self.filled.iter().filter(|&&c| c).count()
    }

    /// The index of cell (x, y, z), if it lies in the box.
    #[inline]
    pub fn index(&self, x: i32, y: i32, z: i32) -> Option<usize> {
        let (w, h, d) = (self.w as i32, self.h as i32, self.d as i32);
        ((0..w).contains(&x) && (0..h).contains(&y) && (0..d).contains(&z))
            .then(|| (x + w * (y + h * z)) as usize)
    }

    /// The coordinates of cell `i`.
    pub fn coords(&self, i: usize) -> [i32; 3] {
        [
            (i % self.w) as i32,
            (i / self.w % self.h) as i32,
            (i / (self.w * self.h)) as i32,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_and_files() {
        let b = Figure::parse_box("11x5").unwrap();
        assert_eq!((b.w, b.h, b.d, b.cells()), (11, 5, 1, 55));
        assert_eq!(Figure::parse_box("3x3x3").unwrap().cells(), 27);
        assert!(Figure::parse_box("3x").is_err());
        assert!(Figure::parse_box("0x4").is_err());
        assert!(
            Figure::parse_box("100x100")
                .unwrap_err()
                .to_string()
                .contains("more than 512")
        );
        let f = Figure::parse("% a step\n##\n#\n\n##\n##\n", "f").unwrap();
        assert_eq!((f.w, f.h, f.d, f.cells()), (2, 2, 2, 7));
        assert_eq!(Figure::load("8x8-hole").unwrap().cells(), 60);
    }

    #[test]
    fn bad_figures() {
        let err = |t: &str| Figure::parse(t, "f.fig").unwrap_err().to_string();
        assert_eq!(
            err("##\n#x\n"),
            "f.fig:2:2: unexpected 'x': a figure has '#' (cell) and '.' (hole)"
        );
        assert_eq!(err("..\n\n"), "f.fig: empty figure: no '#' cell");
        // The cells' box counts against the bitboards, not the margins.
        let wide = format!("{}#\n", ".".repeat(600));
        assert!(Figure::parse(&wide, "f.fig").is_ok());
        let long = format!("#{}#\n", ".".repeat(600));
        assert_eq!(
            err(&long),
            "f.fig: bounding box 602x1x1 has more than 512 cells"
        );
        assert_eq!(err(""), "f.fig: empty figure: no '#' cell");
    }

    #[test]
    fn cropping_keeps_the_cells_only() {
        let f = Figure::parse("%\n....\n.#..\n.##\n\n\n....\n..#.\n", "f").unwrap();
        assert_eq!((f.w, f.h, f.d, f.cells()), (4, 3, 2, 4));
        let (c, at) = f.cropped();
        assert_eq!(at, [1, 1, 0]);
        assert_eq!((c.w, c.h, c.d, c.cells()), (2, 2, 2, 4));
        assert_eq!(
            c.filled,
            [true, false, true, true, false, true, false, false]
        );
        // A tight figure is its own crop.
        let b = Figure::parse_box("3x2x2").unwrap();
        assert_eq!(b.cropped(), (b.clone(), [0, 0, 0]));
    }
}
