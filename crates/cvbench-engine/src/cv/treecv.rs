//! TreeCV (Joulani, György, Szepesvári 2015, Algorithm 1).
//!
//! `TreeCV(s, e, f)` receives a model `f` trained on every chunk except
//! `Z_s..Z_e`:
//! - if `s == e`, return `(1/k) R_s`, the mean loss of `f` on `Z_s`, over `k`;
//! - else `m = floor((s + e) / 2)`;
//!   `f1 = L(f, Z_{m+1..e})`, `r = TreeCV(s, m, f1)`;
//!   `f2 = L(f, Z_{s..m})` (from the original `f`), `r += TreeCV(m+1, e, f2)`.
//!
//! `TreeCV(1, k, empty model)` is the k-CV estimate. Every level of the
//! recursion feeds each chunk to exactly one model, so the cost is
//! `sum_i |Z_i| depth(i) <= n ceil(log2 k)` point-updates.
//!
//! Three save/restore strategies (paper §3):
//! - [`Strategy::Copy`]: copy `f` before the first update (O(log k) live models);
//! - [`Strategy::SaveRevert`]: journal the update and revert it (one model);
//! - [`Strategy::Parallel`]: the two branches on rayon (O(k) live models;
//!   its counted peak is the fully parallel schedule's, k, for any thread count).
//!
//! Under [`Order::Randomized`] the order of each training phase is drawn from
//! a seed derived from the run seed and the node `(s, e, branch)`, so the
//! three strategies give identical models and estimates.

use super::{feed, ordered, Chunks, Counters, CvOutcome, Order};
use crate::data::Dataset;
use crate::learners::IncrementalLearner;
use crate::seed;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// How TreeCV saves and restores models between the two branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Copy the model before updating it.
    Copy,
    /// Record the update in a journal and revert it afterwards.
    SaveRevert,
    /// Copy strategy with the two branches run in parallel on rayon.
    Parallel,
}

impl Strategy {
    /// Every strategy, in the order help texts list them.
    pub const ALL: &'static [Strategy] =
        &[Strategy::Copy, Strategy::SaveRevert, Strategy::Parallel];

    /// The strategy's name (as serde writes it): `copy`, `save_revert`,
    /// `parallel`.
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Copy => "copy",
            Strategy::SaveRevert => "save_revert",
            Strategy::Parallel => "parallel",
        }
    }

    /// The strategy of a name ([`Strategy::as_str`]).
    pub fn parse(name: &str) -> Option<Strategy> {
        Strategy::ALL.iter().copied().find(|s| s.as_str() == name)
    }
}

/// Seed of the training phase at node `(s, e)`, branch 0 (`Z_{m+1..e}`) or 1 (`Z_{s..m}`).
fn phase_seed(seed: u64, s: usize, e: usize, branch: u64) -> u64 {
    seed::derive_ints(seed, &[s as u64, e as u64, branch])
}

struct Run<'a, L: IncrementalLearner> {
    learner: &'a L,
    data: &'a Dataset,
    chunks: &'a Chunks,
    order: Order,
    seed: u64,
    counters: Counters,
}

impl<L: IncrementalLearner> Run<'_, L> {
    fn leaf(&self, s: usize, model: &L::Model) -> f64 {
        self.learner
            .mean_loss(model, self.data, self.chunks.chunk(s))
            / self.chunks.k() as f64
    }

    fn train(&self, model: &mut L::Model, s: usize, e: usize, a: usize, b: usize, branch: u64) {
        feed(
            self.learner,
            model,
            self.data,
            &[self.chunks.range(a, b)],
            self.order,
            phase_seed(self.seed, s, e, branch),
            &self.counters,
        );
    }

    /// The copy strategies' step at node `[s, e]`: a leaf's loss (`Err`, the
    /// model dies), or the midpoint and a copy of the model for the left
    /// half (`f` goes on to the right half).
    fn branch(&self, s: usize, e: usize, f: &L::Model) -> Result<(usize, L::Model), f64> {
        if s == e {
            let r = self.leaf(s, f);
            self.counters.died();
            return Err(r);
        }
        self.counters.copied();
        Ok(((s + e) / 2, f.clone()))
    }

    /// Copy strategy; `f` is consumed (it becomes `f2`).
    fn copy(&self, s: usize, e: usize, mut f: L::Model) -> f64 {
        let (m, mut f1) = match self.branch(s, e, &f) {
            Ok(b) => b,
            Err(leaf) => return leaf,
        };
        self.train(&mut f1, s, e, m + 1, e, 0);
        let r = self.copy(s, m, f1);
        self.train(&mut f, s, e, s, m, 1);
        r + self.copy(m + 1, e, f)
    }

    /// Parallel copy strategy: the two branches on rayon.
    fn parallel(&self, s: usize, e: usize, mut f: L::Model) -> f64 {
        let (m, mut f1) = match self.branch(s, e, &f) {
            Ok(b) => b,
            Err(leaf) => return leaf,
        };
        let (r1, r2) = rayon::join(
            || {
                self.train(&mut f1, s, e, m + 1, e, 0);
                self.parallel(s, m, f1)
            },
            || {
                self.train(&mut f, s, e, s, m, 1);
                self.parallel(m + 1, e, f)
            },
        );
        r1 + r2
    }

    /// Save/revert strategy on one model, restored on return.
    fn save_revert(&self, s: usize, e: usize, f: &mut L::Model) -> f64 {
        if s == e {
            return self.leaf(s, f);
        }
        let m = (s + e) / 2;
        let pts = ordered(
            &[self.chunks.range(m + 1, e)],
            self.order,
            phase_seed(self.seed, s, e, 0),
        );
        self.counters.updated(pts.len());
        let journal = self.learner.update_journaled(f, self.data, &pts);
        let r = self.save_revert(s, m, f);
        self.learner.revert(f, self.data, journal);
        let pts = ordered(
            &[self.chunks.range(s, m)],
            self.order,
            phase_seed(self.seed, s, e, 1),
        );
        self.counters.updated(pts.len());
        let journal = self.learner.update_journaled(f, self.data, &pts);
        let r = r + self.save_revert(m + 1, e, f);
        self.learner.revert(f, self.data, journal);
        r
    }
}

/// Run TreeCV over `chunks` (any `k` from 1 to `n`; `k = n` is LOOCV).
pub fn treecv<L: IncrementalLearner>(
    learner: &L,
    data: &Dataset,
    chunks: &Chunks,
    order: Order,
    strategy: Strategy,
    seed: u64,
) -> CvOutcome {
    let start = Instant::now();
    let run = Run {
        learner,
        data,
        chunks,
        order,
        seed,
        counters: Counters::default(),
    };
    let k = chunks.k();
    let mut f = learner.init(data);
    run.counters.born();
    let estimate = match strategy {
        Strategy::Copy => run.copy(0, k - 1, f),
        Strategy::Parallel => run.parallel(0, k - 1, f),
        Strategy::SaveRevert => run.save_revert(0, k - 1, &mut f),
    };
    let work = match strategy {
        Strategy::Parallel => run.counters.work_fully_parallel(k),
        Strategy::Copy | Strategy::SaveRevert => run.counters.work(),
    };
    CvOutcome {
        estimate,
        work,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Depth of chunk `i` in TreeCV's recursion over `0..k`: the number of
/// internal nodes `(s, e)` containing `i`. Each of them feeds `Z_i` to exactly
/// one model (the branch `i` is not in), so TreeCV costs
/// `sum_i |Z_i| depth(i)` point-updates.
pub fn depth(k: usize, i: usize) -> usize {
    let (mut s, mut e, mut d) = (0, k - 1, 0);
    while s != e {
        let m = (s + e) / 2;
        if i <= m {
            e = m;
        } else {
            s = m + 1;
        }
        d += 1;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cv::Order;

    #[test]
    fn registry_names_are_the_serde_names() {
        for s in Strategy::ALL {
            let json = serde_json::to_string(s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.as_str()));
            assert_eq!(Strategy::parse(s.as_str()), Some(*s));
        }
        for o in Order::ALL {
            let json = serde_json::to_string(o).unwrap();
            assert_eq!(json, format!("\"{}\"", o.as_str()));
            assert_eq!(Order::parse(o.as_str()), Some(*o));
        }
        assert_eq!(Strategy::parse("nope"), None);
    }
}
