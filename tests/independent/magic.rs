//! Completions of partly filled normal magic squares, counted by a plain
//! search by lines as sets: every row and every column holds a set of n
//! numbers summing to the magic constant, and a row and a column share
//! exactly one number, their cell. So the numbers are first split into
//! ordered row sets (each holding its row's givens and no other given),
//! then into ordered column sets that meet every row once (each holding its
//! column's givens); the diagonals are checked last.

use std::path::Path;

struct Square {
    n: usize,
    sum: u32,
    /// Given numbers row by row, 0 for a blank.
    given: Vec<u32>,
}

impl Square {
    fn parse(text: &str) -> Square {
        let rows: Vec<Vec<i64>> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
            .collect();
        let n = rows.len();
        assert!(n * n < 64, "up to 7x7");
        assert!(rows.iter().all(|r| r.len() == n));
        Square {
            n,
            sum: (n * (n * n + 1) / 2) as u32,
            given: rows.iter().flatten().map(|&v| v.max(0) as u32).collect(),
        }
    }

    /// Every set of n numbers of 1..=n^2 (bit v: number v) that sums to the constant.
    fn line_sets(&self) -> Vec<u64> {
        let mut out = Vec::new();
        let top = (self.n * self.n) as u32;
        let mut stack = vec![(1u32, 0u64, 0usize, 0u32)];
        while let Some((from, set, k, s)) = stack.pop() {
            if k == self.n {
                if s == self.sum {
                    out.push(set);
                }
                continue;
            }
            for v in from..=top {
                if s + v <= self.sum {
                    stack.push((v + 1, set | 1 << v, k + 1, s + v));
                }
            }
        }
        out
    }

    fn count(&self) -> u64 {
        let n = self.n;
        let givens: u64 = self.given.iter().filter(|&&v| v > 0).fold(0, |m, &v| m | 1 << v);
        if givens.count_ones() as usize != self.given.iter().filter(|&&v| v > 0).count() {
            return 0; // a number given twice
        }
        let sets = self.line_sets();
        let per_row: Vec<Vec<u64>> = (0..n)
            .map(|r| {
                let mine = self.given[r * n..(r + 1) * n]
                    .iter()
                    .filter(|&&v| v > 0)
                    .fold(0u64, |m, &v| m | 1 << v);
                sets.iter()
                    .copied()
                    .filter(|&s| s & mine == mine && s & (givens & !mine) == 0)
                    .collect()
            })
            .collect();
        let mut rows = vec![0u64; n];
        self.split(&sets, &per_row, 0, 0, &mut rows)
    }

    /// Chooses disjoint row sets from row `r` on, then counts the squares with those rows.
    fn split(&self, sets: &[u64], per_row: &[Vec<u64>], r: usize, used: u64, rows: &mut [u64]) -> u64 {
        if r == self.n {
            // A column holds one number of each row: a square is an ordered
            // choice of n disjoint such column sets, cell (i, j) the one
            // number that row i and column j share.
            let across: Vec<u64> = sets
                .iter()
                .copied()
                .filter(|&s| rows.iter().all(|&row| (s & row).count_ones() == 1))
                .collect();
            let mut cols = vec![0u64; self.n];
            return self.columns(rows, &across, 0, 0, &mut cols);
        }
        let mut total = 0;
        for &s in &per_row[r] {
            if s & used == 0 {
                rows[r] = s;
                total += self.split(sets, per_row, r + 1, used | s, rows);
            }
        }
        total
    }

    fn columns(&self, rows: &[u64], across: &[u64], c: usize, used: u64, cols: &mut [u64]) -> u64 {
        let n = self.n;
        if c == n {
            let cell = |i: usize, j: usize| (rows[i] & cols[j]).trailing_zeros();
            let d1: u32 = (0..n).map(|i| cell(i, i)).sum();
            let d2: u32 = (0..n).map(|i| cell(i, n - 1 - i)).sum();
            return u64::from(d1 == self.sum && d2 == self.sum);
        }
        let mine = (0..n)
            .map(|r| self.given[r * n + c])
            .filter(|&v| v > 0)
            .fold(0u64, |m, v| m | 1 << v);
        let mut total = 0;
        for &s in across {
            if s & used == 0 && s & mine == mine {
                cols[c] = s;
                total += self.columns(rows, across, c + 1, used | s, cols);
            }
        }
        total
    }
}

fn completions(text: &str) -> u64 {
    Square::parse(text).count()
}

#[test]
fn every_magic_count_in_the_data() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/magic");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "count") {
            let expected: u64 = std::fs::read_to_string(&path).unwrap().trim().parse().unwrap();
            let text = std::fs::read_to_string(path.with_extension("txt")).unwrap();
            let t = std::time::Instant::now();
            assert_eq!(completions(&text), expected, "{}", path.display());
            eprintln!("{}: {expected} in {:?}", path.display(), t.elapsed());
            checked += 1;
        }
    }
    assert_eq!(checked, 9);
}

#[test]
fn small_orders() {
    assert_eq!(completions("-1 -1 -1\n-1 -1 -1\n-1 -1 -1\n"), 8);
    assert_eq!(completions("-1 -1\n-1 -1\n"), 0);
    assert_eq!(completions("2 7 6\n9 5 1\n4 3 8\n"), 1);
    assert_eq!(completions("2 7 6\n9 5 1\n4 8 3\n"), 0);
}
