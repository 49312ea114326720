//! Every count of `examples/xc/README.md`, by a reader of Knuth's DLX
//! format and an Algorithm X of this file's own: no code shared with
//! `hysolve_puzzles::xc` (neither its parser nor its structures).
//!
//! The search keeps, for each option, the number of reasons it cannot be
//! chosen now (`blocked`), and for each primary item the number of options
//! that could still cover it (`live`). Choosing an option blocks every
//! other option that shares a primary item with it, or a secondary item
//! without the same colour; the item to branch on is the uncovered primary
//! item with the fewest live options. Undoing runs the same steps backwards.

use std::collections::HashMap;

/// An exact-cover instance as the file states it.
struct Instance {
    /// Items `0..primary` are primary, the rest secondary.
    primary: usize,
    items: usize,
    /// Each option's items, with a colour for a secondary item (0: none).
    options: Vec<Vec<(usize, u32)>>,
}

/// Reads the DLX1/DLX2 text format: `|` starts a comment line; the first
/// other line names the items, primary ones before a lone `|`, secondary
/// ones after it; each later line is an option, whose secondary items may
/// carry a colour as `item:colour`.
fn read(name: &str, text: &str) -> Instance {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('|'));
    let (_, head) = lines
        .next()
        .unwrap_or_else(|| panic!("{name}: no item line"));
    let mut index = HashMap::new();
    let mut primary = None;
    for word in head.split_whitespace() {
        if word == "|" {
            assert!(primary.is_none(), "{name}: two '|' in the item line");
            primary = Some(index.len());
            continue;
        }
        let k = index.len();
        assert!(
            index.insert(word.to_string(), k).is_none(),
            "{name}: item {word} named twice"
        );
    }
    let items = index.len();
    let primary = primary.unwrap_or(items);
    let mut colours: HashMap<String, u32> = HashMap::new();
    let mut options = Vec::new();
    for (line, text) in lines {
        let mut option = Vec::new();
        for word in text.split_whitespace() {
            let (item, colour) = match word.split_once(':') {
                Some((item, c)) => {
                    let next = colours.len() as u32 + 1;
                    (item, *colours.entry(c.to_string()).or_insert(next))
                }
                None => (word, 0),
            };
            let &k = index
                .get(item)
                .unwrap_or_else(|| panic!("{name}:{line}: unknown item {item}"));
            assert!(
                colour == 0 || k >= primary,
                "{name}:{line}: primary item {item} with a colour"
            );
            assert!(
                option.iter().all(|&(j, _)| j != k),
                "{name}:{line}: item {item} twice in one option"
            );
            option.push((k, colour));
        }
        options.push(option);
    }
    Instance {
        primary,
        items,
        options,
    }
}

struct Search<'a> {
    x: &'a Instance,
    /// For each item, the options holding it, with its colour there.
    holders: Vec<Vec<(usize, u32)>>,
    blocked: Vec<u32>,
    live: Vec<u32>,
    covered: Vec<bool>,
    solutions: u64,
}

impl<'a> Search<'a> {
    fn new(x: &'a Instance) -> Self {
        let mut holders = vec![Vec::new(); x.items];
        let mut live = vec![0; x.primary];
        for (o, option) in x.options.iter().enumerate() {
            for &(k, c) in option {
                holders[k].push((o, c));
                if k < x.primary {
                    live[k] += 1;
                }
            }
        }
        Search {
            x,
            holders,
            blocked: vec![0; x.options.len()],
            live,
            covered: vec![false; x.primary],
            solutions: 0,
        }
    }

    /// Whether choosing an option that gives item `k` colour `c` rules out
    /// an option that gives it colour `pc`.
    fn clash(&self, k: usize, c: u32, pc: u32) -> bool {
        k < self.x.primary || c == 0 || pc != c
    }

    fn choose(&mut self, o: usize) {
        let x = self.x;
        for &(k, c) in &x.options[o] {
            for &(p, pc) in &self.holders[k] {
                if p == o || !self.clash(k, c, pc) {
                    continue;
                }
                self.blocked[p] += 1;
                if self.blocked[p] == 1 {
                    for &(j, _) in &x.options[p] {
                        if j < x.primary {
                            self.live[j] -= 1;
                        }
                    }
                }
            }
            if k < x.primary {
                self.covered[k] = true;
            }
        }
    }

    /// `choose(o)` backwards, step by step.
    fn unchoose(&mut self, o: usize) {
        let x = self.x;
        for &(k, c) in x.options[o].iter().rev() {
            if k < x.primary {
                self.covered[k] = false;
            }
            for &(p, pc) in self.holders[k].iter().rev() {
                if p == o || !self.clash(k, c, pc) {
                    continue;
                }
                self.blocked[p] -= 1;
                if self.blocked[p] == 0 {
                    for &(j, _) in &x.options[p] {
                        if j < x.primary {
                            self.live[j] += 1;
                        }
                    }
                }
            }
        }
    }

    fn walk(&mut self) {
        // The uncovered primary item with the fewest live options.
        let best = (0..self.x.primary)
            .filter(|&k| !self.covered[k])
            .min_by_key(|&k| self.live[k]);
        let Some(item) = best else {
            self.solutions += 1;
            return;
        };
        if self.live[item] == 0 {
            return;
        }
        for i in 0..self.holders[item].len() {
            let o = self.holders[item][i].0;
            if self.blocked[o] != 0 {
                continue;
            }
            self.choose(o);
            self.walk();
            self.unchoose(o);
        }
    }
}

fn count_file(file: &str) -> u64 {
    let path = crate::common::root().join("examples/xc").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let x = read(file, &text);
    let mut s = Search::new(&x);
    s.walk();
    assert!(
        s.blocked.iter().all(|&b| b == 0),
        "{file}: undo left options blocked"
    );
    s.solutions
}

/// The counts and their sources as `examples/xc/README.md` gives them.
#[test]
fn every_example_counts_as_its_readme_says() {
    let want = [
        ("colours.xc", 3),              // listed in the file
        ("sudoku.xc", 1),               // a unique puzzle
        ("queens-13.xc", 73_712),       // OEIS A000170
        ("langford-12.xc", 216_288),    // OEIS A014552: 2 x 108,144
        ("pentominoes-6x10.xc", 9_356), // Haselgrove 1960: 4 x 2,339
        ("soma.xc", 11_520),            // Conway and Guy 1961: 48 x 240
    ];
    for (file, n) in want {
        let t = std::time::Instant::now();
        assert_eq!(count_file(file), n, "{file}");
        eprintln!("{file}: {n} in {:.2} s", t.elapsed().as_secs_f64());
    }
    let readme =
        std::fs::read_to_string(crate::common::root().join("examples/xc/README.md")).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(crate::common::root().join("examples/xc"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".xc"))
        .collect();
    files.sort();
    for f in &files {
        assert!(
            want.iter().any(|(w, _)| w == f),
            "{f} is in examples/xc but not checked here"
        );
        assert!(
            readme.contains(&format!("`{f}`")),
            "{f} is not in the README's table"
        );
    }
}

#[test]
fn colours_are_read_and_honoured() {
    // x may be shared only by options that give it one colour.
    let text = "a b | x\na x:red\nb x:red\nb x:blue\n";
    let x = read("inline", text);
    assert_eq!((x.primary, x.items), (2, 3));
    let mut s = Search::new(&x);
    s.walk();
    assert_eq!(s.solutions, 1);
    // Without colours, the same options exclude each other.
    let x = read("inline", "a b | x\na x\nb x\nb\n");
    let mut s = Search::new(&x);
    s.walk();
    assert_eq!(s.solutions, 1);
}
