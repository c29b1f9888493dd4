//! A run's rows grouped per dataset and reuse level (`levels`), and
//! grid.py's choice over a level's points (`choose`): what the section's
//! tables (`render/`) and the scorecard (`verdicts/`) both read, so it lives
//! at the kind's top (a verdict never imports a renderer, issue 55).

use crate::experiments::svm_grid::rows::{GridRow, ROLE_CELL, ROLE_FOLD};
use crate::experiments::timing::Spread;
use crate::pyfmt::grid_rate;
use cvbench_engine::api::grid_search::{Best, Grid};
use std::collections::BTreeMap;

/// Key of a point: `(log2c, log2g)` as bits.
pub type PKey = (Option<u64>, Option<u64>);

/// The key of the point `(log2c, log2g)`.
pub fn pkey(c: Option<f64>, g: Option<f64>) -> PKey {
    (c.map(f64::to_bits), g.map(f64::to_bits))
}

/// One reuse level's results on one dataset.
#[derive(Default)]
pub struct LevelStats {
    /// `(correct, n)` per point.
    pub points: BTreeMap<PKey, (u64, u64)>,
    /// SMO iterations (summed over points and folds).
    pub iterations: u64,
    /// SMO iterations per point (summed over folds).
    pub point_iters: BTreeMap<PKey, u64>,
    /// Newton steps on the free sets (`newton` reuse; summed over points and
    /// folds).
    pub newton_steps: u64,
    /// Kernel evaluations of the solves (summed over points and folds).
    pub kernel_evals: u64,
    /// Kernel values filled from distances (summed over cells).
    pub kernel_fills: u64,
    /// Distance pairs computed (the most of any cell).
    pub distance_pairs: u64,
    /// Median wall seconds of the level's cells (summed over its cells).
    pub wall_s: f64,
    /// The cells' fastest timed runs, summed.
    pub wall_min_s: f64,
    /// The cells' slowest timed runs, summed.
    pub wall_max_s: f64,
    /// The fewest timed runs of any of its cells.
    pub runs: u64,
    /// Seconds on distance blocks and kernel fills (summed over cells).
    pub block_s: f64,
    /// Whether the level's rates are bit-identical to the baseline's.
    pub exact: bool,
    /// Threads of the level (1 without the threads reuse).
    pub threads: u64,
    /// Free text of its cells (the last one that has any).
    pub note: String,
    /// Cells the level ran in.
    pub cells: u64,
    /// The level's timed runs, rank by rank: the sum over its cells of each
    /// cell's fastest run, second fastest, ... (sorted runs summed in
    /// step, which gives the widest spread of any pairing of the cells'
    /// runs, so the bootstrap over them is the cautious one); `None` where
    /// a cell has no stored runs or the cells' run counts differ (the
    /// interval is then the range bound of the summed medians and ranges).
    pub run_sums: Option<Vec<f64>>,
}

/// Rows grouped: dataset → level → stats (levels in first-seen order).
pub fn levels(rows: &[GridRow]) -> BTreeMap<String, Vec<(String, LevelStats)>> {
    let mut out: BTreeMap<String, Vec<(String, LevelStats)>> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.role == ROLE_FOLD || r.role == ROLE_CELL)
    {
        let v = out.entry(r.core.dataset.clone()).or_default();
        let pos = match v.iter().position(|(m, _)| *m == r.core.method) {
            Some(p) => p,
            None => {
                v.push((r.core.method.clone(), LevelStats::default()));
                v.len() - 1
            }
        };
        let s = &mut v[pos].1;
        s.exact = r.exact;
        s.threads = r.threads;
        if r.role == ROLE_FOLD {
            s.iterations += r.iterations;
            s.newton_steps += r.newton_steps;
            *s.point_iters.entry(pkey(r.log2c, r.log2g)).or_insert(0) += r.iterations;
            s.kernel_evals += r.kernel_evals;
            if r.fold.is_some() {
                let e = s.points.entry(pkey(r.log2c, r.log2g)).or_insert((0, 0));
                e.0 += r.correct;
                e.1 += r.n_test;
            }
        } else {
            s.cells += 1;
            s.kernel_fills += r.kernel_fills;
            s.distance_pairs = s.distance_pairs.max(r.distance_pairs);
            let sp = r.spread();
            if sp.median.is_finite() {
                s.wall_s += sp.median;
                s.wall_min_s += sp.min;
                s.wall_max_s += sp.max;
            }
            s.run_sums = add_runs(
                if s.cells == 1 {
                    Some(Vec::new())
                } else {
                    s.run_sums.take()
                },
                &sp,
            );
            s.runs = if s.cells == 1 {
                sp.repeats
            } else {
                s.runs.min(sp.repeats)
            };
            s.block_s += r.block_s.unwrap_or(0.0);
            if !r.note.is_empty() {
                s.note = r.note.clone();
            }
        }
    }
    out
}

/// `sums` with the cell `sp`'s sorted runs added rank by rank (an empty
/// `sums` takes them as they are); `None` where the cell has no stored runs
/// of its every timed repeat or their count differs from the sums'.
fn add_runs(sums: Option<Vec<f64>>, sp: &Spread) -> Option<Vec<f64>> {
    let sums = sums?;
    if sp.runs.is_empty() || sp.runs.len() as u64 != sp.repeats {
        return None;
    }
    let mut runs = sp.runs.clone();
    runs.sort_by(f64::total_cmp);
    if sums.is_empty() {
        return Some(runs);
    }
    (sums.len() == runs.len()).then(|| sums.iter().zip(&runs).map(|(a, b)| a + b).collect())
}

/// grid.py's choice over the points of `stats` in grid order.
pub fn choose(grid: &Grid, stats: &LevelStats) -> Option<Best> {
    let mut best = Best::default();
    let mut any = false;
    for p in &grid.points {
        if let Some(&(c, n)) = stats.points.get(&pkey(p.log2c, p.log2g)) {
            best.update(p.log2c, p.log2g, grid_rate(c as usize, n as usize));
            any = true;
        }
    }
    any.then_some(best)
}

impl LevelStats {
    /// The level's timed runs as one spread (medians, mins and maxes summed
    /// over its cells; the runs summed rank by rank where every cell keeps
    /// them, see [`LevelStats::run_sums`]).
    pub fn spread(&self) -> Spread {
        Spread {
            median: self.wall_s,
            min: self.wall_min_s,
            max: self.wall_max_s,
            repeats: self.runs.max(1),
            runs: self.run_sums.clone().unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::add_runs;
    use crate::experiments::timing::Spread;

    fn sp(runs: &[f64], repeats: u64) -> Spread {
        Spread {
            median: f64::NAN,
            min: f64::NAN,
            max: f64::NAN,
            repeats,
            runs: runs.to_vec(),
        }
    }

    #[test]
    fn a_levels_runs_are_its_cells_sorted_runs_summed_rank_by_rank() {
        let one = add_runs(Some(Vec::new()), &sp(&[3.0, 1.0, 2.0], 3));
        assert_eq!(one, Some(vec![1.0, 2.0, 3.0]));
        let two = add_runs(one, &sp(&[10.0, 30.0, 20.0], 3));
        assert_eq!(two, Some(vec![11.0, 22.0, 33.0]));
        // A cell without stored runs, or with another count, or whose
        // runs are not its every repeat, leaves the range bound.
        assert_eq!(add_runs(two.clone(), &sp(&[], 3)), None);
        assert_eq!(add_runs(two.clone(), &sp(&[1.0, 2.0], 2)), None);
        assert_eq!(add_runs(two, &sp(&[1.0, 2.0], 3)), None);
        assert_eq!(add_runs(None, &sp(&[1.0, 2.0, 3.0], 3)), None);
    }
}
