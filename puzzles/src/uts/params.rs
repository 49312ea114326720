//! A UTS tree's parameters: the reference implementation's command-line
//! parameters with its defaults, the published trees by name, and checks.

use crate::PuzzleError;

/// How the number of children is drawn (`-t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `m` children with probability `q`, else none; the root has `b`.
    Binomial,
    /// A geometric draw whose mean follows the depth as `a` says.
    Geometric,
    /// Geometric above depth `f * d`, binomial below.
    Hybrid,
    /// `b` children down to depth `d`.
    Balanced,
}

/// How a geometric tree's mean branching factor changes with depth (`-a`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decay {
    /// Linear decrease with depth.
    Linear,
    /// Exponential decrease with depth.
    Exponential,
    /// Cyclic with depth.
    Cyclic,
    /// Fixed until the depth limit.
    Fixed,
}

/// The parameters of a tree, as the reference names them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// How a geometric tree's branching factor changes with depth.
    pub shape: Shape,
    /// `-b`: the root's branching factor.
    pub b: f64,
    /// `-r`: the root's seed.
    pub r: u32,
    /// How a binomial tree's probabilities decay.
    pub decay: Decay,
    /// `-d`: the depth that shapes a geometric tree.
    pub d: u32,
    /// `-q`, `-m`: a binomial node has `m` children with probability `q`.
    pub q: f64,
    /// Binomial: children of a node that has any (`-m`).
    pub m: u32,
    /// `-f`: where a hybrid tree turns binomial, as a fraction of `d`.
    pub f: f64,
}

impl Default for Params {
    /// The reference's defaults.
    fn default() -> Self {
        Params {
            shape: Shape::Geometric,
            b: 4.0,
            r: 0,
            decay: Decay::Linear,
            d: 6,
            q: 15.0 / 64.0,
            m: 4,
            f: 0.5,
        }
    }
}

/// A published tree: its name, parameters and counts.
#[derive(Debug)]
pub struct Published {
    /// Its name (`T1L`).
    pub name: &'static str,
    /// Its parameters, in the reference's syntax.
    pub args: &'static str,
    /// Nodes in the tree.
    pub nodes: u64,
    /// Its depth.
    pub depth: u64,
    /// Its leaves.
    pub leaves: u64,
}

/// The published trees (Olivier et al., LCPC 2006, and the UTS
/// distribution's sample trees).
pub const PUBLISHED: [Published; 6] = [
    Published {
        name: "T1",
        args: "-t 1 -a 3 -d 10 -b 4 -r 19",
        nodes: 4_130_071,
        depth: 10,
        leaves: 3_305_118,
    },
    Published {
        name: "T2",
        args: "-t 1 -a 2 -d 16 -b 6 -r 502",
        nodes: 4_117_769,
        depth: 81,
        leaves: 2_342_762,
    },
    Published {
        name: "T3",
        args: "-t 0 -b 2000 -q 0.124875 -m 8 -r 42",
        nodes: 4_112_897,
        depth: 1_572,
        leaves: 3_599_034,
    },
    Published {
        name: "T1L",
        args: "-t 1 -a 3 -d 13 -b 4 -r 29",
        nodes: 102_181_082,
        depth: 13,
        leaves: 81_746_377,
    },
    Published {
        name: "T3L",
        args: "-t 0 -b 2000 -q 0.200014 -m 5 -r 7",
        nodes: 111_345_631,
        depth: 17_844,
        leaves: 89_076_904,
    },
    Published {
        name: "T1XL",
        args: "-t 1 -a 3 -d 15 -b 4 -r 29",
        nodes: 1_635_119_272,
        depth: 15,
        leaves: 1_308_100_063,
    },
];

impl Params {
    /// The parameters of a published tree, by name (any case).
    pub fn named(name: &str) -> Result<(Params, &'static Published), PuzzleError> {
        let tree = PUBLISHED
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<&str> = PUBLISHED.iter().map(|t| t.name).collect();
                PuzzleError::Argument(format!(
                    "uts: no published tree '{name}' (known: {})",
                    names.join(", ")
                ))
            })?;
        let mut p = Params::default();
        let words: Vec<&str> = tree.args.split_whitespace().collect();
        for pair in words.chunks(2) {
            p.set(pair[0].trim_start_matches('-'), pair[1])?;
        }
        Ok((p, tree))
    }

    /// Sets parameter `flag` (`t`, `b`, ...) from its text.
    pub fn set(&mut self, flag: &str, value: &str) -> Result<(), PuzzleError> {
        let bad =
            |what: &str| PuzzleError::Argument(format!("uts: -{flag} {value}: expected {what}"));
        let real = || value.parse::<f64>().ok().filter(|v| v.is_finite());
        match flag {
            "t" => {
                self.shape = match value {
                    "0" => Shape::Binomial,
                    "1" => Shape::Geometric,
                    "2" => Shape::Hybrid,
                    "3" => Shape::Balanced,
                    _ => {
                        return Err(bad(
                            "0 (binomial), 1 (geometric), 2 (hybrid) or 3 (balanced)",
                        ));
                    }
                }
            }
            "a" => {
                self.decay = match value {
                    "0" => Decay::Linear,
                    "1" => Decay::Exponential,
                    "2" => Decay::Cyclic,
                    "3" => Decay::Fixed,
                    _ => return Err(bad("0 (linear), 1 (exponential), 2 (cyclic) or 3 (fixed)")),
                }
            }
            "b" => {
                self.b = real()
                    .filter(|&v| v > 0.0)
                    .ok_or_else(|| bad("a number above 0"))?
            }
            "r" => {
                self.r = value
                    .parse()
                    .map_err(|_| bad("a seed from 0 to 4294967295"))?
            }
            "d" => {
                self.d = value
                    .parse()
                    .map_err(|_| bad("a whole depth of 0 or more"))?
            }
            "q" => {
                self.q = real()
                    .filter(|v| (0.0..=1.0).contains(v))
                    .ok_or_else(|| bad("a probability from 0 to 1"))?
            }
            "m" => {
                self.m = value
                    .parse()
                    .ok()
                    .filter(|&m| (1..=100).contains(&m))
                    .ok_or_else(|| bad("a whole number of children from 1 to 100"))?
            }
            "f" => {
                self.f = real()
                    .filter(|v| (0.0..=1.0).contains(v))
                    .ok_or_else(|| bad("a fraction from 0 to 1"))?
            }
            _ => return Err(PuzzleError::Argument(format!("uts: no parameter -{flag}"))),
        }
        Ok(())
    }

    /// Checks the combination; returns a warning for a binomial tree that
    /// may never end.
    pub fn check(&self) -> Result<Option<String>, PuzzleError> {
        let geometric = matches!(self.shape, Shape::Geometric | Shape::Hybrid);
        if geometric && self.decay == Decay::Exponential && self.d < 2 {
            return Err(PuzzleError::Argument(
                "uts: -a 1 (exponential decrease) needs -d 2 or more".into(),
            ));
        }
        if geometric && self.d == 0 && self.decay != Decay::Fixed {
            return Err(PuzzleError::Argument(format!(
                "uts: -d 0 makes no geometric tree with -a {}",
                self.decay as u8
            )));
        }
        let binomial = matches!(self.shape, Shape::Binomial | Shape::Hybrid);
        let mean = self.q * f64::from(self.m);
        if binomial && mean >= 1.0 {
            return Ok(Some(format!(
                "uts: q*m = {mean} >= 1: each binomial node expects {mean} children, so the \
                 tree's expected size is infinite and the search may never end"
            )));
        }
        Ok(None)
    }

    /// The expected number of nodes of a binomial tree: the root, its
    /// `b` children, and each child's subtree of 1 / (1 - qm) nodes.
    pub fn expected_binomial_nodes(&self) -> Option<f64> {
        let mean = self.q * f64::from(self.m);
        (self.shape == Shape::Binomial && mean < 1.0).then(|| 1.0 + self.b.floor() / (1.0 - mean))
    }

    /// The parameters in the reference's syntax.
    pub fn describe(&self) -> String {
        let mut s = format!("-t {} -b {} -r {}", self.shape as u8, self.b, self.r);
        if matches!(self.shape, Shape::Geometric | Shape::Hybrid) {
            s += &format!(" -a {} -d {}", self.decay as u8, self.d);
        }
        if self.shape == Shape::Balanced {
            s += &format!(" -d {}", self.d);
        }
        if matches!(self.shape, Shape::Binomial | Shape::Hybrid) {
            s += &format!(" -q {} -m {}", self.q, self.m);
        }
        if self.shape == Shape::Hybrid {
            s += &format!(" -f {}", self.f);
        }
        s
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn named_trees_and_bad_parameters() {
        let (t3, _) = Params::named("t3").unwrap();
        assert_eq!(t3.shape, Shape::Binomial);
        assert_eq!((t3.b, t3.q, t3.m, t3.r), (2000.0, 0.124875, 8, 42));
        assert_eq!(t3.describe(), "-t 0 -b 2000 -r 42 -q 0.124875 -m 8");
        assert!(Params::named("T9").unwrap_err().to_string().contains("T1L"));
        let mut p = Params::default();
        assert!(p.set("q", "-0.5").is_err());
        assert!(p.set("m", "0").is_err());
        assert!(p.set("t", "7").is_err());
        assert!(p.set("b", "nan").is_err());
        p.set("t", "0").unwrap();
        p.set("q", "0.5").unwrap();
        p.set("m", "2").unwrap();
        assert!(p.check().unwrap().unwrap().contains("may never end"));
        p.set("q", "0.25").unwrap();
        assert_eq!(p.check().unwrap(), None);
        assert_eq!(p.expected_binomial_nodes(), Some(1.0 + 4.0 / 0.5));
    }
}
