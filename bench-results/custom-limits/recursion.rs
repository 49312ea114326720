//! The example's tree (Langford pairings, first free place, numbers
//! rising) as a plain Rust recursion: the loop of `tools/c/langford.c`,
//! line for line. What rustc makes of the C peer's method on this machine.
//! `rustc -O -C target-cpu=x86-64-v2 recursion.rs && ./recursion 12`
use std::time::Instant;

fn walk(n: i32, places: i32, full: u32, taken: u32, placed: u32, count: &mut (u64, u64)) {
    count.0 += 1;
    if taken == full {
        count.1 += 1;
        return;
    }
    let p = (!taken).trailing_zeros() as i32;
    // k's second place, p + k + 1, must lie in the row.
    let last = (places - p - 2).min(n);
    for k in 1..=last {
        let q = p + k + 1;
        if (placed >> k) & 1 == 0 && (taken >> q) & 1 == 0 {
            walk(n, places, full, taken | 1 << p | 1 << q, placed | 1 << k, count);
        }
    }
}

fn main() {
    let n: i32 = std::env::args().nth(1).map_or(12, |a| a.parse().expect("the order"));
    let t = Instant::now();
    let mut count = (0, 0);
    walk(n, 2 * n, (1u32 << (2 * n)) - 1, 0, 0, &mut count);
    println!("{} solutions, {} nodes, {:.3} s", count.1, count.0, t.elapsed().as_secs_f64());
}
