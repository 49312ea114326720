//! One solution as the viewer draws it: a grid of cells (in layers, for a
//! 3D figure), each saying what it is. Puzzles make pictures from their
//! solutions (their `Format`); `svg` draws any picture.

/// What fills a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// A fixed colour (`#rrggbb`).
    Colour(&'static str),
    /// The colour the style gives a label (a piece's letter).
    Label(char),
}

/// One cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// `data-*` attributes that say what the cell holds, for pages and
    /// tests (`("data-piece", "A")`): name and value.
    pub data: Vec<(&'static str, String)>,
    pub fill: Fill,
    /// The border's colour, if it has one.
    pub stroke: Option<&'static str>,
    /// Text in the cell, in a fixed ink; `None` ink: black or white,
    /// whichever reads better on the fill.
    pub text: Option<(String, Option<&'static str>)>,
    /// The ink of the puzzle's number for this cell, when the page is
    /// given the puzzle (`hysolve view --puzzle`).
    pub number_ink: Option<&'static str>,
    /// A disc in the middle (a queen).
    pub disc: bool,
    /// Cells of one group (a piece) are outlined together; `None`: no outline.
    pub group: Option<char>,
}

impl Cell {
    /// A plain cell of colour `fill`.
    pub fn new(fill: Fill) -> Cell {
        Cell {
            data: Vec::new(),
            fill,
            stroke: None,
            text: None,
            number_ink: None,
            disc: false,
            group: None,
        }
    }

    pub fn data(mut self, name: &'static str, value: impl ToString) -> Cell {
        self.data.push((name, value.to_string()));
        self
    }

    pub fn stroke(mut self, colour: &'static str) -> Cell {
        self.stroke = Some(colour);
        self
    }

    pub fn text(mut self, text: impl ToString, ink: Option<&'static str>) -> Cell {
        self.text = Some((text.to_string(), ink));
        self
    }
}

/// A drawn solution: `layers[layer][row][col]`, every layer of one size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    pub layers: Vec<Vec<Vec<Cell>>>,
    /// Added to the picture's caption (", sum 15").
    pub caption: String,
}

impl Picture {
    /// A one-layer picture.
    pub fn flat(rows: Vec<Vec<Cell>>) -> Picture {
        Picture {
            layers: vec![rows],
            caption: String::new(),
        }
    }

    /// Rows and columns of one layer.
    pub fn size(&self) -> (usize, usize) {
        let layer = self.layers.first();
        (
            layer.map_or(0, Vec::len),
            layer.and_then(|l| l.first()).map_or(0, Vec::len),
        )
    }

    pub fn depth(&self) -> usize {
        self.layers.len().max(1)
    }

    /// Every cell, layer by layer, row by row.
    pub fn cells(&self) -> impl Iterator<Item = &Cell> {
        self.layers.iter().flatten().flatten()
    }
}
