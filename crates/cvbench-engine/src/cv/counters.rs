//! Work counters every CV run fills: point-updates, model copies, live models.
//! Atomic so that the parallel variants count exactly as the sequential ones.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};

/// Counts of the work a CV run did.
#[derive(Debug, Default)]
pub struct Counters {
    updates: AtomicU64,
    copies: AtomicU64,
    live: AtomicI64,
    peak: AtomicI64,
}

/// A snapshot of [`Counters`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Points fed to a learner (one per point per model update).
    pub updates: u64,
    /// Model copies made.
    pub copies: u64,
    /// Largest number of models alive at once. For the parallel variants,
    /// the most a schedule that runs every branch at once would hold (see
    /// [`Counters::work_fully_parallel`]), so that it does not depend on
    /// the thread count or on which branches rayon happened to overlap.
    pub peak_models: u64,
}

impl Counters {
    /// Record `n` point-updates.
    pub fn updated(&self, n: usize) {
        self.updates.fetch_add(n as u64, Relaxed);
    }

    /// Record a model copy (which is also a new live model).
    pub fn copied(&self) {
        self.copies.fetch_add(1, Relaxed);
        self.born();
    }

    /// Record a new live model.
    pub fn born(&self) {
        let now = self.live.fetch_add(1, Relaxed) + 1;
        self.peak.fetch_max(now, Relaxed);
    }

    /// Record a model dropped.
    pub fn died(&self) {
        self.live.fetch_sub(1, Relaxed);
    }

    /// The counts so far.
    pub fn work(&self) -> Work {
        Work {
            updates: self.updates.load(Relaxed),
            copies: self.copies.load(Relaxed),
            peak_models: self.peak.load(Relaxed).max(0) as u64,
        }
    }

    /// The counts of a parallel variant over `k` chunks, its peak the
    /// fully parallel schedule's: one live model per chunk (each leaf's, or
    /// each fold's), the O(k) worst case. The measured peak is left out: it
    /// depends on how many threads ran and how rayon's work stealing
    /// overlapped the branches, and a stored count must be the same for any
    /// thread count.
    pub fn work_fully_parallel(&self, k: usize) -> Work {
        Work {
            peak_models: k as u64,
            ..self.work()
        }
    }
}
