//! The example's tree walked as the engine walks any tree, written for
//! this one problem alone: an explicit stack of levels (a level: the first
//! free place, the next number to try, the largest that fits, the moves
//! given, the move taken), the state moved by apply and undo, a look at
//! the context every 16 nodes. No trait, no pool, no split: the least a
//! walk that can hand its unexplored siblings to another worker costs.
//! `rustc -O -C target-cpu=x86-64-v2 stack.rs && ./stack 12`
use std::time::Instant;

#[derive(Clone, Copy)]
struct Level {
    p: u8,
    k: u8,
    last: u8,
    given: u32,
    taken_p: u8,
    taken_k: u8,
}

#[inline(never)]
fn walk(n: u32) -> (u64, u64) {
    let places = 2 * n;
    let (mut taken, mut placed) = (0u32, 0u32);
    let (mut nodes, mut solutions) = (1u64, 0u64);
    let mut stack: Vec<Level> = Vec::with_capacity(64);
    let level = |taken: u32| {
        let p = taken.trailing_ones();
        let last = n.min(places.saturating_sub(p + 2));
        Level { p: p as u8, k: 1, last: last as u8, given: 0, taken_p: 0, taken_k: 0 }
    };
    let mut cur = level(taken);
    let mut look_at = 0u64;
    loop {
        if nodes >= look_at {
            look_at = nodes + 16;
            // The context's stop flag, read as the engine reads it.
            if std::hint::black_box(false) {
                break;
            }
        }
        let mut next = None;
        while cur.k <= cur.last {
            let (p, k) = (cur.p, cur.k);
            cur.k += 1;
            if placed & (1 << k) != 0 || taken & (1 << (p + k + 1)) != 0 {
                continue;
            }
            next = Some((p, k));
            break;
        }
        let Some((p, k)) = next else {
            let Some(up) = stack.pop() else { break };
            cur = up;
            taken &= !(1u32 << cur.taken_p | 1 << (cur.taken_p + cur.taken_k + 1));
            placed &= !(1 << cur.taken_k);
            continue;
        };
        cur.given += 1;
        taken |= 1 << p | 1 << (p + k + 1);
        placed |= 1 << k;
        nodes += 1;
        solutions += u64::from(taken.count_ones() == places);
        cur.taken_p = p;
        cur.taken_k = k;
        stack.push(std::mem::replace(&mut cur, level(taken)));
    }
    (nodes, solutions)
}

fn main() {
    let n: u32 = std::env::args().nth(1).map_or(12, |a| a.parse().expect("the order"));
    let t = Instant::now();
    let (nodes, solutions) = walk(n);
    println!("{solutions} solutions, {nodes} nodes, {:.3} s", t.elapsed().as_secs_f64());
}
