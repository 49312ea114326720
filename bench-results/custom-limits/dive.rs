//! The example's tree walked by a recursion that could be interrupted: it
//! counts the moves it gives at each level and looks at the context every
//! 16 nodes, and when the context asks, it unwinds, leaving each frame's
//! listing (first free place, next number, largest, moves given, move
//! taken) on a stack the engine could split. The context never asks here:
//! what the recursion costs with the bookkeeping a split needs.
//! `rustc -O -C target-cpu=x86-64-v2 dive.rs && ./dive 12`
use std::time::Instant;

struct Walk {
    n: u32,
    places: u32,
    nodes: u64,
    solutions: u64,
    look_at: u64,
}

#[derive(Clone, Copy)]
#[allow(dead_code)] // read by the split this model leaves out
struct Frame {
    p: u8,
    k: u8,
    last: u8,
    given: u32,
}

/// Returns true when interrupted, the frames left on `out`, deepest first.
fn dive(w: &mut Walk, taken: &mut u32, placed: &mut u32, out: &mut Vec<Frame>) -> bool {
    let p = taken.trailing_ones();
    let last = w.n.min(w.places.saturating_sub(p + 2));
    let mut given = 0u32;
    for k in 1..=last {
        let q = p + k + 1;
        if *placed & (1 << k) != 0 || *taken & (1 << q) != 0 {
            continue;
        }
        given += 1;
        *taken |= 1 << p | 1 << q;
        *placed |= 1 << k;
        w.nodes += 1;
        w.solutions += u64::from(taken.count_ones() == w.places);
        let frame = Frame { p: p as u8, k: k as u8 + 1, last: last as u8, given };
        if w.nodes >= w.look_at {
            w.look_at = w.nodes + 16;
            if std::hint::black_box(false) {
                out.push(frame);
                return true;
            }
        }
        if dive(w, taken, placed, out) {
            out.push(frame);
            return true;
        }
        *taken &= !(1 << p | 1 << q);
        *placed &= !(1 << k);
    }
    false
}

fn main() {
    let n: u32 = std::env::args().nth(1).map_or(12, |a| a.parse().expect("the order"));
    let t = Instant::now();
    let mut w = Walk { n, places: 2 * n, nodes: 1, solutions: 0, look_at: 0 };
    let (mut taken, mut placed, mut out) = (0, 0, Vec::new());
    dive(&mut w, &mut taken, &mut placed, &mut out);
    println!("{} solutions, {} nodes, {:.3} s", w.solutions, w.nodes, t.elapsed().as_secs_f64());
}
