//! Completions of partly filled normal magic squares, counted by a plain
//! search by lines as sets. Every row holds a set of n numbers summing to
//! the magic constant, so the numbers are first split into ordered row sets
//! (each holding its row's givens, drawn from the numbers not given
//! elsewhere); for each split, every column's possible contents are listed
//! (its givens where they stand, in each other row one of that row's free
//! numbers, summing to the constant), columns are chosen so that no number
//! is used twice, and the diagonals are checked last.

/// A set of numbers 1..=121: bit v for number v.
type Set = u128;
/// A column's numbers, top to bottom.
type Column = [u32; 11];

struct Square {
    n: usize,
    sum: u32,
    /// Given numbers row by row, 0 for a blank.
    given: Vec<u32>,
}

fn numbers(mut set: Set) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let v = set.trailing_zeros();
            set &= set - 1;
            v
        })
    })
}

impl Square {
    fn parse(text: &str) -> Square {
        let rows: Vec<Vec<i64>> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
            .collect();
        let n = rows.len();
        assert!(n * n < 128, "up to 11x11");
        assert!(rows.iter().all(|r| r.len() == n));
        Square {
            n,
            sum: (n * (n * n + 1) / 2) as u32,
            given: rows.iter().flatten().map(|&v| v.max(0) as u32).collect(),
        }
    }

    fn givens_of_row(&self, r: usize) -> Set {
        let n = self.n;
        self.given[r * n..(r + 1) * n]
            .iter()
            .filter(|&&v| v > 0)
            .fold(0, |m, &v| m | 1 << v)
    }

    /// Every set of n numbers from `pool` that holds `must` and sums to the constant.
    fn line_sets(&self, pool: Set, must: Set) -> Vec<Set> {
        let pool: Vec<u32> = numbers(pool).collect();
        let mut out = Vec::new();
        let mut stack = vec![(0usize, 0 as Set, 0usize, 0u32)];
        while let Some((from, set, k, s)) = stack.pop() {
            if k == self.n {
                if s == self.sum && set & must == must {
                    out.push(set);
                }
                continue;
            }
            for (i, &v) in pool.iter().enumerate().skip(from) {
                if s + v > self.sum {
                    break;
                }
                stack.push((i + 1, set | 1 << v, k + 1, s + v));
            }
        }
        out
    }

    fn count(&self) -> u64 {
        let n = self.n;
        let given: Set = self
            .given
            .iter()
            .filter(|&&v| v > 0)
            .fold(0, |m, &v| m | 1 << v);
        if given.count_ones() as usize != self.given.iter().filter(|&&v| v > 0).count()
            || self.given.iter().any(|&v| v as usize > n * n)
        {
            return 0; // a number given twice, or out of range
        }
        let free: Set = (1..=n * n).fold(0, |m, v| m | 1 << v) & !given;
        let per_row: Vec<Vec<Set>> = (0..n)
            .map(|r| {
                let mine = self.givens_of_row(r);
                self.line_sets(free | mine, mine)
            })
            .collect();
        let mut rows = vec![0; n];
        self.split(&per_row, 0, 0, &mut rows)
    }

    /// Chooses disjoint row sets from row `r` on, then counts the squares with those rows.
    fn split(&self, per_row: &[Vec<Set>], r: usize, used: Set, rows: &mut [Set]) -> u64 {
        if r == self.n {
            let options: Vec<Vec<(Set, Column)>> =
                (0..self.n).map(|c| self.column_options(rows, c)).collect();
            let mut chosen: Vec<&Column> = Vec::with_capacity(self.n);
            return self.columns(&options, 0, &mut chosen);
        }
        let mut total = 0;
        for &s in &per_row[r] {
            if s & used == 0 {
                rows[r] = s;
                total += self.split(per_row, r + 1, used | s, rows);
            }
        }
        total
    }

    /// The ways to fill column `c`: (its free numbers, its numbers top to bottom).
    fn column_options(&self, rows: &[Set], c: usize) -> Vec<(Set, Column)> {
        let n = self.n;
        let free: Vec<Set> = (0..n).map(|r| rows[r] & !self.givens_of_row(r)).collect();
        let last_blank = (0..n).rev().find(|&r| self.given[r * n + c] == 0);
        let mut out = Vec::new();
        let mut stack = vec![(0usize, 0 as Set, [0u32; 11], 0u32)];
        while let Some((r, set, vals, s)) = stack.pop() {
            if r == n {
                if s == self.sum {
                    out.push((set, vals));
                }
                continue;
            }
            let g = self.given[r * n + c];
            let choices: Set = if g != 0 {
                1 << g
            } else if Some(r) == last_blank {
                let rest: u32 = (r + 1..n).map(|b| self.given[b * n + c]).sum();
                match self.sum.checked_sub(s + rest) {
                    Some(v) if v < 128 && free[r] >> v & 1 == 1 => 1 << v,
                    _ => continue,
                }
            } else {
                free[r]
            };
            for v in numbers(choices) {
                if s + v <= self.sum {
                    let mut vals = vals;
                    vals[r] = v;
                    let set = if g != 0 { set } else { set | 1 << v };
                    stack.push((r + 1, set, vals, s + v));
                }
            }
        }
        out
    }

    /// Chooses column `c` onwards among `options`, no free number twice.
    fn columns<'a>(
        &self,
        options: &'a [Vec<(Set, Column)>],
        used: Set,
        chosen: &mut Vec<&'a Column>,
    ) -> u64 {
        let n = self.n;
        let c = chosen.len();
        if c == n {
            let d1: u32 = (0..n).map(|i| chosen[i][i]).sum();
            let d2: u32 = (0..n).map(|i| chosen[n - 1 - i][i]).sum();
            return u64::from(d1 == self.sum && d2 == self.sum);
        }
        let mut total = 0;
        for (set, vals) in &options[c] {
            if set & used == 0 {
                chosen.push(vals);
                total += self.columns(options, used | set, chosen);
                chosen.pop();
            }
        }
        total
    }
}

pub fn completions(text: &str) -> u64 {
    Square::parse(text).count()
}

#[test]
fn every_magic_count_in_the_data() {
    let dir = crate::common::root().join("examples/magic");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "count") {
            let expected: u64 = std::fs::read_to_string(&path)
                .unwrap()
                .trim()
                .parse()
                .unwrap();
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

/// The 6x6 and 8x8 squares of the solver's unit test
/// (`problems::magic::tests::in_place_count_agrees_with_the_generic_walk`)
/// with their middle rows blanked: 2 and 179 completions.
#[test]
fn six_and_eight() {
    let six = "18 15 22 14 29 13\n-1 -1 -1 -1 -1 -1\n-1 -1 -1 -1 -1 -1\n-1 -1 -1 -1 -1 -1\n 1 25  3 34 16 32\n31  5 35  9 10 21";
    let eight = "24 35 29 36 28 27 40 41\n53 32 54 18 52 5 42 4\n-1 -1 -1 -1 -1 -1 -1 -1\n-1 -1 -1 -1 -1 -1 -1 -1\n-1 -1 -1 -1 -1 -1 -1 -1\n50 23 2 48 55 30 51 1\n7 22 9 49 11 62 39 61\n45 59 64 15 13 17 10 37";
    assert_eq!(completions(six), 2);
    assert_eq!(completions(eight), 179);
}
