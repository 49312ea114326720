//! Orientations of pieces and symmetries of figures: the 48 signed
//! permutations of the three axes.

use super::pieces::Cell;

/// A linear map of the grid: axis k of the image is `sign[k]` times axis
/// `perm[k]` of the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Transform {
    pub perm: [usize; 3],
    pub sign: [i32; 3],
}

impl Transform {
    /// All 48 signed permutations, the identity first.
    pub(crate) fn all() -> Vec<Transform> {
        let perms = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        let mut out = Vec::with_capacity(48);
        for perm in perms {
            for bits in 0..8 {
                let sign = [0, 1, 2].map(|k| if bits >> k & 1 == 1 { -1 } else { 1 });
                out.push(Transform { perm, sign });
            }
        }
        out
    }

    /// Whether the map is a rotation (determinant +1).
    pub(crate) fn is_rotation(&self) -> bool {
        let p = self.perm;
        let inversions = (p[0] > p[1]) as i32 + (p[0] > p[2]) as i32 + (p[1] > p[2]) as i32;
        let parity = if inversions % 2 == 0 { 1 } else { -1 };
        parity * self.sign.iter().product::<i32>() == 1
    }

    /// Whether the map keeps the z axis where it is (a map of the plane).
    pub(crate) fn is_planar(&self) -> bool {
        self.perm[2] == 2 && self.sign[2] == 1
    }

    #[inline]
    pub(crate) fn apply(&self, c: Cell) -> Cell {
        [0, 1, 2].map(|k| self.sign[k] * c[self.perm[k]])
    }
}

/// Translates cells so each coordinate starts at 0, and sorts them.
pub(crate) fn normalize(cells: &[Cell]) -> Vec<Cell> {
    let min = [0, 1, 2].map(|k| cells.iter().map(|c| c[k]).min().unwrap_or(0));
    let mut out: Vec<Cell> = cells
        .iter()
        .map(|c| [c[0] - min[0], c[1] - min[1], c[2] - min[2]])
        .collect();
    out.sort_unstable();
    out
}

/// The maps a piece may be moved by: the 24 rotations for 3D sets; for 2D
/// sets the 8 maps of the plane (turning a flat piece over is a rotation in
/// space).
pub(crate) fn piece_maps(three_d: bool) -> Vec<Transform> {
    Transform::all()
        .into_iter()
        .filter(|t| {
            if three_d {
                t.is_rotation()
            } else {
                t.is_planar()
            }
        })
        .collect()
}

/// The distinct orientations of a piece, normalized, in a fixed order.
pub(crate) fn orientations(cells: &[Cell], three_d: bool) -> Vec<Vec<Cell>> {
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for t in piece_maps(three_d) {
        let shape = normalize(&cells.iter().map(|&c| t.apply(c)).collect::<Vec<_>>());
        if !out.contains(&shape) {
            out.push(shape);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_maps_and_orientations() {
        assert_eq!(Transform::all().len(), 48);
        assert_eq!(
            Transform::all().iter().filter(|t| t.is_rotation()).count(),
            24
        );
        assert_eq!(piece_maps(false).len(), 8);
        // Pentominoes: F has 8 orientations, X one, I two.
        let f = [[1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [1, 2, 0]];
        let x = [[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 2, 0]];
        let i = [[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 3, 0], [0, 4, 0]];
        assert_eq!(orientations(&f, false).len(), 8);
        assert_eq!(orientations(&x, false).len(), 1);
        assert_eq!(orientations(&i, false).len(), 2);
        // Soma: the L tetracube has 24 rotations, the V tricube 12.
        let l = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]];
        let v = [[0, 0, 0], [1, 0, 0], [0, 1, 0]];
        assert_eq!(orientations(&l, true).len(), 24);
        assert_eq!(orientations(&v, true).len(), 12);
    }
}
