//! The tree round order of [`super::Run`]: TreeCV's recursion over the
//! folds, each node warm started from its parent's optimum.

use std::time::Instant;

use super::{ExtraSolve, Run};
use crate::svm::cv::rounds::RoundResult;
use crate::svm::error::SvmError;
use crate::svm::model::solution::{train_seeded, TrainOutput};
use crate::svm::seeding::gradient::{self, PrevGradient};

impl Run<'_> {
    /// Rows of the folds outside `s..=e`, in fold order.
    fn rows_outside(&self, s: usize, e: usize) -> Vec<usize> {
        (0..self.folds.k())
            .filter(|&g| g < s || g > e)
            .flat_map(|g| self.folds.test_rows(g).iter().copied())
            .collect()
    }

    /// A tree node's warm start from its parent: the parent's alphas, the
    /// returning rows at 0 (feasible as is), and the gradient: a shared row
    /// keeps the parent's final `G` (no alpha changed), a returning row gets
    /// the parent model's sums over it.
    #[allow(clippy::type_complexity)]
    fn tree_warm_start(
        &self,
        prows: &[usize],
        pout: &TrainOutput,
        rows: &[usize],
    ) -> (Vec<f64>, Option<(Vec<f64>, Vec<f64>)>) {
        let n = self.kd.ds.n();
        let a = crate::svm::seeding::round::by_row(n, prows, &pout.alpha);
        let alpha: Vec<f64> = rows
            .iter()
            .map(|&r| if a[r].is_nan() { 0.0 } else { a[r] })
            .collect();
        let returning: Vec<usize> = rows.iter().copied().filter(|&r| a[r].is_nan()).collect();
        let ctx = self.ctx();
        let sums = gradient::heldout_sums(&ctx, prows, &pout.alpha, &returning);
        let grad = gradient::next_gradient(
            &ctx,
            &PrevGradient {
                rows: prows,
                alpha: &pout.alpha,
                g: &pout.gradient,
                g_bar: &pout.g_bar,
            },
            &sums,
            rows,
            &alpha,
        );
        (alpha, grad)
    }

    pub(super) fn tree(
        &self,
        s: usize,
        e: usize,
        parent: Option<(&[usize], &TrainOutput)>,
    ) -> (Vec<RoundResult>, Vec<Result<ExtraSolve, SvmError>>) {
        let rows = self.rows_outside(s, e);
        let solved = if rows.is_empty() {
            None
        } else {
            let ts = Instant::now();
            let warm = parent.map(|(prows, pout)| self.tree_warm_start(prows, pout, &rows));
            let seed_s = if warm.is_some() {
                ts.elapsed().as_secs_f64()
            } else {
                0.0
            };
            let result = match &warm {
                Some((alpha, grad)) => train_seeded(
                    self.kd,
                    &rows,
                    &self.params,
                    Some((
                        alpha,
                        grad.as_ref().map(|(g, gb)| (g.as_slice(), gb.as_slice())),
                    )),
                    self.shared,
                ),
                None => self.train(&rows, None),
            };
            match result {
                Ok(o) => Some((o, seed_s)),
                Err(err) => return (vec![Err(err)], vec![]),
            }
        };
        if s == e {
            let Some((o, seed_s)) = solved else {
                let err = SvmError::InvalidFolds(format!("round {s} has no training rows"));
                return (vec![Err(err)], vec![]);
            };
            let warm = parent.is_some();
            let round = self
                .finish_round(s, &rows, (o, seed_s, warm), None)
                .map(|r| r.0);
            return (vec![round], vec![]);
        }
        let m = (s + e) / 2;
        let node = solved.as_ref().map(|(o, _)| (rows.as_slice(), o));
        let (mut l, r) = if self.parallel {
            rayon::join(|| self.tree(s, m, node), || self.tree(m + 1, e, node))
        } else {
            (self.tree(s, m, node), self.tree(m + 1, e, node))
        };
        l.0.extend(r.0);
        l.1.extend(r.1);
        if let Some((o, seed_s)) = solved {
            l.1.push(Ok(ExtraSolve {
                label: format!("node {s}..{e}"),
                n_train: rows.len(),
                stats: o.stats,
                seed_s,
            }));
        }
        l
    }
}
