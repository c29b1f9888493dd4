//! Progressive validation on a data stream, as online-learning tools report
//! it: the *running progressive loss* (the mean loss of each model on the
//! next point before it learns from it) over one pass, beside the test-set
//! error of the current model at checkpoints and a plain hold-out estimate.

use rand::seq::index;
use serde::{Deserialize, Serialize};

use super::stats::Summary;
use super::theorems::same_features;
use super::ProgressiveError;
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::learners::{hold_out, progressive, IncrementalLearner};
use cvbench_engine::api::seed;

/// Settings of one stream run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamSpec {
    /// Number of log-spaced checkpoints where the current model's test error
    /// is measured.
    pub checkpoints: usize,
    /// Hold-out size for the hold-out estimate (the last points of the stream).
    pub holdout: usize,
    /// Random members of the progressive hypothesis whose test error is
    /// measured, to estimate its true error (0: none).
    pub members: usize,
    /// Seed of the stream order and the member sample.
    pub seed: u64,
}

/// One checkpoint of the stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamPoint {
    /// Points the model has learnt from (`t`; the progressive loss at `t`
    /// averages the first `t + 1` tested points).
    pub t: usize,
    /// Running progressive loss over the first `t + 1` points.
    pub running_loss: f64,
    /// Test-set loss of the model that has seen `t` points.
    pub test_error: f64,
}

/// The result of a stream run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamResult {
    /// Learner name.
    pub learner: String,
    /// Training stream name.
    pub dataset: String,
    /// Stream length.
    pub n: usize,
    /// Checkpoints in increasing `t`.
    pub points: Vec<StreamPoint>,
    /// The progressive estimate over the whole stream.
    pub progressive_estimate: f64,
    /// Test-set error of the progressive hypothesis, estimated from the
    /// sampled members (NaN without members).
    pub progressive_true: f64,
    /// Standard error of `progressive_true` over the sampled members.
    pub progressive_true_se: f64,
    /// Test-set error of the model after the whole stream.
    pub final_test_error: f64,
    /// Hold-out estimate: train on the first `n - holdout` points, test on the rest.
    pub holdout_estimate: f64,
    /// Test-set error of the hold-out hypothesis.
    pub holdout_test_error: f64,
    /// Hold-out size.
    pub holdout: usize,
}

/// `count` log-spaced integers in `[1, n]`, ascending, distinct.
pub fn log_spaced(n: usize, count: usize) -> Vec<usize> {
    if n == 0 || count == 0 {
        return Vec::new();
    }
    let mut out: Vec<usize> = (0..count)
        .map(|i| {
            let f = if count == 1 {
                1.0
            } else {
                i as f64 / (count - 1) as f64
            };
            ((n as f64).powf(f).round() as usize).clamp(1, n)
        })
        .collect();
    out.dedup();
    out
}

/// Run one pass of `learner` over `train` in a random order (seeded),
/// reporting the running progressive loss, test errors on `test` and the
/// hold-out estimate.
pub fn progressive_stream<L: IncrementalLearner>(
    learner: &L,
    train: &Dataset,
    test: &Dataset,
    spec: &StreamSpec,
) -> Result<StreamResult, ProgressiveError> {
    let n = train.n();
    same_features(train, test)?;
    if n < 2 || test.n() == 0 {
        return Err(ProgressiveError::Invalid(
            "the stream needs at least two points and a non-empty test set".into(),
        ));
    }
    if spec.holdout == 0 || spec.holdout >= n {
        return Err(ProgressiveError::Invalid(format!(
            "hold-out size must be in 1..{n}, got {}",
            spec.holdout
        )));
    }
    let order = index::sample(&mut seed::rng(seed::derive(spec.seed, "order")), n, n).into_vec();
    // Checkpoints in terms of t = points learnt (0..n-1 are tested hypotheses).
    let checkpoints: Vec<usize> = log_spaced(n, spec.checkpoints)
        .into_iter()
        .map(|t| t - 1)
        .collect();
    let members: Vec<usize> = if spec.members > 0 {
        let mut m = index::sample(
            &mut seed::rng(seed::derive(spec.seed, "members")),
            n,
            spec.members.min(n),
        )
        .into_vec();
        m.sort_unstable();
        m
    } else {
        Vec::new()
    };
    let all_test: Vec<usize> = (0..test.n()).collect();
    let mut test_at = Vec::with_capacity(checkpoints.len());
    let mut member_errors = Vec::with_capacity(members.len());
    let (mut ci, mut mi) = (0, 0);
    let pv = progressive(learner, train, &[], &order, 0, |i, m| {
        let need_c = ci < checkpoints.len() && checkpoints[ci] == i;
        let need_m = mi < members.len() && members[mi] == i;
        if need_c || need_m {
            let e = learner.mean_loss(m, test, &all_test);
            if need_c {
                test_at.push(e);
                ci += 1;
            }
            if need_m {
                member_errors.push(e);
                mi += 1;
            }
        }
    })?;
    let running = pv.running_loss();
    let points = checkpoints
        .iter()
        .zip(&test_at)
        .map(|(&t, &e)| StreamPoint {
            t,
            running_loss: running[t],
            test_error: e,
        })
        .collect();
    let members_summary = Summary::of(&member_errors);
    let split = n - spec.holdout;
    let ho = hold_out(learner, train, &order[..split], &order[split..])?;
    Ok(StreamResult {
        learner: learner.name(),
        dataset: train.name.clone(),
        n,
        points,
        progressive_estimate: pv.estimate,
        progressive_true: members_summary.mean,
        progressive_true_se: members_summary.se,
        final_test_error: learner.mean_loss(&pv.final_model, test, &all_test),
        holdout_estimate: ho.estimate,
        holdout_test_error: learner.mean_loss(&ho.model, test, &all_test),
        holdout: spec.holdout,
    })
}
