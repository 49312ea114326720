//! A simple undirected graph as rows of bits: row `v` has bit `u` set when
//! `u` and `v` are adjacent. What the colouring bound and the candidate
//! sets of the search are made of.

/// Vertices a graph may have: its adjacency matrix takes `n² / 8` bytes
/// (128 MiB at this size), which the search's bitsets need in memory.
pub const MAX_VERTICES: usize = 1 << 15;

/// An undirected graph without loops on vertices `0..n`, as an adjacency
/// matrix of bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    n: usize,
    /// 64-bit words per row.
    words: usize,
    rows: Vec<u64>,
}

impl Graph {
    /// The graph on `n` vertices with no edge (`n` at most
    /// [`MAX_VERTICES`]).
    pub fn new(n: usize) -> Graph {
        assert!(
            n <= MAX_VERTICES,
            "a graph of at most {MAX_VERTICES} vertices"
        );
        let words = n.div_ceil(64).max(1);
        Graph {
            n,
            words,
            rows: vec![0; n * words],
        }
    }

    /// Its vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether it has no vertex.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// 64-bit words in a row (a set of vertices).
    pub fn words(&self) -> usize {
        self.words
    }

    /// Joins `u` and `v` (two different vertices). Returns whether the
    /// edge is new.
    pub fn add_edge(&mut self, u: usize, v: usize) -> bool {
        assert!(
            u != v && u < self.n && v < self.n,
            "an edge between two vertices"
        );
        let new = !self.adjacent(u, v);
        self.rows[u * self.words + v / 64] |= 1 << (v % 64);
        self.rows[v * self.words + u / 64] |= 1 << (u % 64);
        new
    }

    /// Whether `u` and `v` are adjacent.
    #[inline]
    pub fn adjacent(&self, u: usize, v: usize) -> bool {
        self.rows[u * self.words + v / 64] >> (v % 64) & 1 == 1
    }

    /// The neighbours of `v`, as a row of bits.
    #[inline]
    pub fn row(&self, v: usize) -> &[u64] {
        &self.rows[v * self.words..(v + 1) * self.words]
    }

    /// The neighbours of `v`, in increasing order.
    pub fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        self.row(v).iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + b
                })
            })
        })
    }

    /// How many neighbours `v` has.
    pub fn degree(&self, v: usize) -> usize {
        self.row(v).iter().map(|w| w.count_ones() as usize).sum()
    }

    /// How many edges it has.
    pub fn edges(&self) -> usize {
        (0..self.n).map(|v| self.degree(v)).sum::<usize>() / 2
    }

    /// Its edges `(u, v)` with `u < v`, in order.
    pub fn edge_list(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n).flat_map(move |u| {
            (u + 1..self.n)
                .filter(move |&v| self.adjacent(u, v))
                .map(move |v| (u, v))
        })
    }

    /// The edge density: edges over pairs of vertices.
    pub fn density(&self) -> f64 {
        let pairs = self.n * self.n.saturating_sub(1) / 2;
        if pairs == 0 {
            0.0
        } else {
            self.edges() as f64 / pairs as f64
        }
    }

    /// The graph with its vertices renumbered: vertex `order[i]` of this
    /// graph is vertex `i` of the new one (`order` a permutation).
    pub fn renumbered(&self, order: &[usize]) -> Graph {
        self.induced(order)
    }

    /// The subgraph induced by `vertices`, numbered in their order.
    pub fn induced(&self, vertices: &[usize]) -> Graph {
        let mut g = Graph::new(vertices.len());
        for (i, &u) in vertices.iter().enumerate() {
            for (j, &v) in vertices.iter().enumerate().skip(i + 1) {
                if self.adjacent(u, v) {
                    g.add_edge(i, j);
                }
            }
        }
        g
    }

    /// Whether `vertices` are pairwise adjacent (and distinct).
    pub fn is_clique(&self, vertices: &[usize]) -> bool {
        vertices.iter().enumerate().all(|(i, &u)| {
            u < self.n
                && vertices[i + 1..]
                    .iter()
                    .all(|&v| v < self.n && u != v && self.adjacent(u, v))
        })
    }

    /// The graph in DIMACS format (`p edge V E`, then `e U V` counted from 1),
    /// after `comments` as `c` lines.
    pub fn to_dimacs(&self, comments: &[String]) -> String {
        let mut out = String::new();
        for c in comments {
            out.push_str("c ");
            out.push_str(c);
            out.push('\n');
        }
        out.push_str(&format!("p edge {} {}\n", self.n, self.edges()));
        for (u, v) in self.edge_list() {
            out.push_str(&format!("e {} {}\n", u + 1, v + 1));
        }
        out
    }

    /// A degeneracy order: the vertex of least degree among those left
    /// (the lowest of a tie) goes last, and is taken out, until none is
    /// left. Read from the front, every vertex has few neighbours after
    /// it: the order in which colouring branch and bound colours (the
    /// dense core first) and branches (from the back).
    pub fn degeneracy_order(&self) -> Vec<usize> {
        let n = self.n;
        let mut degree: Vec<usize> = (0..n).map(|v| self.degree(v)).collect();
        let mut left = vec![true; n];
        let mut order = vec![0; n];
        for slot in (0..n).rev() {
            let v = (0..n)
                .filter(|&v| left[v])
                .min_by_key(|&v| (degree[v], v))
                .expect("a vertex is left");
            left[v] = false;
            order[slot] = v;
            for u in 0..n {
                if left[u] && self.adjacent(u, v) {
                    degree[u] -= 1;
                }
            }
        }
        order
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn edges_rows_and_cliques() {
        let mut g = Graph::new(70);
        assert!(g.add_edge(0, 69));
        assert!(!g.add_edge(69, 0));
        g.add_edge(0, 5);
        g.add_edge(5, 69);
        assert!(g.adjacent(69, 0) && !g.adjacent(1, 2));
        assert_eq!((g.degree(0), g.edges()), (2, 3));
        assert!(g.is_clique(&[0, 5, 69]) && !g.is_clique(&[0, 5, 1]) && !g.is_clique(&[0, 0]));
        assert_eq!(
            g.edge_list().collect::<Vec<_>>(),
            [(0, 5), (0, 69), (5, 69)]
        );
        let h = g.induced(&[69, 5, 0]);
        assert!(h.is_clique(&[0, 1, 2]));
        assert_eq!(g.to_dimacs(&[]).lines().next(), Some("p edge 70 3"));
    }

    #[test]
    fn a_degeneracy_order_puts_the_core_first() {
        // A triangle 0-1-2 with a pendant path 2-3-4.
        let mut g = Graph::new(5);
        for (u, v) in [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4)] {
            g.add_edge(u, v);
        }
        let order = g.degeneracy_order();
        assert_eq!(order[4], 4, "the leaf goes last");
        assert_eq!(order[3], 3);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, [0, 1, 2, 3, 4]);
    }
}
