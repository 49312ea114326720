//! Parking idle workers without spinning and without lost wake-ups.

use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};

/// An epoch counter with a condition variable. See `README.md` beside this
/// file for why a wake-up can never be lost.
#[derive(Default)]
pub struct Sleep {
    epoch: AtomicU64,
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    cv: Condvar,
}

impl Sleep {
    /// The current epoch. Read it *before* the last look for work.
    pub fn epoch(&self) -> u64 {
        self.epoch.load(SeqCst)
    }

    /// Parks the caller unless something was announced since `seen` was read.
    pub fn wait(&self, seen: u64) {
        let mut guard = self.lock.lock();
        self.sleepers.fetch_add(1, SeqCst);
        if self.epoch.load(SeqCst) == seen {
            self.cv.wait(&mut guard);
        }
        self.sleepers.fetch_sub(1, SeqCst);
    }

    /// Announces new work (or a stop): wakes every parked worker.
    pub fn notify(&self) {
        self.epoch.fetch_add(1, SeqCst);
        if self.sleepers.load(SeqCst) > 0 {
            let _guard = self.lock.lock();
            self.cv.notify_all();
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// A waiter that read the epoch before a notify never parks for good:
    /// repeated many times to shake out interleavings.
    #[test]
    fn no_lost_wakeup() {
        for _ in 0..2000 {
            let sleep = Arc::new(Sleep::default());
            let flag = Arc::new(AtomicBool::new(false));
            let (s, f) = (sleep.clone(), flag.clone());
            let waiter = std::thread::spawn(move || {
                loop {
                    let seen = s.epoch();
                    if f.load(SeqCst) {
                        return;
                    }
                    s.wait(seen);
                }
            });
            flag.store(true, SeqCst);
            sleep.notify();
            waiter.join().unwrap();
        }
    }
}
