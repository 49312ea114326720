//! A packing in the solutions-file format (one row per line, a piece's
//! label per cell and `.` outside the figure; a 3D figure's layers side by
//! side on each line, separated by single spaces): the one parser the
//! verifier, the viewer and the tests share.

use hysolve::advanced::input::BlockError;

/// A packing, as a solutions file holds it (a letter a piece).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Piece labels (`None`: not part of the figure), as `[layer][row][col]`.
    pub layers: Vec<Vec<Vec<Option<char>>>>,
}

impl Solution {
    /// Reads one packing; the error names its line (from 0).
    pub fn parse(block: &str) -> Result<Solution, BlockError> {
        let lines: Vec<&str> = block
            .lines()
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.trim().is_empty())
            .collect();
        let first: Vec<&str> = lines.first().map_or(Vec::new(), |l| l.split(' ').collect());
        let (depth, width) = (first.len(), first.first().map_or(0, |s| s.chars().count()));
        let mut layers = vec![Vec::with_capacity(lines.len()); depth];
        for (r, line) in lines.iter().enumerate() {
            let parts: Vec<&str> = line.split(' ').collect();
            if parts.len() != depth {
                return Err(BlockError::new(
                    r,
                    format!("rows must all have {depth} layer(s)"),
                ));
            }
            for (z, part) in parts.iter().enumerate() {
                if part.chars().count() != width {
                    return Err(BlockError::new(
                        r,
                        format!("layer rows must all be {width} cells wide"),
                    ));
                }
                if let Some(bad) = part.chars().find(|c| c.is_control()) {
                    return Err(BlockError::new(
                        r,
                        format!("control character {bad:?} in a row"),
                    ));
                }
                layers[z].push(part.chars().map(|c| (c != '.').then_some(c)).collect());
            }
        }
        Ok(Solution { layers })
    }

    /// Width, height and depth.
    pub fn size(&self) -> (usize, usize, usize) {
        let layer = self.layers.first();
        (
            layer.and_then(|l| l.first()).map_or(0, Vec::len),
            layer.map_or(0, Vec::len),
            self.layers.len(),
        )
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn layers_parse() {
        let p = Solution::parse("ab. ..c\nab. ddc").unwrap();
        assert_eq!(p.layers.len(), 2);
        assert_eq!(p.layers[1][1], vec![Some('d'), Some('d'), Some('c')]);
        assert_eq!(p.layers[0][0][2], None);
        assert_eq!(p.size(), (3, 2, 2));
        assert_eq!(Solution::parse("ab ab\nab").unwrap_err().line, 1);
    }
}
