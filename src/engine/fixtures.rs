//! Trees the engine's unit tests walk.

use super::problem::Tree;

/// A path of `len` nodes: every level holds one.
pub(super) struct Path {
    pub(super) len: u32,
}

impl Tree for Path {
    type Node = u32;
    fn name(&self) -> &'static str {
        "path"
    }
    fn instance(&self) -> String {
        self.len.to_string()
    }
    fn root(&self) -> u32 {
        0
    }
    fn children(&self, &d: &u32, out: &mut Vec<u32>) {
        if d + 1 < self.len {
            out.push(d + 1);
        }
    }
    fn solution_weight(&self, &d: &u32) -> u64 {
        u64::from(d + 1 == self.len)
    }
    fn render(&self, d: &u32, out: &mut String) {
        out.push_str(&d.to_string());
    }
}
